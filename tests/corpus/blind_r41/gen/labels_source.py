import json
L = []
def add(run, inputs, cls, rank, alt, notes):
    L.append({"run": run, "inputs": inputs, "class": cls, "initiating_rank": rank, "alt_class": alt, "notes": notes})
add("001", ["console.log", "logs"], "collective_mismatch", 1, "shape_mismatch",
    "torchrun --log-dir --tee 3, 4-stage send/recv pipeline. At step 140 stage 1 (rank 1) starts sending a half-width activation (its log prints shape=(8, 8)); the size mismatch breaks the p2p exchange and rank 1 aborts in gloo (EnforceNotMet 'Received data size doesn't match ... collective mismatch', exit -6). Ranks 0 and 2 then get connection closed/reset. Root: rank 1's wrong p2p shape.")
add("002", ["console.log"], "shape_mismatch", 2, None,
    "srun --label --kill-on-bad-exit, 4-stage pipeline, logging style. Stage 2 (rank 2) appends a feature column at step 120: 'mat1 and mat2 shapes cannot be multiplied (8x17 and 16x16)'. Ranks 1 and 3 get connection closed by peer, srun terminates the rest.")
add("003", ["console.log"], "nccl_timeout", 2, "job_hang_no_progress",
    "torchrun (console only), 4-stage isend/irecv pipeline, PG timeout 25 s. Stage 2 (rank 2) blocks at step 80 waiting for a lock file that never appears (real busy-wait, its last line says so). Ranks 0,1,3 hit 'Timed out waiting 25000ms for recv'. Rank 2 is the only rank with no timeout; torchrun SIGTERMs it.")
add("004", ["console.log", "logs"], "healthy", None, None,
    "torchrun --log-dir --tee, 4-stage pipeline, every stage logs WARNING bubble fraction lines and a ResourceWarning; completes all 240 steps.")
add("005", ["slurm-8.out", "task-0.out", "task-1.out", "task-2.out"], "dtype_mismatch", 1, None,
    "sbatch, srun -o per task, 3-stage pipeline, trainer-style log. Stage 1 (rank 1) casts its input to float64 at step 60: 'mat1 and mat2 must have the same dtype, but got Double and Float'. Ranks 0 and 2: connection closed by peer.")
add("006", ["console.log", "logs"], "nccl_timeout", 3, "job_hang_no_progress",
    "torchrun --log-dir without --tee (log dir holds only empty attempt dirs), JSON logs, 4 ranks tp=2 x dp=2 subgroups (new_group). Rank 3 blocks (sleep) after its tensor-parallel all-reduce at step 70 ('fetching next microbatch from remote reader'). Ranks 0,1,2 time out (25 s) in their tp/dp subgroup recv. Rank 3 is the silent one.")
add("007", ["console.log"], "python_exception_other", 5, None,
    "srun --label (no kill-on-bad-exit), 8 ranks tp=2 x dp=4 subgroups. Rank 5 modifies a sigmoid output in place at step 40: autograd 'one of the variables needed for gradient computation has been modified by an inplace operation'. Other 7 ranks: connection closed by peer.")
add("008", ["console.log"], "collective_mismatch", 2, None,
    "mp.spawn 6 ranks, tp=2 x dp=3 subgroups, TORCH_DISTRIBUTED_DEBUG=DETAIL. Global rank 2 all-reduces a longer (272) gradient in data-parallel group [0,2,4] at step 30. Only process 4's error is shown by mp.spawn: 'Detected mismatch between collectives ... Rank 2 ... ALLREDUCE [16,16] but Rank 1 ... GATHER' (group-local ranks; group rank 1 of [0,2,4] = global rank 2, the odd one). Rank needs group-rank translation from the layout lines.")
add("009", ["console.log"], "healthy", None, None,
    "srun --label, 4 ranks subgroups, PG timeout 60 s. Rank 2 sleeps 12 s before the step-100 barrier; all ranks log 'WARNING: barrier ... took 12.0s, straggler suspected'; training finishes on all ranks.")
add("011", ["node-a.log", "node-b.log"], "node_failure", None, "rendezvous_failure",
    "Two torchrun agents (elastic --nnodes 1:2, c10d rendezvous, 2 workers each). Agent B (which under load ended up hosting the c10d store) was SIGKILLed with its process group at step ~60 (a lost node). Agent A: TCPStore recv failed / broken pipe, keep-alive heartbeat failed, RendezvousConnectionError; B's orphaned workers report connection reset. Meant as a scale-down but the store went with the node, so the job failed. No single rank started it.")
add("012", ["console.log"], "nan_inf_loss", 3, None,
    "srun without --label, 4 ranks DDP, 2000 steps, warnings along the way (GradScaler UserWarning, grad-norm clip warnings, a skipped inf/nan step on rank 0 at step 30). Rank 3 gets a corrupt (inf-inf) sample at step 1500 and raises FloatingPointError 'Loss is nan at step 1500 on rank 3'. Others: connection closed.")
