import json
L = [
("001", ["console.log"], "python_exception_other", 1, None, "torchrun 2 procs; rank 1 raises KeyError (cfg['lr_schedule']) in the training step at step 6; whole console"),
("002", ["tail.log"], "tokenizer_or_data_error", 3, None, "torchrun 4 procs; corrupted JSONL record (index 115, sampled by rank 3) -> json.JSONDecodeError in Dataset.__getitem__; last 120 lines"),
("003", ["grep.txt"], "tokenizer_or_data_error", 2, None, "torchrun 3 procs; rank 2 opens a missing shard shard-004.jsonl -> FileNotFoundError at dataset build; grep -C3 error|Error|Traceback|Killed"),
("004", ["console.log"], "dataloader_worker_killed", 1, None, "torchrun 2 procs, num_workers=2; a DataLoader worker of rank 1 SIGKILLs itself in __getitem__; main proc surfaced ConnectionResetError from resource_sharer; whole console"),
("005", ["train.log"], "checkpoint_disk_full", 1, "storage_io_error", "torchrun 2 procs; rank 1 torch.save to a 200k tmpfs that fills up (real ENOSPC, torch surfaces 'basic_ios::clear: iostream error'/'unexpected pos'); whole console"),
("006", ["last200.log"], "checkpoint_permission_denied", 0, None, "torchrun 3 procs; rank 0 saves checkpoint into a read-only tmpfs mount -> OSError EROFS; last 200 lines"),
("007", ["console.log"], "checkpoint_load_mismatch", None, None, "torchrun 2 procs; all ranks load_state_dict of an init.pt saved from a width-64 model into width-32 model -> size mismatch; whole console"),
("008", ["logs.tar.gz"], "checkpoint_corrupt", None, None, "torchrun 3 procs; all ranks torch.load a truncated latest.pt (1/3 of bytes) -> PytorchStreamReader central directory; console in a .tar.gz"),
("009", ["grep.txt"], "nan_inf_loss", 2, None, "torchrun 3 procs; rank 2 multiplies its batch by inf at step 6 -> loss nan, script raises FloatingPointError; grep -B2 -A6 error lines"),
("010", ["console.log"], "loss_spike_divergence", None, None, "torchrun 2 procs; LR=3 makes the loss explode monotonically from 0.5 to 2e18; rank 0's divergence check raises at step 11; whole console"),
("011", ["console.log"], "collective_mismatch", 1, None, "torchrun 2 procs; rank 1 all_reduce of 16 elements vs 8 on rank 0 -> gloo enforce 'Received data size doesn't match', rank 0 SIGABRT; whole console"),
("012", ["tail80.log"], "collective_mismatch", 0, "nccl_timeout", "torchrun 3 procs; rank 0 calls all_gather while ranks 1,2 call all_reduce -> gloo 20 s timeouts; last 80 lines"),
("013", ["console.log"], "collective_mismatch", 1, "nccl_timeout", "torchrun 3 procs; rank 1 skips an all_reduce the others do -> its DDP bucket all_reduce pairs with it, gloo enforce size mismatch on rank 0 (SIGABRT); whole console"),
("014", ["console.log"], "nccl_timeout", 1, "job_hang_no_progress", "torchrun 3 procs; rank 1 blocks forever reading a FIFO at step 6; ranks 0,2 hit gloo 20 s timeouts; whole console"),
("015", ["console.log"], "nccl_remote_peer_exited", 2, None, "torchrun 4 procs; rank 2 calls sys.exit(0) mid-training (logs 'finished my shard, exiting'); others get Connection closed by peer; launcher root cause shows rank 1; whole console"),
("016", ["console.log"], "nccl_remote_peer_exited", 1, "host_oom_killed", "torchrun 2 procs; rank 1 SIGKILLs itself (os.kill SIGKILL, not OOM) at step 6; rank 0 Connection reset by peer; whole console"),
("017", ["rank0_and_launcher.log"], "nccl_remote_peer_exited", 3, "python_exception_other", "torchrun 4 procs; rank 3 segfaults (ctypes.string_at(0)); handed over rank 0's lines plus launcher summary (shows rank 3 exitcode -11)"),
("018", ["logs"], "shape_mismatch", 0, None, "torchrun 2 procs; rank 0 concatenates extra features -> mat1 and mat2 shapes cannot be multiplied; directory of per-rank files split from console + launcher.log"),
("019", ["grep_errors.txt"], "checkpoint_disk_full", 2, None, "torchrun 3 procs; rank 2 writes its checkpoint to a full 200k tmpfs via open().write -> OSError Errno 28 ENOSPC; grep -i -C4 error|traceback|killed"),
("020", ["console.log"], "healthy", None, None, "torchrun 3 procs, num_workers=2, saves a checkpoint at step 15, 30 steps, exit 0; whole console"),
("021", ["output.txt"], "python_exception_other", 0, "nccl_remote_peer_exited", "mp.spawn 3 procs; process/rank 0 calls os.abort() at step 6 -> ProcessExitedException SIGABRT; whole output"),
]
with open("/work/blind/r33/labels.jsonl", "w") as f:
    for run, inp, c, r, alt, n in L:
        f.write(json.dumps({"run": run, "inputs": inp, "class": c, "initiating_rank": r, "alt_class": alt, "notes": n}) + "\n")
print(len(L))
