import json, os, glob
R = "/work/blind/r27"

def lines_of(run):
    out = []
    for p in sorted(glob.glob(f"{R}/runs/{run}/**/*", recursive=True)):
        if os.path.isfile(p):
            out += open(p, errors="replace").read().splitlines()
    return out

def ev(run, *subs):
    ls = lines_of(run)
    res = []
    for s in subs:
        hit = [l for l in ls if s in l]
        assert hit, (run, s)
        res.append(hit[0])
    return res

L = []
def add(run, cls, rank, alt, launcher, paste, how, evs, inputs=None):
    L.append({"run": run, "inputs": inputs or ["."], "class": cls, "initiating_rank": rank, "alt_class": alt,
              "launcher": launcher, "paste": paste, "how": how, "evidence": ev(run, *evs)})

add("001_nan_rank2_full", "nan_inf_loss", 2, None, "torchrun --nproc-per-node 4 --tee 3 (single node, [defaultN]: + [rankN]: prefixes)",
    "whole console",
    "Rank 2 got a batch with a NaN feature at step 23; the user's finite-loss check raised FloatingPointError on rank 2; ranks 0,1,3 then failed in DDP allreduce with gloo 'Connection closed by peer' and torchrun SIGTERMed them.",
    ["FloatingPointError: loss is nan at step 23 (rank 2)", "Connection closed by peer", "exitcode  : 1 (pid: 18366)"])
add("002_deadlock_rank1_timeout_tail", "nccl_timeout", 1, "job_hang_no_progress", "torchrun --nproc-per-node 4 (no tee; user logging with [RANK n])",
    "last 120 of 163 console lines (start-up cut)",
    "Rank 1 deadlocked on a non-reentrant metrics lock after step 137 (silent, no error). Ranks 0,2,3 hit the gloo 30 s timeout in the DDP allreduce; torchrun then SIGTERMed rank 1 (and 0). Rank 1 is the only rank with no timeout traceback.",
    ["[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 30000ms", "Timed out waiting 30000ms for send operation", "traceback : Signal 15 (SIGTERM) received by PID 18598"])
add("003_cgroup_oom_rank3_node1", "host_oom_killed", 3, None, "2 x torchrun (c10d rendezvous, --tee 3), 2 procs per node; this is the second node's agent (ranks 2,3)",
    "node1's torchrun console (the node with the culprit) + the user's `dmesg -T | grep -iE 'oom|killed process'` lines for that event",
    "Rank 3 moved itself into a 400 MiB memory cgroup and built a large in-RAM eval cache; the kernel memcg OOM killer killed it (SIGKILL, exit -9). Rank 2 on the same node got 'Connection closed by peer'. dmesg pid 19316 = rank 3's pid.",
    ["Killed process 19316", "exitcode  : -9 (pid: 19316)  (SIGKILL)", "rank 3/4 local_rank 1 host vm pid 19316", "building evaluation cache"])
add("004_peer_exited_node0_only", "nccl_remote_peer_exited", None, None, "2 x torchrun (static rendezvous, --node-rank), 2 procs per node, plain print",
    "node0's console only (ranks 0,1) - the node WITHOUT the culprit",
    "True cause: rank 2 on node1 segfaulted (NULL deref via ctypes, SIGSEGV). Node0's paste shows only ranks 0/1 losing their peer (gloo 'Connection reset by peer' / 'Connection closed by peer') and exiting 1; nothing in it names the remote rank, so from this paste an expert concludes a remote peer died: rank null.",
    ["Connection reset by peer", "Connection closed by peer", "failed (exitcode: 1) local_rank: 1"])
add("005_dl_worker_killed_grep", "dataloader_worker_killed", 0, None, "torchrun --nproc-per-node 4, num_workers=2",
    "`grep -E 'rank|Error|Traceback'` of the console",
    "A DataLoader worker of rank 0 was SIGKILLed (the worker killed itself after 400 samples, standing in for an external kill); rank 0 raised 'DataLoader worker ... is killed by signal: Killed'; the others then lost their peer.",
    ["[rank0]: RuntimeError: DataLoader worker (pid 20126) is killed by signal: Killed.", "Connection closed by peer"])
add("006_shm_full_rank1_tail", "dataloader_worker_killed", 1, "host_oom_killed", "unshare -m with an 8 MiB tmpfs on /dev/shm; torchrun --nproc-per-node 4, num_workers=2",
    "last 100 of 155 console lines (cuts the 'Caught RuntimeError in DataLoader worker process 1' header)",
    "/dev/shm was 8 MiB; only rank 1's samples carry a 256 KiB aux tensor, so rank 1's DataLoader workers could not allocate shared memory for the collated batch (ENOSPC in shm); rank 1 failed, others lost their peer. Class is the too-small /dev/shm DataLoader failure.",
    ["unable to allocate shared memory(shm) for file", "Connection closed by peer"])