add("013", ["console.log"], "python_exception_other", 1, None,
    "mp.spawn join, 4 ranks DDP. Rank 1 modifies sigmoid's output in place at step 25: autograd inplace error. mp.spawn terminates the others and prints 'Process 1 terminated with the following error'.")
add("014", ["console.log"], "python_exception_other", 2, "collective_mismatch",
    "torchrun --tee 3, 3 ranks DDP (find_unused_parameters=False). From step 40 rank 2 skips the aux head (its graph differs): 'Expected to have finished reduction in the prior iteration ... parameters that were not used' on rank 2; ranks 0,1 connection closed.")
add("015", ["console.log", "logs"], "shape_mismatch", 1, "python_exception_other",
    "torchrun --log-dir --tee, 4 ranks DDP, torch.compile on rank 1 only. At step 30 rank 1's input has 17 features: dynamo TorchRuntimeError 'a and b must have same reduction dim, but got [16, s27] X [16, 32]'. Others: connection closed.")
add("016", ["console.log"], "python_exception_other", 2, None,
    "srun --label, 4 ranks DDP. Rank 2 really segfaults (ctypes.string_at(0)) at step 60 after 'calling fused_adam extension kernel'; srun: 'task 2: Segmentation fault'; others connection reset/closed. The taxonomy has no native-crash class; python_exception_other is my closest (any tool answer naming rank 2 with a crash is what a user needs).")
add("017", ["console.log"], "nccl_remote_peer_exited", 3, "python_exception_other",
    "torchrun, 4 ranks DDP, trainer-style log. Rank 3 returns early (exit 0) at step 70 after logging 'early stopping ... stopping' (a one-rank early-stop bug); ranks 0 and 2 get connection closed by peer. Root: rank 3 left the job.")
add("018", ["slurm-16.out", "task-0.out", "task-1.out", "task-2.out"], "host_oom_killed", 1, None,
    "sbatch, srun -o per task, 3 ranks DDP. Rank 1 joins a cgroup v1 memory cgroup (limit 700 MiB, memsw too) at step 40 and leaks 64 MiB per step; the kernel memcg OOM killer kills it (dmesg: 'Memory cgroup out of memory: Killed process'); srun: 'task 1: Killed'; others connection closed.")
add("019", ["console.log", "logs"], "host_oom_killed", 4, "nccl_remote_peer_exited",
    "torchrun --log-dir --tee, 6 ranks DDP, logging style. Rank 4 leaks 64 MiB/step from step 40; a watcher SIGKILLs it (kill -9) at RSS 950 MB (an OOM-killer stand-in). torchrun: exitcode -9 local_rank 4; ranks 3,5 connection reset. Rank's log shows 'host cache holds 64 MiB' growing.")
add("020", ["console.log"], "tokenizer_or_data_error", 2, None,
    "mp.spawn, 4 ranks DDP. Rank 2's background prefetch thread fails at step 40 with FileNotFoundError for shard train-00002-of-00004.bin ('Exception in thread shard-prefetch'); the main thread raises 'prefetch queue empty ... thread died' from it; mp.spawn: Process 2 terminated.")
add("021", ["out-0.txt", "out-1.txt", "out-2.txt", "out-3.txt"], "dataloader_worker_killed", 1, None,
    "srun -o per task (no sbatch), --kill-on-bad-exit, 4 ranks DDP with DataLoader num_workers=2. A worker of rank 1 is SIGKILLed (os.kill 9 in __getitem__): 'DataLoader worker (pid N) is killed by signal: Killed.' Others connection closed / cancelled.")
add("022", ["console.log"], "healthy", None, None,
    "mp.spawn 4 ranks, tqdm-like \\r progress bars interleaved, GradScaler UserWarning, grad clip warnings, 'found inf/nan in gradients ... skipping optimizer step' once; finishes 300 steps.")
add("023", ["console.log"], "tokenizer_or_data_error", 3, None,
    "torchrun console, 4 ranks DDP, trainer-style log. Rank 3 reads a truncated JSONL record at step 90: json.decoder.JSONDecodeError. Others connection closed; torchrun's Root Cause names rank 0 (knock-on).")
add("024", ["console.log"], "too_many_open_files", 1, None,
    "srun --label, 2 ranks DDP. Rank 1 has RLIMIT_NOFILE 64 and opens cache files each step from 20: 'OSError: [Errno 24] Too many open files'. Rank 0 connection closed.")
add("025", ["console.log", "logs"], "checkpoint_disk_full", 0, None,
    "torchrun --log-dir --tee, 4 ranks DDP. Rank 0 writes the step-150 checkpoint to a path that is /dev/full: 'OSError: [Errno 28] No space left on device'. Ranks 1-3 waiting at the barrier: connection closed.")
add("026", ["slurm-7.out"], "checkpoint_corrupt", 0, None,
    "sbatch + srun --label, 2 ranks. Rank 0 resumes from a truncated (1500-byte) checkpoint: 'PytorchStreamReader failed reading zip archive: failed finding central directory'. Rank 1 connection closed.")
