L = []
def add(run, cls, rank, alt, launcher, how, evidence):
    L.append(dict(run=run, inputs=["."], **{"class": cls}, initiating_rank=rank, alt_class=alt,
                  launcher=launcher, how=how, evidence=evidence))

add("001_oom_rank2", "host_oom_killed", 2, None, "torchrun --log-dir --tee 3 (4 ranks, 1 node)",
    "rank 2 moved itself into a cgroup-v1 memory cgroup limited to 300 MB at step 140 and leaked tensors; the kernel OOM killer SIGKILLed it (dmesg confirms: 'Memory cgroup out of memory: Killed process ... python3'). dmesg is NOT included.",
    ["torchrun summary: rank 2 exitcode -9 (SIGKILL) as root cause", "rank 0/1 'Connection closed by peer' tracebacks are consequences", "other ranks SIGTERM by agent"])
add("002_corrupt_shard", "tokenizer_or_data_error", 3, None, "sbatch + srun --label (4 tasks)",
    "data shard shard_00007.npy truncated to 1/3; only rank 3 reads it (its 2nd shard in streaming mode) -> ValueError in np.load; others then see 'Connection closed by peer'",
    ["3: ValueError: Failed to read all data for array ... (file seems not fully written?)", "srun: error: task 3: Exited with exit code 1"])
add("003_config_mismatch_2node", "collective_mismatch", 3, "shape_mismatch", "two torchrun agents (c10d rdzv), node-a 3 ranks, node-b 1 rank",
    "node-b (rank 3) read a stale model config (vocab 1024 vs 512); DDP's cross-rank parameter shape check fails on rank 3; ranks 0-2 get 'Connection closed by peer'. node-a's torchrun names its own local rank 1 as root cause.",
    ["node-b.log: [rank3]: RuntimeError: [3]: params[0] in this process with sizes [1024, 64] appears not to match sizes of the same param in process 0.", "node-b timestamp 01:44:25.8 precedes node-a failure 01:44:26.8"])
add("004_eval_json_rank0", "python_exception_other", 0, None, "mp.spawn (3 ranks, only rank 0 logs INFO)",
    "at the step-150 eval rank 0 writes an eval report and json.dumps fails on a numpy float32 (TypeError) while ranks 1,2 wait in dist.barrier(); mp.spawn terminates them",
    ["-- Process 0 terminated with the following error:", "TypeError: Object of type float32 is not JSON serializable"])
add("005_io_hang_rank2", "nccl_timeout", 2, "job_hang_no_progress", "torchrun --log-dir --redirects 3 (per-rank files + launcher stderr)",
    "at step 170 rank 2 blocked forever in open() of a 'shard on the shared mount' (a FIFO with no writer); ranks 0,1,3 hit the 30 s gloo timeout in DDP collectives; torchrun names rank 1 as root cause and SIGTERMs rank 2",
    ["rank 2 stdout last line: 'prefetching next shard from .../mnt/lustre/corpus/shard_00012.npy' and no error", "ranks 0,1,3: 'Timed out waiting 30000ms for recv/send operation'", "rank 2 stderr empty, exit -15"])
add("006_shm_rank3", "dataloader_worker_killed", 3, None, "sbatch + srun --output per-task files (4 tasks)",
    "task 3 runs in its own mount namespace with /dev/shm a 192 KB tmpfs (too-small --shm-size); its DataLoader workers (2/rank, batch 48) fail to allocate shared memory for a batch",
    ["rank-3.log: Caught RuntimeError in DataLoader worker process 0 ... unable to allocate shared memory(shm) for file </torch_...>: No space left on device (28)", "srun: task 3: Exited with exit code 1"])
add("007_allreduce_shape_rank3", "collective_mismatch", 3, None, "torchrun (4 ranks, console), TORCH_DISTRIBUTED_DEBUG=DETAIL",
    "every 25 steps ranks all_reduce per-domain token counts; at step 75 rank 3 has an extra domain key so its tensor has 4 elements vs 3; the DETAIL wrapper reports the mismatch on all ranks (gradients averaged by hand, no DDP)",
    ["Rank 3 is running collective: ... TensorShape=[4] ... but Rank 0 is running ... TensorShape=[3]", "other ranks: 'but Rank 3 is running collective ... TensorShape=[4]'"])
