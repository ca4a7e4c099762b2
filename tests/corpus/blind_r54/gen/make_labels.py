# Writes labels.jsonl from what each run was built to do (see part1-4.sh). Run before the scorer.
import json
L = []
def lab(run, inputs, cls, rank, alt, notes): L.append(dict(run=run, inputs=inputs, **{"class": cls}, initiating_rank=rank, alt_class=alt, notes=notes))
lab("001", ["node0.console.log", "node1.console.log"], "python_exception_other", 6, None,
    "Two torchrun agents (node_rank 0/1, 4 ranks each, static rdzv), chatty ISO per-step logs. Rank 6 (node 1) raises KeyError 'warmup_ratio' at step 150/200; all others then get gloo 'Connection closed by peer'. node0's torchrun names a local survivor as root cause.")
lab("002", ["node0-console.log", "node1-logdir"], "tokenizer_or_data_error", 5, None,
    "Two agents, glog style. Rank 5 (node 1, local 1) FileNotFoundError on data shard-00090.jsonl at step 90/120. node1's console is missing; its torchrun --log-dir tree (dirs named by LOCAL rank 0-3 = global 4-7) was handed over instead. node0 console shows only peer-closed errors.")
lab("003", ["srun.log", "task-0.out", "task-0.err", "task-1.out", "task-1.err", "task-2.out", "task-2.err", "task-3.out", "task-3.err"], "nccl_timeout", 3, "job_hang_no_progress",
    "srun -n4 with per-task out/err, epoch timestamps. Rank 3 blocks silently after step 44 (sleeps 'waiting for eval barrier'); ranks 0-2 hit gloo 20 s 'Timed out waiting ... for recv/send'. The outer timeout then cancels the step (slurmstepd CANCELLED, srun 'task 3: Killed' = teardown).")
lab("004", ["console.log", "memwatch.log"], "host_oom_killed", 2, None,
    "torchrun 4 ranks glog. Rank 2 builds a huge in-memory cache at step 60; an external memory watcher (memwatch.py, its log is noisy with ResourceWarnings) SIGKILLs it at rss 654 MB > 600 MB; torchrun root cause rank 2 exitcode -9.")
lab("005", ["console.log", "kern.log"], "host_oom_killed", 1, None,
    "torchrun 4 ranks. Rank 1 moves itself into a cgroup-v1 memory cgroup limited to 350 MB and allocates at step 70; the kernel memcg OOM killer kills it (real dmesg lines in kern.log). torchrun's table lists rank 1 exitcode -9; other ranks see Connection closed by peer.")
lab("006", ["console.log", "logs"], "nccl_remote_peer_exited", 3, None,
    "torchrun --log-dir --redirects 3 --tee 0: console has only the agent's lines. Rank 3 leaves the training loop at step 40 with exit status 0 ('max_samples reached'); ranks 0-2 fail with gloo Connection closed by peer; torchrun names rank 0 as root cause (first nonzero exit). Initiator is the silently exiting rank 3.")
lab("007", ["srun-console.log", "rank0.log", "rank1.log", "rank2.log", "rank3.log", "rank4.log", "rank5.log", "rank6.log", "rank7.log"], "collective_mismatch", 5, None,
    "srun -n8 per-task files, TORCH_DISTRIBUTED_DEBUG=DETAIL, manual gradient all-reduce. Rank 5 all_reduces a [7] tensor at step 25 while others reduce [32,16]: 'Detected mismatch between collectives on ranks'. (A first attempt with DDP+DETAIL segfaulted at init in this build and was discarded.)")
lab("008", ["console.log"], "nan_inf_loss", 5, None,
    "torchrun 8 ranks, glog, 200 steps chatty. Rank 5's inputs become NaN at step 185; its nan guard logs 'non-finite loss nan' and raises FloatingPointError; others see peer closed.")
lab("009", ["console.log"], "rendezvous_failure", None, None,
    "torchrun --nnodes 2 c10d rendezvous with join_timeout=20; the second agent never starts -> RendezvousTimeoutError. No rank ever ran.")
lab("010", ["console.log"], "rendezvous_failure", None, None,
    "torchrun c10d rendezvous endpoint 10.255.255.1:29400 (unroutable) -> RendezvousConnectionError 'connection to the C10d store has failed'.")
lab("014", ["srun.txt", "out.0.txt", "out.1.txt", "out.2.txt", "out.3.txt", "out.4.txt", "out.5.txt", "out.6.txt", "out.7.txt"], "checkpoint_disk_full", 1, "storage_io_error",
    "Two independent failures (srun -n8, wrap.sh). Rank 1 saves a checkpoint at step 30 onto a full 4 MB tmpfs: torch.save fails as 'basic_ios::clear: iostream error' / 'unexpected pos' (the log never says ENOSPC, so storage_io_error is the defensible alt). 1.5 s later rank 6 independently hits FileNotFoundError on a data shard (second failure). Label the first: rank 1.")
