import json, os
H = "healthy"
L = {
"001": (H, None, None, "torchrun 4 ranks, 2600 steps, batch 8 with 20% label noise: noisy per-step loss that trends down; config dump with timeout_s=30, max_error_rate, on_error; every step logs error_rate. Completed, exit 0."),
"002": (H, None, None, "torchrun --log-dir --tee 3, every rank logs; Adam lr x60 for 4 steps at step 300: loss spikes ~0.3 -> ~3 and recovers to the pre-spike level (~0.33 avg) by step 600. Completed. Handed torchrun's per-rank log dir."),
"003": (H, None, None, "mp.spawn 2 procs, 192 samples, wide MLP: train loss -> 0.0001 while eval_loss rises 0.60 -> 0.80 (overfitting). Completed exit 0."),
"004": (H, None, None, "sbatch + srun --label, 4 tasks: torch.amp.GradScaler with init_scale 3e38 and growth_interval 60: 8 real overflow steps skipped (scale halves) and scale regrows; training completes."),
"005": (H, None, None, "torchrun 4 ranks, every rank logs: a real NaN injected in one input on rank 2 at step 217; loss NaN detected, all ranks agree via all_reduce and skip that step, training continues and completes."),
"006": (H, None, None, "torchrun with TORCH_DISTRIBUTED_DEBUG=INFO and TORCH_CPP_LOG_LEVEL=INFO (c10d chatter, uv_loop_close EBUSY line at exit); rank 0 logs a caught FileNotFoundError traceback for an optional file and a caught ConnectionRefusedError traceback on a retried connection that succeeds on attempt 2. Completed."),
"009": (H, None, None, "two torchrun segments: part 1 trains 300 steps, checkpoints at 100/200; part 2 resumes from ckpt_step200 and finishes 600 steps. Both exit 0. Directory of two console files."),
"010": (H, None, None, "sbatch + srun (no --label) 3 tasks, TORCH_DISTRIBUTED_DEBUG=INFO, FutureWarning/UserWarning on every rank, DataLoader workers, config dump; completes."),
"011": (H, None, None, "torchrun --log-dir --tee 3, every rank logs error_rate, config dump with timeout_s; completed; per-rank logs handed as tar.gz."),
"012": (H, None, None, "two torchrun agents (--nnodes=2, c10d rendezvous) on one host, 2x2 ranks, batch 4 (very noisy loss, learns quickly then plateaus), 2000 steps logged every step; node1 log holds only a node_rank warning. Completed."),
"013": ("nccl_timeout", 2, "job_hang_no_progress", "torchrun 4 ranks, every rank logs: rank 2 blocks forever at step 133 reading a FIFO nobody writes; ranks 0,1,3 hit the gloo 30 s timeout in DDP backward and exit; torchrun SIGTERMs rank 2. The stopped rank is 2."),
"014": ("nan_inf_loss", 3, None, "torchrun 4 ranks, every rank logs: real NaN in rank 3's input at step 181; the script's isfinite check raises FloatingPointError on rank 3; others get Connection closed by peer. Whole console (the --log-dir files were empty without --tee)."),
"015": ("loss_spike_divergence", None, None, "torchrun 4 ranks, rank 0 logs: Adam lr ramps up x1.05 per step from step 400 (capped at x300): loss goes from ~0.3 to ~2.4 (chance level) and stays there until the planned end; exit 0 (run 'finishes')."),
"016": ("nccl_remote_peer_exited", 1, "host_oom_killed", "torchrun 4 ranks: rank 1 SIGKILLed from outside (kill -9 of its pid) at ~step 300; peers get Connection closed/reset by peer; torchrun reports exitcode -9 for local_rank 1. Not an OOM (no memory pressure), but the log cannot tell it from one, and no class means 'killed by signal'."),
"017": ("host_oom_killed", 2, None, "real cgroup v1 memory limit (2200M) around torchrun; rank 2 leaks 100 MB per step from step 150; kernel OOM killer kills rank 2 (memory.oom_control oom_kill 1); torchrun exitcode -9 for local_rank 2; peers Connection closed by peer."),
"018": ("host_oom_killed", 1, None, "mp.spawn 3 procs; rank 1 sets RLIMIT_AS (ulimit -v) to 3 GiB at step 140 and allocates 4 GiB: DefaultCPUAllocator: can't allocate memory (errno 12); spawn reports process 1 terminated."),
"019": ("checkpoint_disk_full", 0, None, "checkpoint dir is a real 2M tmpfs; rank 0 saves ~570 KB every 40 steps; the 4th save (step 160) fails when the fs is 100% full (torch reports basic_ios iostream error / unexpected pos); others lose the peer. Handed the last 200 lines."),
"020": ("checkpoint_permission_denied", 0, None, "sbatch + srun --label 4 tasks; checkpoint dir is a read-only tmpfs mount; rank 0's first save at step 150 fails (open file failed: Read-only file system); others Connection closed by peer."),
"021": ("tokenizer_or_data_error", 1, "python_exception_other", "torchrun 4 ranks, 2 DataLoader workers; a corrupt record (text None) on rank 1's shard makes the worker's __getitem__ raise AttributeError ('NoneType' has no attribute 'split') at step ~90: 'Caught AttributeError in DataLoader worker process 0'."),
"022": ("dataloader_worker_killed", 2, None, "torchrun --tee 3 4 ranks, 2 DataLoader workers; rank 2's main process SIGKILLs its worker at step 120: 'DataLoader worker (pid N) is killed by signal: Killed'; others lose the peer. Whole console."),
"023": ("nccl_remote_peer_exited", 3, None, "torchrun 4 ranks, every rank logs: rank 3 has a short shard (1/3), finishes its loop after 170 steps, logs it and returns (exit 0) without barrier; ranks 0-2 block in the next allreduce and get Connection closed by peer."),
"025": ("job_hang_no_progress", None, "slurm_time_limit", "sbatch -t 1, srun (no --label) 4 tasks, gloo timeout 900 s: rank 0 blocks reading a FIFO at step 200, every rank waits; no progress for ~28 s until Slurm cancels at the 1-minute time limit. Only rank 0 logs, so the log cannot show which rank blocked."),
"026": ("preemption_sigterm", None, None, "sbatch + srun --label 2 tasks, healthy training, cancelled with scancel after 25 s (JOB CANCELLED, tasks Terminated)."),
"027": ("fp16_loss_scale_overflow", 1, None, "torchrun 4 ranks, every rank logs, GradScaler with an fp16 middle layer: from step 150 rank 1's inputs overflow fp16 (its loss is ~1e3 while others ~1), every step overflows and the scale halves to <1, then the script's minimum-scale check raises on all ranks."),
"028": ("python_exception_other", 2, None, "torchrun --log-dir --tee 3: KeyError 'grad_norm' on rank 2 at step 88; others Connection closed by peer. Handed the per-rank log dir as tar.gz (no launcher output)."),
"029": ("shape_mismatch", 0, None, "sbatch + srun (no --label) 4 tasks: rank 0 reshapes a batch wrongly at step 61: mat1 and mat2 shapes cannot be multiplied (8x31 and 32x64); others lose the peer."),
"030": ("dtype_mismatch", 1, None, "torchrun 4 ranks: a float64 batch on rank 1 at step 45: mat1 and mat2 must have the same dtype (Double and Float)."),
"031": ("checkpoint_corrupt", None, None, "resume from a checkpoint truncated to half its size (torn write): every rank fails in torch.load with PytorchStreamReader failed finding central directory."),
"032": ("checkpoint_load_mismatch", None, None, "resume of a hidden=64 checkpoint into a hidden=96 model: every rank fails in load_state_dict with size mismatch errors."),
"033": ("tokenizer_or_data_error", 3, None, "torchrun 4 ranks each loading its own data shard; rank 3's shard file is missing: FileNotFoundError on rank 3 right after init."),
"034": ("too_many_open_files", 1, None, "rank 1 runs with RLIMIT_NOFILE 64 and opens every index file in the data dir: OSError [Errno 24] Too many open files."),
"035": ("slurm_time_limit", None, None, "sbatch -t 1, srun --label 2 tasks: a slow but healthy job (checkpoints every 1000 steps) that needs longer than 1 minute; CANCELLED DUE TO TIME LIMIT while still stepping."),
"036": ("loss_spike_divergence", None, None, "sbatch + srun --label 2 tasks, Adam lr ramp from step 600: loss goes from ~0.3 to ~2.45 and stays for ~4000 steps; the user then scancels the job (CANCELLED)."),
"038": (H, None, None, "torchrun 4 ranks with TORCH_DISTRIBUTED_DEBUG=INFO, DataLoader workers, deprecation/user warnings at start; completed; the user hands the last 200 lines (steps with error_rate, 'training finished')."),
"039": ("collective_mismatch", None, "nccl_timeout", "torchrun 4 ranks, every rank logs: at step 77 rank 1 all_reduces a 3-element metrics tensor while the others use 2 elements (no DEBUG wrapper); all four ranks time out in that all_reduce after 30 s. Ground truth is the mismatch by rank 1, but the log shows only identical gloo timeouts on every rank, so no rank can be read from it."),
"040": ("collective_mismatch", 2, "shape_mismatch", "sbatch + srun --label 4 tasks: rank 2 builds a wider model (stale HIDDEN_OVERRIDE env); DDP's cross-rank parameter-shape check fails on rank 2 ('params[0] in this process with sizes [80, 32] appears not to match ... process 0'); others lose the peer."),
"041": (H, None, None, "sbatch + srun --label 2 tasks, every rank logs, config dump; tiny dataset: train loss -> 0 while eval_loss rises 0.95 -> 1.31 (overfitting); completed. slurm output + job script as tar.gz."),
"042": (H, None, None, "torchrun --log-dir --tee 3 (per-rank dir handed), every rank logs, GradScaler with init_scale 3e38, growth_interval 100: periodic overflow skips (40 lines over 4 ranks) and regrowth; completes."),
"043": (H, None, None, "mp.spawn 3 procs; at step 620 rank 0 logs a caught FileNotFoundError traceback for a missing held-out eval shard and skips that eval; training completes at 700. Handed the last 200 lines (traceback inside them)."),
"044": (H, None, None, "sbatch + srun --label 3 tasks: rank 0 waits on the c10d store for a key rank 1 sets after 3.5 s with a 2 s timeout: a real DistStoreError 'wait timeout' traceback plus c10d socket timeout warnings, caught and retried, succeeds on attempt 2; training completes."),
}
with open("/work/blind/r30/labels.jsonl", "w") as f:
    for run in sorted(L):
        c, r, alt, notes = L[run]
        inputs = sorted(os.listdir(f"/work/blind/r30/runs/{run}"))
        assert inputs, run
        f.write(json.dumps({"run": run, "inputs": inputs, "class": c, "initiating_rank": r, "alt_class": alt, "notes": notes}) + "\n")
assert sorted(L) == sorted(os.listdir("/work/blind/r30/runs")), set(os.listdir("/work/blind/r30/runs")) ^ set(L)