add("008_nan_rank2", "nan_inf_loss", 2, None, "sbatch + srun --label (4 tasks), Lightning-style trainer (plain torch)",
    "feature shard part-0006 (read only by rank 2) has 10 rows with NaN in one column; with detect_anomaly=True rank 2's backward raises; rank 0's progress bar shows finite train_loss",
    ["2: RuntimeError: Function 'MseLossBackward0' returned nan values in its 0th output.", "srun: task 2: Exited with exit code 1", "ranks 1,3: Connection closed by peer"])
add("009_ckpt_readonly", "checkpoint_permission_denied", 0, "storage_io_error", "torchrun --log-dir --tee 3, @record (error.json files)",
    "checkpoint dir re-mounted read-only (bind mount, ro) 6 s into the run; rank 0, the only saver, fails at the step-150 save (EROFS) while ranks 1,2 wait in the barrier",
    ["[rank0]: OSError: [Errno 30] Read-only file system: '.../lm-009/step_000150'", "torchrun root cause rank 0 with error_file"])
add("010_async_ckpt_timeout", "checkpoint_write_timeout", 2, "checkpoint_writer_hang", "sbatch + srun --output per-task files (4 tasks)",
    "async sharded checkpoints every 60 steps from a background thread; rank 2's writer for step 60 stalls on storage (open() of a FIFO); at step 120 rank 2 waits for it with a 20 s deadline -> concurrent.futures.TimeoutError; rank 2 then hangs at interpreter exit (joining the stuck writer thread), ranks 0,1 hit the 60 s gloo timeout and exit 1, srun kills the rest",
    ["task2 log: 'waiting for previous async checkpoint' then pending.result(timeout=...) -> TimeoutError", "tasks 0,1: Timed out waiting 60000ms", "srun: tasks 0-1 exited 1 (consequence), tasks 2-3 Terminated"])
add("011_uneven_epoch_rank2", "collective_mismatch", 2, None, "torchrun --tee 3 (3 ranks), Lightning-style trainer",
    "UNPLANNED but real: 8 training parts over 3 ranks -> rank 2 has 8192 rows (128 batches) vs 12288 (192) on ranks 0,1. Rank 2 finishes epoch 0 first and enters validation all_reduce while ranks 0,1 are still in DDP gradient allreduce -> gloo 'Received data size doesn't match expected size' enforce -> rank 2 aborts (SIGABRT). (Rank 1's upload dir was a 200 KB tmpfs meant to fill, but it never filled before this crash.)",
    ["[default2]: terminate called after throwing an instance of 'gloo::EnforceNotMet' ... Received data size doesn't match expected size. Is there a distributed collective mismatch", "rank 2: 8192 training rows vs 12288 on ranks 0,1", "root cause rank 2 exitcode -6 (SIGABRT)"])
add("012_uploader_enospc_rank1", "checkpoint_disk_full", 1, "storage_io_error", "torchrun --tee 3 (4 ranks), Lightning-style trainer",
    "each rank's background 'artifact-uploader' thread torch.save()s weights+metrics every 50 steps to a per-rank dir; rank 1's dir is a 200 KB tmpfs: the 3rd save (step 150) hits ENOSPC, which torch.save reports as 'basic_ios::clear: iostream error' / 'unexpected pos'; the main loop notices the dead thread and raises",
    ["[default1]: Exception in thread artifact-uploader: ... RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 18432 vs 18320", "[rank1]: RuntimeError: artifact uploader thread died", "others: Connection closed by peer"])
add("013_resume_wrong_shape", "checkpoint_load_mismatch", None, None, "sbatch, two srun steps without --label (interleaved)",
    "stage 1 trains 100 steps with d_model=64 and saves; stage 2 resumes it with a config bumped to d_model=96 -> all 3 ranks fail in load_state_dict",
    ["[rankN]: RuntimeError: Error(s) in loading state_dict for TinyGPT: size mismatch for tok.weight ...", "all ranks fail identically"])