lab("015", ["console.log"], "checkpoint_disk_full", 0, "storage_io_error",
    "torchrun 4 ranks with tqdm; rank 0 saves a ~12 MB checkpoint at step 100 to a 6 MB tmpfs; torch.save (zip format) fails with 'basic_ios::clear: iostream error' / 'unexpected pos' after 'saving checkpoint to /tmp/r54/full/...'. No ENOSPC text in the log.")
lab("016", ["console.log"], "checkpoint_permission_denied", 0, None,
    "Rank 0 makedirs for its checkpoint on a read-only tmpfs at step 50: OSError [Errno 30] Read-only file system.")
lab("017", ["console.log"], "checkpoint_load_mismatch", 0, None,
    "Rank 0 loads a state dict saved from a wider model before training: 'Error(s) in loading state_dict for Sequential' size mismatch.")
lab("018", ["console.log"], "checkpoint_corrupt", 0, None,
    "No-timestamp style. Rank 0 torch.load of a checkpoint truncated to 1500 bytes: 'PytorchStreamReader failed reading zip archive: failed finding central directory'.")
lab("019", ["console.log"], "too_many_open_files", 2, None,
    "ulimit -n 512; rank 2 opens index files in a loop at step 33: OSError [Errno 24] Too many open files.")
lab("020", ["console.log"], "dataloader_worker_killed", 1, "python_exception_other",
    "Epoch-seconds style. A DataLoader worker of rank 1 SIGKILLs itself at sample 37 (step 50). Because batches are shared via fds, the main process surfaces it as ConnectionResetError inside dataloader _try_get_data/resource_sharer, not the usual 'worker killed by signal' line.")
lab("021", ["console.log"], "port_in_use", None, None,
    "Another process listens on the master port; torchrun's TCPStore fails: DistNetworkError EADDRINUSE.")
lab("022", ["consoles.tar.gz"], "dtype_mismatch", 9, None,
    "Three torchrun agents (12 ranks), env dump at start, consoles packed as a tar.gz. Rank 9 (node 2, local 1) feeds float64 at step 40: 'mat1 and mat2 must have the same dtype, but got Double and Float'. node0/node1 show only peer-closed errors.")
lab("023", ["console.log"], "hub_network_error", 0, None,
    "Rank 0 downloads tokenizer.json from the hub at start-up with HF_ENDPOINT pointing at a closed port: ConnectError Connection refused -> LocalEntryNotFoundError.")
lab("024", ["srun-stderr.log", "rank-0.log", "rank-1.log", "rank-3.log"], "nccl_remote_peer_exited", 2, "python_exception_other",
    "Partial hand-over: srun -n4; rank 2 really died of a shape error at step 55 but its file was not handed over (whole file dropped). The survivors show only gloo 'Connection closed by peer'; srun's stderr lists 'task 2: Exited with exit code 1' first. From these inputs: a peer (rank 2) exited.")
lab("025", ["console_tail.log"], "python_exception_other", 3, None,
    "Tail only: last 300 lines of a 400-step torchrun console with tqdm and per-step INFO from 4 ranks. Rank 3 KeyError 'warmup_ratio' at step 380; torchrun root cause rank 3.")
lab("026", ["console.log", "torchrun_logs.zip"], "nan_inf_loss", None, "loss_spike_divergence",
    "LR=30: the loss diverges to inf within 4 steps on every rank simultaneously (DDP-synced); every rank's nan guard fires at the same step. torchrun --tee 3 console plus the zipped --log-dir tree. No single initiating rank (torchrun's 'root cause' pick is arbitrary).")
lab("011", ["slurm-6.out"], "slurm_time_limit", None, None,
    "sbatch --time=1 (1 minute) around a healthy-but-slow torchrun job (100000 steps, logs every 10 steps); slurmstepd cancels it 'DUE TO TIME LIMIT'; torchrun/ranks die of the teardown signals.")
lab("012", ["slurm-7.out"], "preemption_sigterm", None, None,
    "sbatch job (torchrun 4 ranks, glog, healthy) cancelled with scancel after ~35 s by the operator: the cancel is the cause ('CANCELLED AT'), ranks/agent receive SIGTERM. No rank started it.")
lab("013", ["slurm-8.out", "task0.log", "task1.log", "task2.log", "task3.log"], "shape_mismatch", 3, None,
    "sbatch + srun -n4 per-task logs. Rank 3 feeds a [8,12] batch at step 35: 'mat1 and mat2 shapes cannot be multiplied'; the step fails and the batch script then scancels its own job (scancel is mere teardown).")
lab("027", ["node0.console.log", "node1.console.log"], "healthy", None, None,
    "Two agents, 8 ranks. Rank 5 fails to push metrics twice (ConnectionRefusedError logged as WARNING, 'retrying'), succeeds on attempt 3; training completes on all ranks.")