add("007_alloc_fail_rank1_srun", "host_oom_killed", 1, None, "sbatch + srun --label (4 tasks, one node), env:// init",
    "whole slurm-1.out",
    "Buggy augmentation on rank 1 at step 17 allocated len(ds)^2*4096 floats (241 GB): DefaultCPUAllocator 'can't allocate memory'; other ranks then got 'Connection closed by peer'.",
    ["DefaultCPUAllocator: can't allocate memory: you tried to allocate 241591910400 bytes", "srun: error: vm: task 1: Exited with exit code 1"])
add("008_disk_full_rank0log_summary", "checkpoint_disk_full", 0, None, "torchrun --nproc-per-node 4, train.py wrapped with @record",
    "the user's own rank-0 log file (logging FileHandler) + torchrun's final ChildFailedError summary",
    "Checkpoint dir was a 3 MiB tmpfs; rank 0's second save (step 40) hit ENOSPC (torch.save to a Python file object); others failed in the barrier with 'Connection closed by peer'. The @record summary carries rank 0's traceback.",
    ["saving checkpoint to /work/blind/r27/mnt/ckpt008/step_000040.pt", "OSError: [Errno 28] No space left on device", "rank      : 0 (local_rank: 0)"])
add("009_ckpt_iostream_enospc_full", "checkpoint_disk_full", 0, "storage_io_error", "torchrun --nproc-per-node 4",
    "whole console",
    "Same 3 MiB tmpfs checkpoint dir, but torch.save(path): the real error text on ENOSPC is only 'basic_ios::clear: iostream error' + 'unexpected pos' during rank 0's save at step 40 (the first 2.2 MB save fit). The paste never says ENOSPC; an expert reads a failed checkpoint write (most likely full storage), hence alt storage_io_error.",
    ["[rank0]: RuntimeError: basic_ios::clear: iostream error", "unexpected pos 69696 vs 69584", "saving checkpoint to /work/blind/r27/mnt/ckpt008/step_000040.pt"])
add("010_readonly_ckpt_grep_error", "checkpoint_permission_denied", 0, None, "torchrun --nproc-per-node 2",
    "`grep -i error` of the console (8 lines)",
    "Checkpoint dir was a read-only tmpfs mount; rank 0's first save at step 25 failed with EROFS; rank 1 lost its peer.",
    ["open file failed with strerror: Read-only file system", "Connection closed by peer"])
add("011_ckpt_load_mismatch_midcut", "checkpoint_load_mismatch", 0, None, "torchrun --nproc-per-node 4 --tee 3 --local-ranks-filter 0 (only rank 0's output on the console)",
    "console with the middle (torchrun's own traceback frames) cut out and replaced by a '...' line",
    "Resumed a hidden=64 checkpoint into a hidden=128 model; rank 0 loads and broadcasts, so rank 0 raised the size-mismatch error while ranks 1-3 waited in broadcast and were SIGTERMed.",
    ["Error(s) in loading state_dict for Net:", "size mismatch for fc1.weight", "exitcode  : 1 (pid: 21725)"])
add("012_collective_mismatch_detail_full", "collective_mismatch", 3, None, "TORCH_DISTRIBUTED_DEBUG=DETAIL torchrun --nproc-per-node 4 (manual allreduce, no DDP)",
    "whole console",
    "Rank 3 took a different metrics path at step 20 (all_gather) while ranks 0-2 called all_reduce; DETAIL debug mode reported the mismatch on every rank, all naming rank 3.",
    ["Rank 3 is running collective: CollectiveFingerPrint(SequenceNumber=87, OpType=ALLGATHER", "but Rank 3 is running"])
add("013_early_exit0_rank3_grep", "nccl_remote_peer_exited", 3, "collective_mismatch", "torchrun --nproc-per-node 4, user logging with [RANK n]",
    "`grep -E 'RANK|Error|exitcode'` of the console",
    "Rank 3's (buggy) per-rank early-stopping check fired at step 33 and it exited cleanly (exit 0) while the others continued; ranks 0-2 got gloo 'Connection closed by peer' in the next allreduce. Rank 3 is absent from the failure list.",
    ["[RANK 3] INFO: early stopping criterion met on this rank, exiting", "Connection closed by peer"])
add("014_hub_download_rank0_srun", "hub_network_error", 0, None, "sbatch + srun --label (3 tasks)",
    "whole slurm-2.out",
    "Rank 0 downloads pretrained weights via torch.hub before a barrier; no network/DNS here, so URLError 'Name or service not known'; ranks 1,2 then failed in the barrier with 'Connection closed by peer'.",
    ["urllib.error.URLError: <urlopen error [Errno -2] Name or service not known>", "Downloading: \"https://download.pytorch.org/models/resnet18-f37072fd.pth\""])
