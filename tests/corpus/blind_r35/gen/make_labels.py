import json
L=[
("001",["console.log"],"nccl_timeout",2,"job_hang_no_progress","torchrun 3 ranks, plain console; rank 2 sleeps forever in a rank-conditional branch at step 8 and prints nothing; ranks 0,1 hit Gloo 'Timed out waiting 20000ms'; torchrun SIGTERMs rank 2. Silent culprit = rank 2."),
("002",["console.log"],"nccl_timeout",1,"job_hang_no_progress","torchrun --tee 3, Python logging, 4 ranks; rank 1 blocks reading a FIFO (stuck read) at step 10, silent; ranks 0,2,3 report Gloo recv/send timeouts (25 s). Rank 1 is the only one without a timeout."),
("003",["logs","console.log"],"nccl_timeout",3,"job_hang_no_progress","torchrun --log-dir --redirects 3 (per-rank attempt_0/N files) + console, JSON lines, 4 ranks; rank 3 self-deadlocks on a threading.Lock at step 6 and is silent; ranks 0-2 Gloo timeouts; torchrun's 'Root Cause' names rank 2 (a timed-out rank), rank 3 only SIGTERM."),
("004",["console.log"],"host_oom_killed",1,None,"torchrun 3 ranks, only rank 0 logs steps; rank 1 was kill -9'd from outside after ~9 s. Only launcher evidence: 'exitcode: -9 Signal 9 (SIGKILL)' for rank 1, SIGTERM for 0 and 2. A lone SIGKILL = Killed/137 per taxonomy."),
("005",["console.log"],"host_oom_killed",2,None,"torchrun --tee 3, HF-Trainer-like output; rank 2 moved itself into a memory cgroup (v1) with a 400M limit and allocated until the kernel cgroup OOM killer SIGKILLed it (real). Evidence: torchrun summary Signal 9 on rank 2; others SIGTERM."),
("006",["console.log"],"python_exception_other",1,"dependency_abi_mismatch","srun -n 3 --label, no rank in messages; rank 1 segfaults (ctypes.string_at(0)) at step 7; ranks 0,2 'Connection reset by peer'; srun: 'task 1: Segmentation fault'. No segfault class: native crash -> catch-all (alt: ABI/native extension)."),
("007",["tail.txt"],"python_exception_other",3,None,"torchrun 4 ranks; rank 3 calls os.abort() at step 11. Handed only the last 40 console lines (torchrun summary): Root Cause rank 3 exitcode -6 SIGABRT, others SIGTERM. Process abort, no more specific class."),
("008",["console.log"],"dataloader_worker_killed",1,None,"torchrun --tee 3, Lightning-like progress bar; a DataLoader worker of rank 1 gets SIGBUS -> 'DataLoader worker (pid N) is killed by signal: Bus error ... out of shared memory'; rank 0 'Connection closed by peer'."),
("009",["console.log"],"tokenizer_or_data_error",2,None,"srun -n 4 --label --kill-on-bad-exit=1; rank 2's Dataset json.loads of a malformed sample -> JSONDecodeError; ranks 1,3 Connection closed by peer; srun cancels the step (STEP CANCELLED, tasks Terminated)."),
("010",["slurm-6.out"],"nan_inf_loss",1,None,"sbatch with srun (no --label) inside, Python logging with [rankN]; rank 1's batch gets NaN at step 13 -> FloatingPointError 'Loss is nan at step 13'; ranks 0,2 Connection closed by peer; srun task lines."),
("011",["."],"host_oom_killed",2,"python_exception_other","srun -o %x-%j-%t.out per-task files (train-7-{0,1,2}.out), JSON lines; rank 2 torch.empty(5e12) -> 'DefaultCPUAllocator: can't allocate memory ... Error code 12' (CPU allocator failure); ranks 0,1 Connection closed by peer."),
("012",["train.log"],"collective_mismatch",1,None,"mp.spawn 3 procs, TORCH_DISTRIBUTED_DEBUG=DETAIL; rank 1 all_reduces a tensor of a different size at step 6; DETAIL reports 'Detected mismatch between collectives on ranks. Rank 2 is running ALLREDUCE ..., but Rank 1 is running ... GATHER' -> rank 1 is the odd one."),
("013",["console.log"],"nccl_remote_peer_exited",2,"collective_mismatch","torchrun 3 ranks; rank 2 has fewer batches (uneven data), prints 'epoch finished' and exits 0 after 10 steps; ranks 0,1 stuck in all_reduce get 'Connection closed by peer' and exit 1; torchrun root cause names rank 0."),
("014",["node0.log","node1.log"],"collective_mismatch",2,None,"two torchrun agents (2x2, c10d rendezvous, --tee); global rank 3 built its model with hidden=32 so its gradient all_reduce sizes differ; rank 2 aborts: gloo EnforceNotMet 'Received data size doesn't match expected size. Is there a distributed collective mismatch' (SIGABRT); rank 3 reset by peer, ranks 0,1 closed by peer. Detected on rank 2 (the culprit config was rank 3 but the files do not show it)."),
("015",["node0.log"],"nccl_timeout",None,"job_hang_no_progress","two torchrun agents (2x2, c10d); global rank 2 (on the other node) sleeps silently at step 9; only node 0's console (ranks 0,1) handed over: both report Gloo recv timeouts. The culprit's node is absent -> rank not deducible."),
("016",["logs"],"tokenizer_or_data_error",1,None,"torchrun --log-dir --redirects 3 per-rank files only, Python logging; rank 1 opens a missing data shard -> FileNotFoundError '/work/blind/r35/data/train-00001-of-00004.bin'; ranks 0,2 Connection closed by peer."),
("017",["console.log"],"checkpoint_permission_denied",0,None,"srun -n 2 --label; rank 0 saves its checkpoint to a read-only bind mount -> 'open file failed with strerror: Read-only file system' (EROFS); rank 1 Connection closed by peer."),
("018",["console.log"],"tokenizer_or_data_error",1,"python_exception_other","torchrun 3 ranks, plain console; rank 1's data prefetch thread dies on a sample without 'input_ids' (KeyError), printed as 'Exception in thread prefetch-0' with no rank prefix; rank 1's main thread then blocks on the empty queue; ranks 0,2 Gloo timeouts; rank 1 silent otherwise (SIGTERM)."),
("019",["console.log"],"checkpoint_disk_full",0,"storage_io_error","srun -n 3 --label, JSON lines; rank 0's background checkpoint writer thread saves to a full 256k tmpfs -> torch.save 'basic_ios::clear: iostream error' / 'unexpected pos'; main raises 'async checkpoint save of step 8 failed'; ranks 1,2 closed by peer. The disk was really full, torch does not print ENOSPC."),
("020",["."],"hub_network_error",0,None,"srun -n 3 -o %x-%j-%t.out per-task files, logging; rank 0 downloads a tokenizer from an unreachable server at start-up -> URLError Connection refused before init_process_group; ranks 1,2 time out connecting to the TCPStore on rank 0 (DistNetworkError client socket timed out)."),
("021",["console.log"],"dependency_abi_mismatch",None,None,"torchrun --tee 3, 2 ranks; every rank imports a missing compiled extension 'fused_adam_cuda' -> ModuleNotFoundError on both ranks at start-up; no single initiating rank."),
("022",["console.log"],"too_many_open_files",1,None,"torchrun --tee 3, JSON lines, 3 ranks; rank 1 with RLIMIT_NOFILE=64 opens shard index files -> OSError [Errno 24] Too many open files; ranks 0,2 closed by peer."),
("023",["train.log"],"checkpoint_corrupt",None,None,"mp.spawn 2 procs; both ranks resume from a truncated checkpoint -> 'PytorchStreamReader failed reading zip archive: failed finding central directory'; all ranks alike."),
("024",["logs","console.log"],"checkpoint_load_mismatch",None,None,"torchrun --log-dir per-rank files + console, 2 ranks; both ranks load a checkpoint of a different architecture -> 'Error(s) in loading state_dict for Sequential' (missing/unexpected keys, size mismatch); all ranks alike."),
("025",["console.log"],"dtype_mismatch",2,None,"srun -n 3 --label, HF-like output; rank 2 feeds a float64 batch at step 8 -> 'mat1 and mat2 must have the same dtype, but got Double and Float'; ranks 0,1 closed by peer."),
("026",["console.log"],"nan_inf_loss","None","loss_spike_divergence","torchrun 2 ranks, only rank 0 logs (every step); LR set to 3.0 at step 12: loss 0.18 -> 8.9 -> 8e4 -> 1.7e13 -> inf; both ranks raise 'Loss is inf at step 16'. Divergence ending in inf."),
("027",["console.log"],"job_hang_no_progress",None,"preemption_sigterm","torchrun --tee 3 wrapped in `timeout -s TERM 35`; rank 1 sleeps at step 10 with a 300 s PG timeout, so all ranks stop logging at step 8-10 with no error; 25 s later torchrun 'Received 15 death signal' and SIGTERMs workers. Hang, no rank deducible (all stop together)."),
("028",["slurm-2.out"],"slurm_time_limit",None,"job_hang_no_progress","sbatch --time=1 with srun --label, 2 ranks, logging; rank 0 hangs at step 15 (600 s PG timeout); Slurm: 'JOB 2 ... CANCELLED ... DUE TO TIME LIMIT'."),
("029",["console.log"],"job_hang_no_progress",None,"preemption_sigterm","srun -n 3 (no --label), JSON lines with rank field; rank 2 sleeps at step 8 (600 s PG timeout); all ranks stop logging; scancel after 25 s -> 'STEP 8.0 CANCELLED', tasks Terminated. Hang, rank not deducible."),
("030",["console.log"],"port_in_use",None,"rendezvous_failure","torchrun 2 procs with --master-port already bound by another process -> DistNetworkError 'failed to listen ... EADDRINUSE'; no worker started."),
("031",["console.log"],"rendezvous_failure",None,None,"torchrun --nnodes 2 c10d rendezvous but the second node never started; join_timeout=20 -> RendezvousTimeoutError."),
("032",["grep.txt"],"dataloader_worker_killed",2,"host_oom_killed","torchrun --tee 3, 3 ranks; a DataLoader worker of rank 2 is SIGKILLed -> 'DataLoader worker (pid N) is killed by signal: Killed.'; handed only `grep -iE error|exception|killed|signal|fail` of the console."),
("033",["console.log"],"healthy",None,None,"torchrun 3 ranks, completes 24 steps; FutureWarning/UserWarning noise only."),
("034",["console.log"],"healthy",None,None,"srun -n 3 --label; rank 1 logs a WARNING 'fetching shard index ... Connection refused; retrying (attempt 1/5)' then succeeds; run completes."),
("035",["train.log"],"healthy",None,None,"mp.spawn 3 procs, JSON lines, noisy loss (+|N(0,0.3)|); completes 30 steps."),
("036",["console.log"],"healthy",None,None,"torchrun --tee 3, Lightning-like bars; reported loss spikes ~25-75x for 3 steps at step 8 and recovers; Trainer.fit stopped: max_steps reached."),
("037",["node0.log","node1.log"],"healthy",None,None,"two torchrun agents (2x2, c10d), HF-like output, both nodes complete 20 steps."),
("038",["console.log"],"healthy",None,None,"torchrun --tee 3; rank 0's metrics-pusher thread dies with ConnectionRefusedError/URLError traceback, training goes on and completes."),
("039",["slurm-12.out"],"healthy",None,None,"sbatch + srun --label, 2 ranks, logging, FutureWarning/UserWarning, a 12 MB checkpoint save; completes."),
("040",["."],"healthy",None,None,"srun -n 2 -o %x-%j-%t.out per-task files, HF-like; rank 0 prints 'WARNING: eval callback failed' with a KeyError traceback it survives; completes."),
]
with open("labels.jsonl","w") as f:
    for run,inp,cls,rk,alt,notes in L:
        if rk=="None": rk=None
        f.write(json.dumps({"run":run,"inputs":inp,"class":cls,"initiating_rank":rk,"alt_class":alt,"notes":notes})+"\n")
import tomllib
tax=tomllib.load(open("/work/blind/taxonomy.toml","rb"))["classes"]
import os
for run,inp,cls,rk,alt,notes in L:
    assert cls in tax, cls
    assert alt is None or alt in tax, alt
    for i in inp: assert os.path.exists(f"runs/{run}/{i}"), (run,i)
print(len(L), sum(1 for x in L if x[2]=="healthy"))