add("014_rdzv_timeout", "rendezvous_failure", None, None, "torchrun --nnodes 2 c10d rendezvous, only node-a's console",
    "second node never started its agent; node-a's rendezvous times out after join_timeout=30 s",
    ["torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"])
add("015_port_in_use", "port_in_use", None, None, "torchrun static rendezvous (--master-port 28151)",
    "a stale process holds port 28151; torchrun's store cannot bind",
    ["DistNetworkError: The server socket has failed to listen ... port: 28151 ... EADDRINUSE"])
add("016_timelimit_hang_rank1", "slurm_time_limit", 1, "job_hang_no_progress", "sbatch --time=1 + srun --label (3 tasks), 600 s collective timeout",
    "at step 150 rank 1 blocked forever opening its next 'shard' (FIFO with no writer); ranks 0,2 wait in allreduce (600 s timeout, never reached); Slurm cancels the job at its 1-minute time limit",
    ["1: ... prefetching next shard from .../shard_00031.npy is rank 1's last line", "*** JOB 7 ON vm CANCELLED AT ... DUE TO TIME LIMIT ***", "no step after 150 on any rank"])
add("017_early_exit_rank3", "nccl_remote_peer_exited", 3, "collective_mismatch", "torchrun --tee 3 (4 ranks)",
    "epoch-based loop with uneven shards: rank 3 has 156 batches vs 234 on ranks 0-2; rank 3 finishes, logs 'training done', destroys its process group and exits 0; ranks 0-2 fail in the next allreduce with 'Connection closed by peer'. Rank 3 is absent from torchrun's failure list (exit 0).",
    ["[default3]: epoch 0: 156 batches on this rank vs 234 on others", "[default3]: training done: 156 steps", "ranks 0-2: Connection closed by peer", "torchrun failures list only ranks 0,1,2"])
add("018_vocab_rank1_launcher_only", "tokenizer_or_data_error", 1, "python_exception_other", "torchrun --log-dir --redirects 3 + @record; ONLY the launcher's stderr is given",
    "shard_00004 was re-tokenized with a newer 1024-entry tokenizer while the model vocab is 512; streaming rank 1 reaches it (its 2nd shard) and the embedding lookup raises IndexError",
    ["Root Cause: rank 1 exitcode 1, traceback ... F.embedding ... IndexError: index out of range in self", "ranks 0,2: Connection closed by peer (SIGTERM)"])
add("019_cpu_alloc_rank1_tail", "host_oom_killed", 1, None, "sbatch + srun without --label; only the LAST 200 LINES of the job log are given",
    "task 1 ran under ulimit -v 4 GB (container memory cap); at step 330 rank 1 allocates a 16 GB buffer -> DefaultCPUAllocator can't allocate memory; others get Connection closed by peer",
    ["[rank1]: RuntimeError: [enforce fail at alloc_cpu.cpp:127] ... DefaultCPUAllocator: can't allocate memory: you tried to allocate 17179869184 bytes. Error code 12", "srun: task 1: Exited with exit code 1"])
add("020_emfile_rank2", "too_many_open_files", 2, "dataloader_worker_killed", "sbatch + srun --label (4 tasks)",
    "task 2 runs with ulimit -n 64; its DataLoader (3 workers, prefetch 4, dict batches of 6 tensors, fd-passing sharing strategy) runs out of file descriptors",
    ["2: [rank2]: RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase the limit using `ulimit -n`", "srun: task 2: Exited with exit code 1"])
add("021_stale_ext_nodeb", "dependency_abi_mismatch", None, None, "two torchrun agents as two nodes (2 ranks each), --tee 3",
    "node-b's PYTHONPATH has a stale build of a C extension (fused_ops._C) with an undefined libc10 symbol; both node-b ranks (2 and 3) fail importing it before init_process_group; node-a's ranks 0,1 time out in the store barrier after 30 s. Node-level: no single initiating rank.",
    ["node-b.log: ImportError: .../fused_ops/_C...so: undefined symbol: _ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_ib (ranks 2 and 3)", "node-a.log: DistStoreError: wait timeout after 30000ms (ranks 0,1), 30 s later"])