add("015_rdzv_timeout_node0", "rendezvous_failure", None, None, "torchrun --nnodes 2 --rdzv-backend c10d (join_timeout=40); the second node was never started",
    "node0's whole console",
    "Only one of two nodes joined; after join_timeout the agent raised RendezvousTimeoutError before any worker started.",
    ["torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"])
add("016_port_in_use_full", "port_in_use", None, None, "torchrun --master-port 32126 (static rendezvous)",
    "whole console",
    "A leftover process was listening on the master port; the agent's TCPStore could not bind (EADDRINUSE).",
    ["name: EADDRINUSE, message: address already in use"])
add("017_undefined_symbol_logdir", "dependency_abi_mismatch", None, None, "torchrun --log-dir --redirects 3 (per-rank stdout/stderr files)",
    "the torchrun log dir (attempt_0/<rank>/stderr.log, stdout.log - the stdout files are empty) + the launcher console",
    "A compiled extension (fused_adam_ext) built against an older libtorch ABI (c10::optional symbol) fails to import on every rank: ImportError undefined symbol. All ranks fail alike: rank null.",
    ["undefined symbol: _ZN2at4_ops5zeros4call"])
add("018_cpu_wheel_no_cuda_grep", "cuda_driver_mismatch", None, "dependency_abi_mismatch", "python -m torch.distributed.run --nproc-per-node 2",
    "`grep -E 'Error|error'` of the console (9 lines)",
    "Script calls torch.cuda.set_device on a CPU-only torch wheel; every rank fails with AttributeError: module 'torch._C' has no attribute '_cuda_setDevice' (the CPU-build symptom). No GPU/CUDA build: environment issue, all ranks alike.",
    ["AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'"])
add("019_emfile_prefetch_thread_rank2_full", "too_many_open_files", 2, "nccl_timeout", "ulimit -n 1024; torchrun --nproc-per-node 4",
    "whole console (includes the user's Ctrl-C at the end)",
    "Rank 2's shard-prefetch thread kept ~4000 index files open and died with EMFILE (traceback without rank prefix, path names rank2); rank 2's main loop then blocked on the empty prefetch queue; ranks 0,1,3 hit the 45 s gloo timeout; the processes stayed alive (non-daemon threads) until I pressed Ctrl-C (SIGINT to torchrun) ~10 min later.",
    ["Exception in thread shard-prefetch:", "OSError: [Errno 24] Too many open files: '/tmp/r27_shards/rank2/shard_01013.idx'", "Timed out waiting 45000ms", "[rank2]:     prefetch_q.get(timeout=None)"])
add("020_slurm_time_limit_tail", "slurm_time_limit", None, None, "sbatch --time=00:01:00 + srun --label (2 tasks)",
    "last 60 lines of slurm-3.out",
    "Training needed far more than the 1-minute limit; Slurm cancelled the step and job DUE TO TIME LIMIT (JobState=TIMEOUT).",
    ["CANCELLED AT 2026-12-06T04:47:52 DUE TO TIME LIMIT"])
add("021_preempt_sigterm_tail", "preemption_sigterm", None, None, "torchrun --nproc-per-node 4, plain log lines (no timestamps, no rank prefix)",
    "last 80 console lines",
    "Healthy training; I sent SIGTERM to the torchrun agent (as a spot reclaim / preemption would); the agent shut the workers down and raised SignalException 15.",
    ["Received 15 death signal, shutting down workers", "SignalException: Process 27431 got signal: 15"])
add("022_node_fail_slurm", "node_failure", None, None, "sbatch + srun --label (2 tasks)",
    "whole slurm-4.out (first attempt)",
    "While the job ran I set the node DOWN (scontrol update state=down) to simulate a node failure; Slurm cancelled the job DUE TO NODE FAILURE and requeued it (I then cancelled the requeued job).",
    ["CANCELLED AT 2026-12-06T04:49:19 DUE TO NODE FAILURE", "srun: error: Node failure on vm"])
add("023_hang_no_progress_live", "job_hang_no_progress", None, None, "torchrun --nproc-per-node 4 --tee 3, pg timeout 1800 s, user heartbeat thread every 15 s",
    "console of the live job copied while it was hung (no error yet)",
    "Rank 0 deadlocked on its own metrics lock after step 120; the others wait in allreduce (30 min timeout) so nothing errors; all heartbeats show step=120 with growing last_step_age (up to 98 s vs ~0.06 s/step). Nothing in the paste singles out a rank: null.",
    ["heartbeat: step=120 last_step_age=97s"])
