import json, os
B = "/work/blind/r34"
L = [
 ("001","python_exception_other",2,None,"torchrun 4 ranks; ValueError (float('n/a')) in the step on rank 2 at step 12; others SIGTERMed by torchrun. Paste = tail -n 100 of the console (includes the traceback and summary)."),
 ("002","tokenizer_or_data_error",1,"python_exception_other","torchrun --log-dir --tee 3, 3 ranks, 2 DataLoader workers; truncated JSONL record in rank 1's shard -> JSONDecodeError in worker re-raised on rank 1. Inputs: log dir + launcher stderr."),
 ("003","python_exception_other",0,None,"srun --label 3 tasks; metrics callback TypeError (None formatted with :.2e) on rank 0; srun reports task 0 Aborted, 1-2 Terminated."),
 ("004","python_exception_other",1,None,"torchrun 3 ranks; async checkpoint-writer thread on rank 1 raises TypeError (datetime not JSON serializable), re-raised at the next save via future.result(); others see gloo Connection closed by peer."),
 ("005","nccl_timeout",3,"job_hang_no_progress","torchrun 4 ranks; rank 3 sleeps at step 15 (logs 'dumping debug state...'); ranks 0-2 hit gloo 30s timeout; torchrun root cause names rank 0."),
 ("006","nccl_timeout",1,"job_hang_no_progress","srun -o %x-%j-%t.out 3 tasks (per-task files); rank 1 blocks opening a FIFO with no writer at step 6; ranks 0,2 gloo timeout; srun -K cancels the step."),
 ("007","nccl_timeout",0,"job_hang_no_progress","mp.spawn 3 procs; rank 0 deadlocks on a non-reentrant lock ('flushing metrics buffer'); ranks 1,2 gloo timeout; mp.spawn reports process 2."),
 ("008","host_oom_killed",2,None,"torchrun 4 ranks; rank 2 moved into a memory cgroup (1500M limit) and grows a tensor cache: kernel memcg OOM kill (exitcode -9). Inputs: console + dmesg grep."),
 ("009","host_oom_killed",1,None,"torchrun --redirects 3 --log-dir, 3 ranks; rank 1 under prlimit --as=1.5GB allocates 256MiB tensors in a loop: DefaultCPUAllocator can't allocate memory; others Connection closed by peer."),
 ("010","host_oom_killed",3,"nccl_remote_peer_exited","sbatch + srun --label 4 tasks; task 3 kill -9 from outside at step 10 (srun: task 3: Killed); others Connection closed by peer. No OOM message: SIGKILL is the taxonomy's host_oom signature; truth is an external kill -9."),
 ("011","python_exception_other",1,"nccl_remote_peer_exited","torchrun 3 ranks; os.abort() on rank 1 at step 9 (silent, SIGABRT); ranks 0,2 get Connection reset by peer and then also abort (terminate called...), torchrun root cause names rank 0. No native-crash class in taxonomy."),
 ("012","python_exception_other",1,"nccl_remote_peer_exited","srun without --label, plain log format (no rank in lines), 2 tasks; ctypes null deref on rank 1 (Fatal Python error: Segmentation fault); rank 0 Connection closed by peer then aborts; srun prints task 0 Aborted before task 1 Segmentation fault. No native-crash class."),
 ("013","nccl_remote_peer_exited",3,"nccl_timeout","torchrun 4 ranks; rank 3's shard shorter: logs 'rank data exhausted after 12 steps, exiting' and exits 0; others Connection closed by peer."),
 ("014","collective_mismatch",2,None,"torchrun 3 ranks, TORCH_DISTRIBUTED_DEBUG=DETAIL, manual grad all-reduce (DDP+DETAIL segfaults on this build); rank 2 all_reduces a 3-element metrics tensor, others 2: 'Detected mismatch between collectives' on all ranks."),
 ("015","collective_mismatch",1,None,"mp.spawn 3 procs, DETAIL; rank 1 broadcasts while 0,2 all_reduce; mp.spawn shows process 2's error naming Rank 1 BROADCAST."),
 ("016","nan_inf_loss",2,None,"torchrun 4 ranks; inf in rank 2's batch at step 14 -> FloatingPointError loss is nan on rank 2; others log finite loss with grad_norm nan then lose peer. Paste = tail -n 90 of console."),
 ("017","loss_spike_divergence",None,None,"srun --label 2 tasks; LR 0.08, no clipping: loss 15 -> ~4 then climbs to 1e33 from step ~18 and stays (finite); job exits 0."),
 ("018","checkpoint_disk_full",0,"storage_io_error","torchrun 2 ranks; rank 0 saves into a 3 MiB tmpfs; third save fails. torch prints only 'basic_ios::clear: iostream error' / 'unexpected pos' (no ENOSPC text); rank 1 loses peer."),
 ("019","healthy",None,None,"torchrun --max-restarts 1 --log-dir --tee 3, 3 ranks; attempt 0 rank 1 RuntimeError, all killed, attempt 1 completes all 20 steps."),
 ("020","checkpoint_permission_denied",0,None,"torchrun 4 ranks without CAP_DAC_OVERRIDE; rank 0 saves into a 0555 dir: PermissionError Errno 13; others Connection closed by peer."),
 ("021","rendezvous_failure",None,None,"torchrun --nnodes 2 c10d rendezvous, only one agent started: RendezvousTimeoutError after join_timeout=40."),
 ("022","port_in_use",None,None,"another process holds the master port; torchrun (static) fails to create its store: DistNetworkError EADDRINUSE; no worker started."),
 ("023","rendezvous_failure",None,"nccl_timeout","srun --label 3 tasks, wrapper hard-codes WORLD_SIZE=4: init_process_group DistStoreError wait timeout on every rank; step cancelled."),
 ("024","slurm_time_limit",None,None,"sbatch --time=1 with srun --label 2 tasks, 2000 steps: CANCELLED DUE TO TIME LIMIT."),
 ("025","preemption_sigterm",None,None,"sbatch, srun 3 tasks (no label); scancel at step 15: JOB CANCELLED (no time limit), tasks Terminated."),
 ("026","shape_mismatch",3,None,"two torchrun agents on localhost (2+2); rank 3 feeds a 36-feature batch: mat1 and mat2 shapes cannot be multiplied; input = node 1's --log-dir only (ranks 2,3; rank 2 Connection closed by peer)."),
 ("027","dtype_mismatch",1,None,"mp.spawn 3 procs; float64 batch on rank 1: mat1 and mat2 must have the same dtype; mp.spawn reports Process 1."),
 ("028","dataloader_worker_killed",1,None,"torchrun 4 ranks, 2 workers; a DataLoader worker of rank 1 SIGKILLs itself: 'DataLoader worker (pid X) is killed by signal: Killed'; others lose peer."),
 ("029","healthy",None,None,"srun --label 3 tasks; NCCL_DEBUG=INFO, TORCH_CPP_LOG_LEVEL=INFO, TORCH_DISTRIBUTED_DEBUG=INFO chatter (c10d trace lines) + FutureWarning; completes. (First attempt with DETAIL segfaulted; regenerated with INFO.)"),
 ("030","checkpoint_load_mismatch",None,None,"srun --label 4 tasks; resume from a checkpoint of a wider model: size mismatch in load_state_dict on all ranks alike."),
 ("031","too_many_open_files",0,None,"torchrun 3 ranks; rank 0 under prlimit --nofile=128 leaks file handles: OSError Errno 24 Too many open files; others lose peer."),
 ("032","checkpoint_writer_hang",0,"nccl_timeout","torchrun --redirects 3 --log-dir, 3 ranks; rank 0's async writer blocks writing to a FIFO at the step-10 save; at step 20 rank 0 waits for it forever, ranks 1,2 gloo timeout in the barrier. Inputs: console + log dir."),
 ("033","nccl_timeout",1,"job_hang_no_progress","torchrun 4 ranks --log-dir --tee 3; rank 1 sleeps at step 9; paste = grep -rn -iE 'error|timeout|exception|fail' of the log dir: ranks 0,2,3 gloo timeouts, rank 1 absent."),
 ("034","host_oom_killed",2,"nccl_remote_peer_exited","torchrun --redirects 3 --log-dir 4 ranks; rank 2 kill -9 from outside at step 12; paste = launcher console (exitcode -9 local_rank 2) + rank 0's files (Connection closed by peer)."),
 ("035","healthy",None,None,"torchrun 4 ranks; loss x8 spike at steps 14-16 (20.5) that recovers to ~0.1-1; completes."),
 ("036","healthy",None,None,"torchrun 3 ranks; rank 1 eval-shard fetch ConnectionRefusedError logged with tracebacks, retried, falls back; completes."),
 ("037","healthy",None,None,"sbatch + srun --label 2 tasks; 'Gradient overflow. Skipping step, loss scale reduced' at steps 2,3,5 (warm-up); completes."),
 ("038","healthy",None,None,"two torchrun agents (c10d rendezvous), node b starts 12 s late; both consoles; completes."),
 ("039","healthy",None,None,"mp.spawn 3 procs; rank 2 metrics callback TypeError caught and logged with log.exception ('disabling it'); completes."),
 ("040","healthy",None,None,"sbatch, srun -o %x-%j-%t.out 3 tasks + batch output; checkpoints every 10 steps; completes."),
]
with open(f"{B}/labels.jsonl", "w") as f:
    for run, cls, rank, alt, notes in L:
        d = f"{B}/runs/{run}"
        inputs = sorted(os.listdir(d))
        f.write(json.dumps({"run": run, "inputs": inputs, "class": cls, "initiating_rank": rank, "alt_class": alt, "notes": notes}) + "\n")
print(len(L))