add("027", ["console.log"], "checkpoint_load_mismatch", None, None,
    "srun --label, 4 ranks: every rank loads a checkpoint whose fc2 head has another shape: 'Error(s) in loading state_dict for Net: size mismatch'. All ranks fail alike, no single initiator.")
add("028", ["console.log"], "loss_spike_divergence", None, "nan_inf_loss",
    "torchrun, 2 ranks DDP, JSON lines. From step 300 the LR grows x1.04 per step; loss goes 0.02 -> 1.14 (step 400) -> 1.8e6 and the guard raises 'loss diverged: 1.830e+06 at step 420' on both ranks alike.")
add("029", ["slurm-2.out"], "slurm_time_limit", None, None,
    "sbatch --time=1, 2 ranks training without end: 'CANCELLED ... DUE TO TIME LIMIT'.")
add("030", ["slurm-4.out"], "preemption_sigterm", None, None,
    "sbatch 4 ranks, logging style, scancel while training: 'JOB 4 ON vm CANCELLED AT ...', tasks Terminated. Asked to stop by the scheduler/user; no rank failed.")
add("031", ["console.log"], "rendezvous_failure", None, None,
    "torchrun --nnodes 2 with c10d rendezvous, only one agent started, join_timeout 30: RendezvousTimeoutError.")
add("032", ["console.log"], "port_in_use", 0, None,
    "srun --label --kill-on-bad-exit, 2 ranks; a stale process holds MASTER_PORT 50320: rank 0 'DistNetworkError: The server socket has failed to listen ... EADDRINUSE'.")
add("033", ["console.log", "logs"], "collective_mismatch", 1, "fsdp_error",
    "torchrun --log-dir --tee, 4 ranks FSDP2 (fully_shard) on gloo. Rank 1 built the model with hidden 48 (logs '865 local params' vs 577 on others). The FSDP all-gather sizes differ; rank 2 aborts in gloo ('Received data size doesn't match expected size ... collective mismatch', exit -6), others connection reset. The misconfigured rank is 1 (the abort is on rank 2).")
add("034", ["console.log"], "checkpoint_load_mismatch", 3, "fsdp_error",
    "srun --label, 4 ranks FSDP2. After training, rank 3 renames its state-dict keys and set_model_state_dict fails: 'Error(s) in loading state_dict for FSDPSequential' (missing/unexpected keys). Others connection closed.")
add("035", ["console.log"], "healthy", None, None,
    "torchrun, 3-stage pipeline. Rank 1 does a store handshake with 2 s timeouts at step 50: 'p2p handshake with stage 2 failed (attempt 1/3): DistStoreError: wait timeout ... retrying' twice, then 'recovered, continuing'; all stages complete.")
add("036", ["slurm-14.out"], "healthy", None, None,
    "sbatch + srun --label, 4 ranks FSDP2 with a UserWarning, trainer-style log; finishes.")
add("010", ["node-a.log", "node-b.log"], "node_failure", None, "nccl_remote_peer_exited",
    "Elastic torchrun, two agents --nnodes 2:2 (c10d rendezvous hosted by agent A, 2 workers each, max-restarts 2). At ~step 30 agent B and its two workers are SIGKILLed (a node lost; node-b.log simply stops). A's workers: connection reset by peer; A restarts and waits for a second node that never comes: RendezvousTimeoutError. B's two ranks (2,3) vanished together, so no single initiating rank.")
add("037", ["node-a.log", "node-b.log"], "rendezvous_failure", None, "nccl_timeout",
    "Elastic torchrun, two agents --nnodes 1:2, last_call_timeout 2 s: under load A formed a 1-node round alone (world 2), B arrived, A stopped its workers for a new round, and the new round never completed: both agents fail with DistStoreError 'wait timeout after 60000ms, keys: /torch.rendezvous.elastic037.1/...' (role_info / MASTER_ADDR). (My script also SIGKILLed B later, after it had already failed.) Not the scale-down I intended, but a real elastic re-rendezvous failure.")
add("038", ["node-a.log", "node-b.log"], "node_failure", None, "nccl_remote_peer_exited",
    "Elastic torchrun, two agents --nnodes 1:2 (last_call 15 s, both in round 0, world 4). At ~step 30 agent B and its workers are SIGKILLed (node lost; node-b.log just stops). A's workers: connection reset by peer; A scales down and restarts twice, but the restarted workers fail 'Gloo connectFullMesh failed ... Connection refused' (stale peer address), then A gives up (ChildFailedError). Intended healthy scale-down; it failed for real, so labelled as a failure started by the lost node.")
add("039", ["node-a.log", "node-b.log"], "healthy", None, None,
    "Elastic torchrun, two agents --nnodes 1:2 with c10d rendezvous, nobody leaves; both agents' workers finish 300 steps. (Stands in for the healthy scale-down, which failed twice on this machine: see 037/038.)")
import json
L.sort(key=lambda d: d["run"])
with open("/work/blind/r41/set/labels.jsonl", "w") as f:
    for d in L:
        f.write(json.dumps(d) + "\n")
print(len(L), sum(d["class"] == "healthy" for d in L), sum(d["initiating_rank"] is not None for d in L))