add("024_ckpt_fifo_hang_rank0", "checkpoint_writer_hang", 0, "nccl_timeout", "torchrun --nproc-per-node 4, @record, user FileHandler logs",
    "the user's rank-0 log file + torchrun's ChildFailedError summary",
    "The step-40 checkpoint path was a FIFO with no reader, so rank 0's torch.save blocked forever after 'saving checkpoint to ...'; ranks 1-3 timed out in the barrier after 60 s; torchrun SIGTERMed rank 0. The summary's 'Root Cause' names rank 3 (a timed-out rank).",
    ["saving checkpoint to /work/blind/r27/full/024_ckpt_fifo_hang_rank0/ckpt/step_000040.pt", "Timed out waiting 60000ms", "exitcode  : -15 (pid: 30421)  (SIGTERM)"])
add("025_elastic_restarts_corrupt_ckpt", "checkpoint_corrupt", None, "storage_io_error", "torchrun --nproc-per-node 3 --max-restarts 2",
    "whole console",
    "Resume checkpoint truncated to 30000 of 55559 bytes (torn write); every rank's torch.load fails (PyTorchFileReader OSError [Errno 22] Invalid argument) in attempts 0 and 1; the last attempt died earlier in gloo connectFullMesh (stale store after restart). All ranks fail alike: null.",
    ["resuming from /work/blind/r27/full/025_elastic_restarts_corrupt_ckpt/ckpt/step_000040.pt", "[rank1]: OSError: [Errno 22] Invalid argument"])
add("026_loss_divergence_lr_gamma", "loss_spike_divergence", None, None, "torchrun --nproc-per-node 4 (Adam, exponential LR growth gamma=1.02)",
    "whole console (the run exits 0)",
    "LR schedule bug (lr*=1.02 per step) made the loss fall to ~0.008 by step 160, then jump to 12-28 from step 200 and stay there to the end; exit 0. All ranks together: null.",
    ["[RANK 0] INFO: epoch 0 step 160/400 loss", "[RANK 0] INFO: epoch 0 step 220/400 loss"])
add("027_healthy_full_warnings", "healthy", None, None, "torchrun --nproc-per-node 4 --tee 3, num_workers=4 on a 2-CPU host",
    "whole console",
    "Completed all 60 steps (rc 0); console carries the DataLoader 'suggested max number of worker' UserWarnings and the OMP_NUM_THREADS banner.",
    ["UserWarning: This DataLoader will create 4 worker processes in total.", "training finished: 60 steps"])
add("028_sigkill_rank1_restarts_fail_full", "nccl_remote_peer_exited", 1, "host_oom_killed", "torchrun --nproc-per-node 4 --max-restarts 2 (static rendezvous)",
    "whole console",
    "I SIGKILLed rank 1 mid-run (kill -9, an external kill with no OOM message); ranks 0,2 lost their peer; torchrun restarted the group twice but each restart died in gloo connectFullMesh (connection refused to stale peer addresses) and the job failed. The start is rank 1 dying by SIGKILL; an expert would also suspect the OOM killer (alt).",
    ["failed (exitcode: -9) local_rank: 1 (pid: 436)", "Connection reset by peer", "Gloo connectFullMesh failed"])
add("029_healthy_elastic_recovered_full", "healthy", None, None, "torchrun --nproc-per-node 4 --max-restarts 2, per-attempt PrefixStore",
    "whole console",
    "I SIGKILLed rank 1 in attempt 0; torchrun restarted the group; attempt 1 completed all 250 steps and the job exited 0. Scary lines from attempt 0 remain in the console.",
    ["failed (exitcode: -9) local_rank: 1 (pid: 857)", "elastic attempt 1 (max restarts 2)", "training finished: 250 steps"])
add("030_healthy_save_retry_tail", "healthy", None, None, "torchrun --nproc-per-node 4, checkpoints on a 5 MiB tmpfs, user code prunes and retries",
    "last 120 console lines",
    "Two checkpoint saves hit ENOSPC; the user's code logged the exception, removed old checkpoints and the retry succeeded each time; training finished and the job exited 0.",
    ["OSError: [Errno 28] No space left on device", "retry succeeded", "training finished: 100 steps"])
add("031_healthy_fp16_warmup_overflow_srun", "healthy", None, None, "sbatch + srun --label (3 tasks), CPU fp16 autocast + GradScaler",
    "whole slurm-5.out",
    "Five gradient-overflow skips at warm-up while the loss scale fell from 65536 to 2048, then no more; loss converged to ~0.06; JobState COMPLETED.",
    ["gradient overflow, skipping step; loss scale 65536 -> 32768", "training finished: 200 steps", "srun exit code 0"])

with open(f"{R}/labels.jsonl", "w") as f:
    for x in L:
        f.write(json.dumps(x) + "\n")
print(len(L), "labels")
