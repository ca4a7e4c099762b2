import json, os, tomllib
L=[
("001",["console.log"],"python_exception_other",1,None,"torchrun --tee 4 ranks: rank 1 raises RuntimeError (grad accumulation buffer) at step 6; ranks 0,2 get gloo 'Connection closed by peer' knock-on."),
("002",["console.log"],"healthy",None,None,"torchrun 4 ranks, print style, 25 steps, completes."),
("003",["console.log","kern.log"],"host_oom_killed",2,None,"torchrun 4 ranks inside cgroup v1 memory cgroup (memory.limit_in_bytes=2G, by hand); rank 2 appends 64MiB tensors; kernel memcg OOM killer killed pid of rank 2 (kern.log = real dmesg lines); launcher shows SIGKILL rank 2 and SIGTERM others."),
("004",["console.log"],"nccl_timeout",1,"job_hang_no_progress","srun --label 3 tasks: rank 1 blocks forever reading a FIFO with no writer (real I/O block, logs 'reading next shard index from pipe'); ranks 0,2 hit gloo 20s timeouts; srun cancels step. Rank 1 is the one that stopped (no timeout of its own)."),
("005",["console.log"],"healthy",None,None,"mp.spawn 2 ranks with tqdm bars (\\r progress), completes."),
("006",["torchrun_logs"],"shape_mismatch",3,None,"torchrun --redirects 3 --log-dir, 4 ranks framework style; rank 3 matmul 8x16 @ 24x8 shape error at step 7; ranks 0,2 Connection closed by peer. Whole log dir handed over (no console)."),
("007",["console.log"],"tokenizer_or_data_error",2,None,"mp.spawn 3 ranks logging style: rank 2 opens missing shard file -> FileNotFoundError; spawn terminates others, ProcessRaisedException 'Process 2'."),
("008",["console.log"],"healthy",None,None,"srun --label 3 tasks, logging style, python -W default: FutureWarning about GradScaler deprecation and a NCCL env deprecation warning; completes."),
("009",["out"],"nan_inf_loss",3,None,"srun -o per-task files only (no console), 4 tasks JSON logs: rank 3's data has inf from sample 64, its local loss becomes nan at step 9 and it raises FloatingPointError; others Connection closed by peer; srun kill-on-bad-exit."),
("010",["worker"],"healthy",None,None,"torchrun --redirects 3 --log-dir 3 ranks; only local rank 1's stdout.log/stderr.log handed over; completes."),
("011",["slurm-6.out"],"checkpoint_disk_full",0,"storage_io_error","sbatch 2 tasks srun --label: rank 0 torch.save of ~16MB into a 2MB tmpfs (really full) -> 'basic_ios::clear: iostream error' / 'unexpected pos' from inline_container (torch's real shape for ENOSPC; no errno text); rank 1 knock-on."),
("012",["console.log"],"collective_mismatch",None,None,"torchrun --tee 3 ranks: rank 1 all-reduces a 7-element tensor, ranks 0,2 5 elements; gloo enforce on rank 0 'Received data size doesn't match expected size. Is there a distributed collective mismatch' (terminate), rank 2 connection reset. The odd rank (1) cannot be told from the logs: rank null. (DETAIL debug mode segfaulted DDP; rerun without it.)"),
("013",["console.log"],"healthy",None,None,"torchrun 4 ranks 400 steps; console copied at 18s while still training (cut mid-training), then I stopped it."),
("014",["console.log"],"dataloader_worker_killed",1,None,"torchrun 2 ranks, last 200 lines of console: rank 1's DataLoader worker SIGKILLs itself (real signal) -> 'DataLoader worker (pid N) is killed by signal: Killed'; rank 0 Connection closed by peer."),
("015",["console.log"],"rendezvous_failure",None,None,"torchrun --nnodes 2 c10d rendezvous, only one agent started, join_timeout=25: RendezvousTimeoutError."),
("016",["node0.log","node1.log"],"healthy",None,None,"two torchrun agents (2 nodes x 2 procs) via c10d rendezvous, --tee, JSON logs; completes."),
("017",["console.log"],"nccl_remote_peer_exited",3,None,"srun --label 4 tasks: rank 3 logs 'no more samples for this rank, exiting' and exits 0 at step 6; ranks 0-2 gloo 'Connection closed by peer'. Root = rank 3 exited early (its own exit is no error), class is lost peer."),
("018",["slurm-8.out"],"healthy",None,None,"sbatch 2 tasks srun JSON logs with checkpoint saves; completes."),
("019",["logs.tar.gz"],"python_exception_other",0,None,"torchrun --tee --log-dir 2 ranks, tar.gz of everything: rank 0 segfaults (ctypes.string_at(0)) after 'calling native augmentation kernel'; rank 1 connection reset. Taxonomy has no native-crash class; closest program class chosen (ambiguous)."),
("020",["console.log"],"healthy",None,None,"torchrun 2 ranks logging: rank 0 catches a ConnectionError to metrics.internal and logs its traceback via logging.exception, training goes on and completes."),
("021",["console.log"],"python_exception_other",2,None,"torchrun 3 ranks framework style (last 200 lines = whole): rank 2's prefetch thread dies with AttributeError ('Exception in thread prefetch'), its main loop blocks on the queue; ranks 0,1 hit gloo 20s timeouts; torchrun stops all."),
("022",["console.log"],"port_in_use",None,None,"another process holds port 59022; torchrun --master-port 59022 -> DistNetworkError EADDRINUSE."),
("023",["slurm-1.out"],"slurm_time_limit",None,None,"sbatch -t 1 2 tasks training forever: 'CANCELLED ... DUE TO TIME LIMIT'."),
("024",["slurm-3.out"],"preemption_sigterm",None,None,"sbatch 3 tasks, I scancel'ed it after 25s: 'JOB 3 CANCELLED AT' (no reason), tasks terminated. Asked to stop by the scheduler."),
("025",["job-logs.tar.gz"],"healthy",None,None,"srun -o task-%t.log 3 tasks, tar.gz of the per-task files; completes."),
("026",["job_logs"],"too_many_open_files",1,None,"torchrun --redirects 3 --log-dir under ulimit -n 200; rank 1's dataset leaks file handles -> OSError [Errno 24] Too many open files; rank 0 Connection closed by peer. Log dir only."),
("027",["logs/none_eqlt7mhq/attempt_0/0/stderr.log"],"checkpoint_corrupt",0,None,"torchrun --tee --log-dir 2 ranks; rank 0 loads a checkpoint truncated to half -> PytorchStreamReader failed finding central directory; only rank 0's stderr.log handed over (its path names rank 0 via torchrun's layout)."),
("028",["console.log"],"checkpoint_load_mismatch",None,None,"srun --label 4 tasks (last 200 lines = whole 65): all ranks load an old checkpoint with hidden 64 into hidden-32 model -> load_state_dict size mismatch on every rank; no single rank."),
("029",["console.log"],"healthy",None,None,"torchrun 4 ranks 120 steps, last 200 lines of console; completes."),
("030",["console.log"],"host_oom_killed",1,None,"mp.spawn 3 ranks; rank 1 grows memory; an earlyoom-like watcher (my shell loop, kill -9) killed it at RSS>1536MiB and printed 'memwatch: ... sending SIGKILL' into the console; spawn: process 1 terminated with SIGKILL."),
("031",["slurm-12.out"],"dtype_mismatch",0,None,"sbatch 2 tasks srun --label: rank 0 torch.mm double x float -> 'expected m1 and m2 to have the same dtype'; rank 1 Connection closed by peer."),
("032",["console.log"],"healthy",None,None,"srun --label 2 tasks JSON, console copied at 14s while still training (cut mid-run); the run later completed."),
("033",["logs"],"checkpoint_permission_denied",0,None,"torchrun --redirects 3 --log-dir 2 ranks; rank 0 saves checkpoint to a read-only tmpfs -> 'open file failed with strerror: Read-only file system' (EROFS); rank 1 knock-on. Log dir only (launcher console without output removed)."),
("034",["console.log"],"healthy",None,None,"torchrun 8 ranks TORCH_DISTRIBUTED_DEBUG=INFO; completes."),
]
keys=set(tomllib.load(open("/work/blind/r52/tool/signatures/taxonomy.toml","rb"))["classes"])
with open("labels.jsonl","w") as f:
  for r,i,c,rk,a,n in L:
    for p in i: assert os.path.exists(f"runs/{r}/{p}"), (r,p)
    assert c in keys and (a is None or a in keys), r
    f.write(json.dumps({"run":r,"inputs":i,"class":c,"initiating_rank":rk,"alt_class":a,"notes":n})+"\n")
print(len(L), sum(1 for x in L if x[2]!="healthy"), sum(1 for x in L if x[2]!="healthy" and x[3] is not None))
