import json
L = [
("022", ["console.log"], "healthy", None, None, "mp.spawn 2 procs, num_workers=3 on a 2-CPU box -> real DataLoader 'excessive worker creation' UserWarnings; 25 steps, exit 0; whole console"),
("023", ["console.log"], "port_in_use", None, None, "torchrun 2 procs with --master-port 39203 while another process holds that port -> DistNetworkError EADDRINUSE in the agent's TCPStore; whole console"),
("024", ["tinylm-1.out"], "dtype_mismatch", 2, None, "sbatch -n 3 + srun; rank 2 casts its batch to float64 -> 'mat1 and mat2 must have the same dtype'; others Connection closed by peer; whole slurm output"),
("025", ["tail50.log"], "rendezvous_failure", None, None, "torchrun --nnodes 2 c10d rendezvous with join_timeout=30, only node 0 ever started -> RendezvousTimeoutError; last 50 lines"),
("026", ["node0.log"], "nccl_timeout", None, "job_hang_no_progress", "two torchrun agents as two nodes (2x2); global rank 2 (on node 1) blocks on a FIFO read; handed over only node 0's console, where ranks 0,1 hit gloo 20 s recv timeouts (culprit rank not visible)"),
("027", ["joblogs"], "nan_inf_loss", 3, None, "two torchrun agents as two nodes (2x2), --log-dir --redirects 3 --tee 3; global rank 3 feeds inf inputs at step 6 -> FloatingPointError non-finite loss; directory with per-rank stdout/stderr of both nodes plus each node's console"),
("028", ["slurm-2.tail.txt"], "slurm_time_limit", None, None, "sbatch -n 2 --time=1, long training; Slurm cancels 'DUE TO TIME LIMIT'; last 100 lines of slurm output"),
("029", ["console.log"], "host_oom_killed", 1, "nccl_remote_peer_exited", "torchrun 2 procs inside a real 1.5 GB memory cgroup (v1); rank 1 allocates 64 MB tensors until the kernel memcg OOM killer SIGKILLs it (memory.oom_control oom_kill 1); console only shows exitcode -9 SIGKILL"),
("030", ["last150.log"], "host_oom_killed", 0, None, "torchrun 3 procs under ulimit -v 3 GB; rank 0 allocates until DefaultCPUAllocator: can't allocate memory (Errno 12); last 150 lines"),
("031", ["nodes"], "healthy", None, None, "two torchrun agents as two nodes (2x2), 25 steps, checkpoint save, exit 0; directory with both node consoles"),
("032", ["rank_logs"], "healthy", None, None, "torchrun 4 procs resuming from a good checkpoint, --log-dir --redirects 3; directory of per-rank stdout/stderr plus (near-empty) console; exit 0"),
("033", ["slurm-3.out"], "preemption_sigterm", None, None, "sbatch -n 2 long training; scancel after 25 s -> 'JOB 3 ... CANCELLED', tasks Terminated; whole slurm output"),
("034", ["slurm-4.out"], "healthy", None, None, "sbatch -n 2 + srun, 30 steps with checkpoint save, rc=0; whole slurm output"),
("035", ["grep.txt"], "nccl_remote_peer_exited", 3, "python_exception_other", "sbatch -n 4 + srun; rank 3 calls os.abort() at step 6 (srun: task 3: Aborted); others Connection closed by peer; grep -C2 error|Error|Traceback|Killed"),
]
with open("/work/blind/r33/labels.jsonl", "a") as f:
    for run, inp, c, r, alt, n in L:
        f.write(json.dumps({"run": run, "inputs": inp, "class": c, "initiating_rank": r, "alt_class": alt, "notes": n}) + "\n")
print(len(L))