lab("028", ["srun.log", "worker-0.log", "worker-1.log", "worker-2.log"], "healthy", None, None,
    "srun -n3 per-task files, glog. Rank 2 logs an ERROR line via log.exception every 20 steps (the custom formatter dropped the traceback text in this run) ('skipping malformed sample ... continuing'); run completes.")
lab("029", ["console.log"], "python_exception_other", 1, "rendezvous_failure",
    "Meant as a healthy elastic restart but it really failed: torchrun --max-restarts 2 with static rendezvous; rank 1 raises RuntimeError at step 20 on attempt 0; attempt 1 fails in init_process_group (Gloo connectFullMesh connection refused, rank 2); attempt 2 hangs in init until our 110 s timeout SIGTERMs the agent. The first failure is rank 1's uncaught RuntimeError.")
lab("042", ["console.log"], "healthy", None, None,
    "torchrun --max-restarts 2 with c10d rendezvous: rank 1 raises RuntimeError at step 20 on attempt 0 (traceback, agent 'failed' lines), the agent restarts the group, attempt 1 completes.")
lab("030", ["console.log"], "healthy", None, None,
    "torchrun 8 ranks glog; a FutureWarning (GradScaler deprecated) from every rank every step; completes.")
lab("031", ["console.log"], "healthy", None, None,
    "Console copied 25 s into a long healthy run (still training at copy time; we stopped it afterwards, that is not in the copy).")
lab("032", ["console.log"], "healthy", None, None,
    "Clean early stop at step 45/200 ('early stopping: val loss did not improve'), all ranks exit 0, epoch-seconds style.")
lab("033", ["console.log"], "healthy", None, None,
    "No-timestamp style; 'gradient overflow detected ... skipping step and reducing loss scale' warnings on steps 1-3 on every rank (warm-up only), then normal training to completion.")
lab("034", ["console.log"], "healthy", None, None,
    "Lightning 2.6 Trainer, CPU DDP 4 processes, 3 epochs, with Lightning's usual warnings; completes.")
lab("035", ["slurm-10.out", "rank0.log", "rank1.log", "rank2.log", "rank3.log"], "healthy", None, None,
    "Healthy sbatch job: torchrun 4 ranks, env dump (incl. NCCL_ASYNC_ERROR_HANDLING/TORCH_NCCL_BLOCKING_WAIT), per-rank log files plus the slurm output; completes.")
lab("036", ["consoles.tar.gz"], "healthy", None, None,
    "Three agents, 12 ranks, consoles in a tar.gz; completes.")
lab("037", ["console_tail.log"], "healthy", None, None,
    "Tail (last 250 lines) of a healthy 400-step run with tqdm and epoch timestamps; ends with 'training complete'.")
lab("038", ["console.log"], "healthy", None, None,
    "Healthy run with TORCH_DISTRIBUTED_DEBUG=DETAIL (manual grad all-reduce); completes.")
lab("039", ["srun.log", "r0.log", "r1.log", "r2.log", "r3.log"], "dataloader_worker_killed", 2, None,
    "srun -n4 glog. A DataLoader worker of rank 2 is SIGKILLed at step 30 (samples are plain lists so the loader itself notices the dead worker); others see peer closed.")
lab("040", ["torchrun-logs"], "checkpoint_disk_full", 3, "storage_io_error",
    "Only the torchrun --log-dir tree (no console). Rank 3 saves an optimizer shard (legacy torch.save format) to a 5 MB tmpfs at step 120/150: 'write(): fd 11 failed with No space left on device'.")
lab("043", ["slurm-12.out", "rank0.log", "rank1.log", "rank2.log", "rank3.log"], "job_hang_no_progress", 2, "slurm_time_limit",
    "sbatch --time=1 + srun -n4, glog, PG timeout 600 s. Rank 2 blocks silently at step 120 ('waiting for eval barrier'); the others wait in the all-reduce with no timeout firing; after ~1 min the Slurm time limit cancels the job (teardown, not the cause). Initiator identified by its silence: its last line differs.")
lab("044", ["node0-console.log", "kern.log"], "host_oom_killed", None, "nccl_remote_peer_exited",
    "Two agents (8 ranks), epoch style. Rank 7 (node 1) moves into a 300 MB memcg and is OOM-killed by the kernel at step 80. node1's console is lost: only node0's console (peer-closed errors) and the kern.log with the real memcg OOM kill (pid only, no rank) are handed over, so the rank cannot be named from the inputs.")
lab("041", ["console.log"], "healthy", None, None,
    "torchrun 4 ranks, epoch style. Rank 1 logs a full JSONDecodeError traceback (logging.exception) every 20 steps for a malformed sample and continues; run completes.")
import sys
with open("/work/blind/r54/set/labels.jsonl", "w") as f:
    for l in L: f.write(json.dumps(l) + "\n")
print(len(L))