add("022_scancel", "preemption_sigterm", None, None, "sbatch + srun --label (3 tasks)",
    "healthy long training cancelled with `scancel <jobid>` after ~40 s (operator reclaiming the node)",
    ["slurmstepd: *** JOB 10 ON vm CANCELLED AT ... *** (no DUE TO TIME LIMIT)", "srun: tasks 0-2: Terminated", "no Python error"])
add("023_hang_snapshot_rank3", "job_hang_no_progress", 3, None, "two torchrun agents (node-a 3 ranks, node-b 1 rank), --tee 3, 1800 s timeout; snapshot of both consoles ~100 s into the hang",
    "node-b's dataset-cache lock file is flock-held by a stale process; rank 3 blocks acquiring it at start-up (after DDP init); ranks 0-2 acquire their node's lock and block in the first collective. No error anywhere; the job was still alive when the logs were copied.",
    ["node-b.log last line: 'acquiring dataset cache lock cache/node-b/.lock' with no 'acquired'", "node-a ranks: 'dataset cache lock acquired', shard assignment, then nothing", "no step lines at all"])
add("024_healthy_lr_bump", "healthy", None, None, "torchrun --log-dir --redirects 3 (3 ranks)",
    "LR schedule jumps to 0.08 at step 700 (meant to cause divergence); the loss rose 3.12 -> 3.44 and settled back to ~3.15; the divergence guard never fired; all ranks finished, rc=0",
    ["training done: 1500 steps on all ranks", "launcher.err has only the OMP_NUM_THREADS banner"])
add("025_divergence", "loss_spike_divergence", None, "nan_inf_loss", "torchrun --log-dir --redirects 3 (3 ranks)",
    "LR schedule 'restart' at step 700 to constant 0.6; loss goes from ~3.1 to ~9.5 and stays; rank 0's divergence guard raises at step 732; ranks 1,2 get Connection closed by peer. Weights are shared: no single initiating rank (rank 0 only hosts the guard).",
    ["rank0 WARNING loss spike at step 703: smoothed loss 4.746 vs best 3.121", "RuntimeError: Training diverged: smoothed loss 9.561 has stayed above 1.5x the best (3.121) for 30 steps"])
add("026_healthy_torchrun_warnings", "healthy", None, None, "torchrun --tee 3 (4 ranks), TORCH_DISTRIBUTED_DEBUG=INFO",
    "completes normally; rank 0's best-effort metrics push to a gateway that is down logs a WARNING with a ConnectionRefusedError traceback after every eval",
    ["training done on all 4 ranks", "WARNING metrics push ... failed (will retry next eval) + ConnectionRefusedError traceback (handled)"])
add("027_healthy_lightning_srun", "healthy", None, None, "sbatch + srun --label (4 tasks), Lightning-style trainer",
    "2 epochs complete; checkpoints and per-rank artifact uploads; harmless UserWarnings",
    ["`Trainer.fit` stopped: `max_epochs=2` reached.", "srun finished with exit code 0"])
add("028_healthy_spawn_resume", "healthy", None, None, "mp.spawn (2 ranks), only rank 0 logs INFO",
    "resumes from a step-400 checkpoint and trains 300 more steps with evals and checkpoints; completes",
    ["resumed at step 400", "training done: 300 steps"])

import json
assert len({d['run'] for d in L}) == len(L)
import os
runs = sorted(os.listdir('/work/blind/r23/runs'))
assert sorted(d['run'] for d in L) == runs, (set(runs) ^ {d['run'] for d in L})
import tomllib
classes = set(tomllib.load(open('/work/main/signatures/taxonomy.toml','rb'))['classes'])
for d in L:
    assert d['class'] in classes, d['class']
    assert d['alt_class'] is None or d['alt_class'] in classes, d['alt_class']
with open('/work/blind/r23/labels.jsonl','w') as f:
    for d in sorted(L, key=lambda d: d['run']):
        f.write(json.dumps(d) + "\n")
print(len(L), "labels written")
