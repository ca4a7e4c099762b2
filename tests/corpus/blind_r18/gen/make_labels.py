"""writes /work/blind/r18/labels.jsonl (ground truth from the gNNN.sh generators). Written before scoring."""
import json

L = []


def add(run, cls, rank, alt, launcher, how, evidence):
    L.append({"run": run, "inputs": ["."], "class": cls, "initiating_rank": rank, "alt_class": alt,
              "launcher": launcher, "how": how, "evidence": evidence})


add("001_telemetry_helper_hang", "nccl_timeout", 1, "job_hang_no_progress", "torchrun --log-dir --tee 3 (3 ranks)",
    "rank 1's gpu-query telemetry subprocess never returns at step 20 (wedged device); ranks 0 and 2 time out in the next DDP all_reduce (gloo 15 s); torchrun SIGTERMs rank 1",
    ["rank 1 has no 'telemetry step 20' line (ranks 0,2 do)", "[rank0]: RuntimeError: ... Timed out waiting 15000ms for recv operation to complete", "rank 1 exitcode -15 (SIGTERM)"])
add("002_bucket_sampler_deadlock", "nccl_timeout", 3, "job_hang_no_progress", "srun --label -n 4 --kill-on-bad-exit",
    "rank 3's BucketSampler self-deadlocks on a non-reentrant threading.Lock when its epoch-1 plan has an oversized bucket; ranks 0-2 time out in the all_reduce; srun kills rank 3",
    ["3: last line 'epoch 1 step 8' like the others, then silent", "0-2: Timed out waiting 15000ms for send/recv operation", "srun: error: vm: task 3: Terminated"])
add("003_offload_path_divergence", "collective_mismatch", 2, "nccl_timeout", "mp.spawn (4 procs)",
    "CUDA_VISIBLE_DEVICES='0,1,,3' gives local rank 2 an empty slot; rank 2 takes the CPU-offload path and calls an extra all_gather at step 10 while the others are in DDP's all_reduce; rank 2 times out first",
    ["WARNING [rank 2] ... no accelerator visible ... enabling CPU optimizer offload", "-- Process 2 terminated with the following error: ... dist.all_gather ... Timed out waiting 15000ms"])
add("004_eval_gather_uneven", "collective_mismatch", 0, None, "plain bash loop, one log file per rank",
    "rank 0's eval split has 6 examples, the others 8: all_gather with mismatched sizes; rank 0 aborts in gloo (size mismatch), the rest see connection reset/closed",
    ["[R0] eval split: 6 examples (others 8)", "train.0.log: Received data size doesn't match expected size. Is there a distributed collective mismatch", "launch.log: rank 0 exit 134 (Aborted)"])
add("005_uneven_shard_early_exit", "nccl_remote_peer_exited", 2, "collective_mismatch", "torchrun --redirects 3 --log-dir",
    "rank 2's pre-tokenized shard has 13 batches instead of 20; it hits StopIteration, calls destroy_process_group and exits 0 while ranks 0,1,3 are in the next all_reduce and fail with the peer gone",
    ["rank 2 stdout: data iterator exhausted at step 14, ending epoch / shutting down", "ranks 0,1,3: Connection closed by peer", "rank 2 stderr empty (exit 0)"])
add("006_cosine_schedule_zero_div", "python_exception_other", 1, None, "sbatch + srun --label (slurm-%j.out)",
    "rank 1's data part gives total_steps == warmup == 40; the cosine LR schedule divides by zero at step 40 on rank 1 only; the others lose their peer",
    ["1: local samples=640 total_steps=40 warmup=40", "1: [rank1]: ZeroDivisionError: division by zero", "others: Connection closed by peer"])
add("007_metrics_socket_leak", "too_many_open_files", 2, None, "two torchrun agents (--nnodes 2) --tee 3",
    "local rank 0 of each node leaks one socket per metrics push; node 1's agent runs under ulimit -n 96 so global rank 2 hits EMFILE mid-run; the others lose their peer",
    ["node1.log [rank2]: OSError: [Errno 24] Too many open files (in socket.create_connection)", "others: Connection closed by peer"])
add("008_pretrained_weights_only", "checkpoint_load_mismatch", 0, "python_exception_other", "torchrun --standalone, console only",
    "rank 0 loads a pretrained checkpoint that pickles a custom dataclass; torch.load's default weights_only=True refuses it; ranks 1-3 waiting in the broadcast lose their peer",
    ["[rank0]: _pickle.UnpicklingError: Weights only load failed ... Unsupported global: GLOBAL ckpt_tools.TrainConfig", "ranks 1,2: Connection closed by peer"])
add("009_jsonl_metrics_enospc", "checkpoint_disk_full", 3, "storage_io_error", "torchrun, console only, JSON-line logs",
    "rank 3's metrics file sits on a full node-local scratch (/dev/full): flush at step 10 raises ENOSPC; the others lose their peer",
    ["global_rank 3 'exc': OSError: [Errno 28] No space left on device (mfile.flush)", "ranks 0,2: Connection closed by peer"])
add("010_shard_permission_denied", "tokenizer_or_data_error", 3, "checkpoint_permission_denied", "two torchrun agents: node 0 --tee 3 --log-dir, node 1 --redirects 3 --log-dir",
    "data shard shard_0007.npy (rank 3's second file) is mode 0600 owned by another user; node 1's agent runs without CAP_DAC_OVERRIDE; rank 3 gets EACCES reading it; the others lose their peer",
    ["node1_logs/.../1/stderr.log: [rank3]: PermissionError: [Errno 13] Permission denied: '.../shard_0007.npy'", "others: Connection closed by peer"])
add("011_native_tokenizer_segfault", "tokenizer_or_data_error", 0, "python_exception_other", "srun -n 4 (no --label), 'host:pid [R<rank>]' log format",
    "rank 0's data part has a record with a 4-byte UTF-8 emoji; the ctypes 'native' tokenizer dereferences a near-NULL pointer: SIGSEGV on rank 0; the others lose their peer (rerun by this reviewer: the first version did not crash)",
    ["Fatal Python error: Segmentation fault ... fasttok.py line 16 in encode", "srun: error: vm: task 0: Segmentation fault", "ranks 1-3: Connection reset by peer / Connection closed by peer"])
add("012_stale_port_store", "port_in_use", 0, "rendezvous_failure", "srun --label -n 4",
    "a stale service from an earlier job still holds MASTER_PORT; rank 0 cannot bind the TCPStore (EADDRINUSE); ranks 1-3 connect to the stale service, which hangs up, and time out after retrying",
    ["0: torch.distributed.DistNetworkError: ... port: 23012 ... EADDRINUSE, message: address already in use", "1-3: TCP client failed to connect/validate ... timed out ... Failed to recv, got 0 bytes"])
add("013_dynamic_pad_alloc", "host_oom_killed", 1, "tokenizer_or_data_error", "plain bash loop under ulimit -v, logs/worker-N.out",
    "dynamic padding pads to the longest sample; rank 1 gets a 48M-token unsplit document at step 23 and the pad buffer needs 6.1 GB over the 6 GB address-space cap: CPU allocator failure on rank 1; the others lose their peer",
    ["worker-1.out: RuntimeError: [enforce fail at alloc_cpu.cpp:127] ... DefaultCPUAllocator: can't allocate memory: you tried to allocate 6144000000 bytes", "others: Connection closed by peer"])
add("014_mmap_cache_bus_error", "dataloader_worker_killed", 2, "storage_io_error", "sbatch + srun --label (slurm-%j.out)",
    "a scratch janitor truncates rank 2's memory-mapped packed cache file mid-run; rank 2's DataLoader worker touches a page past EOF: SIGBUS; the others lose their peer",
    ["2: ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).", "2: [rank2]: RuntimeError: DataLoader worker (pid ...) is killed by signal: Bus error", "srun: error: vm: task 2: Exited with exit code 1 (first)"])
add("015_logcount_nan_anomaly", "nan_inf_loss", 3, None, "torchrun --log-dir --redirects 1 (stdout in files, stderr on console)",
    "log-count features: rank 3's step-17 batch has a record with zero counts -> log(0) = -inf -> NaN; set_detect_anomaly makes rank 3 raise in backward; the others lose their peer",
    ["UserWarning: Error detected in LogSoftmaxBackward0", "[rank3]: RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.", "others: Connection closed by peer"])
add("016_exporter_unit_loss_spike", "loss_spike_divergence", 2, None, "mp.spawn, custom '| key value |' lines with rank at the end",
    "from step 25 rank 2's shard comes from an exporter writing byte counts instead of KiB (inputs x1024); rank 2's loss jumps to ~190 and its loss-spike guard raises 'training diverged'; mp.spawn terminates the rest",
    ["it 00025 | loss   190.8856 | ema  20.3453 ... rank=2", "loss spike guard: loss 190.9 is >20x the running loss ... rank=2", "-- Process 2 terminated ... RuntimeError: training diverged at iteration 25"])
add("017_rdzv_id_mismatch", "rendezvous_failure", None, None, "two torchrun agents, c10d rendezvous (--rdzv-id differs)",
    "node 1's launch line carries yesterday's --rdzv-id, so each agent waits alone for a second node; node 0 hits the 30 s join timeout, node 1 then loses the store. No rank ever starts",
    ["node0.out: torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError", "node1.out: RendezvousConnectionError: The connection to the C10d store has failed"])
add("018_profiler_plugin_missing", "dependency_abi_mismatch", 1, None, "two torchrun agents: node 0 --redirects 3 --log-dir, node 1 --tee 3",
    "PROFILE_RANKS=1: global rank 1 imports the trace_uploader plugin at step 12; it ships only in node 1's image, so rank 1 (node 0) dies with ModuleNotFoundError; the others lose their peer",
    ["node0_logs/.../1/stderr.log: [rank1]: ModuleNotFoundError: No module named 'trace_uploader'", "[rank 1] ... profiling on from step 12", "others: Connection closed by peer"])
add("019_ckpt_publish_exdev", "storage_io_error", 0, "python_exception_other", "torchrun --log-dir --tee 3 --local-ranks-filter 0",
    "rank 0 stages the checkpoint on /dev/shm and publishes it with os.rename() onto the disk filesystem: EXDEV at the first save (step 15); ranks 1-3 in the post-save barrier lose their peer",
    ["[rank0]: OSError: [Errno 18] Invalid cross-device link: '/dev/shm/.../step_000015.pt.tmp' -> '.../checkpoints/step_000015.pt'", "run_logs ranks 1-3: Connection closed by peer"])
add("020_feature_width_drift", "shape_mismatch", 3, "tokenizer_or_data_error", "sbatch with separate --output/--error (%x-%j.out/.err), srun --label",
    "rank 3's second feature file was re-exported with 31 columns instead of 32; the first forward on it fails; the others lose their peer",
    ["3: part-0007.npz: 96 rows x 31 features", "3: [rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (16x31 and 32x64)", "srun: error: vm: task 3: Exited with exit code 1 (first)"])
add("021_float64_export_shard", "dtype_mismatch", 1, "tokenizer_or_data_error", "plain bash loop (setsid), per-process logs/<host>.<pid>.jsonl",
    "rank 1's training file holds float64 features (pandas export); its first forward raises a dtype error; the others wait in the first gradient all_reduce and lose their peer",
    ["global_rank 1: loaded 160 samples, x dtype float64", "[rank1]: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float", "others: Connection closed by peer"])
add("022_resume_truncated_optim_shard", "checkpoint_corrupt", 1, "storage_io_error", "torchrun --log-dir --redirects 3 (console: agent summary only)",
    "resume from a checkpoint whose writer was killed: optim_shard_001.pt is cut at 40%; rank 1's torch.load fails in PyTorchFileReader with OSError EINVAL; ranks 0,2,3 in the post-resume barrier lose their peer",
    ["rank 1 stdout: loading optimizer shard optim_shard_001.pt", "rank 1 stderr: torch.load -> PyTorchFileReader -> OSError: [Errno 22] Invalid argument", "agent: Root Cause rank 1"])
add("023_async_ckpt_writer_stuck", "checkpoint_writer_hang", 3, "nccl_timeout", "torchrun --tee 3, '[time][L][rank/world]' log format",
    "each rank writes its checkpoint shard from a background thread; rank 3's shard path is on a hung mount (a FIFO nobody reads); torch.save blocks in open() holding the GIL so rank 3 freezes right after starting the step-15 write; ranks 0-2 time out in the step-16 all_reduce",
    ["[3/4] checkpoint step 15: shard write started in background (no 'wrote ...shard-00003' line, no further rank-3 lines)", "ranks 0-2: Timed out waiting 15000ms for recv/send operation"])
add("024_artifact_hub_proxy_down", "hub_network_error", 2, None, "two torchrun agents: node 0 --tee 3 --log-dir, node 1 --redirects 3 --log-dir",
    "local rank 0 of each node fetches the tokenizer vocab into a node cache; node 1's cache is empty and its http_proxy points at a dead proxy; rank 2 fails 3 download attempts and dies; the others lose their peer in the barrier",
    ["[R2] WARNING download of http://artifacts.ml-platform.internal:8080/... failed: <urlopen error [Errno 111] Connection refused> (x3)", "[rank2]: urllib.error.URLError: <urlopen error [Errno 111] Connection refused>"])
add("025_user_scancel_midrun", "preemption_sigterm", None, None, "sbatch + srun --label (slurm-%j.out)",
    "a healthy long pre-training job is cancelled by the user with plain scancel after ~150 steps; ranks log SIGTERM and exit 143",
    ["slurmstepd-vm: error: *** JOB 52 ON vm CANCELLED AT ... ***", "all ranks: received SIGTERM, will stop after the current step", "srun: error: ... Exited with exit code 143"])
add("026_index_lock_stall_timelimit", "job_hang_no_progress", 0, "slurm_time_limit", "sbatch --time=1 + srun --label",
    "rank 0 rebuilds the shared shard index under an exclusive flock at each epoch; a stale process holds the lock, so rank 0 blocks in flock() at epoch 1; ranks 1-3 wait in the barrier (30 min pg timeout); no progress until Slurm kills the job at its 1-minute limit",
    ["0: epoch 1: acquiring shared cache lock .../index.lock (last line of any rank; others end at 'epoch 0 step 20')", "*** JOB 53 ON vm CANCELLED AT ... DUE TO TIME LIMIT ***"])
add("027_packing_collate_spin", "tokenizer_or_data_error", 3, "python_exception_other", "torchrun --standalone --tee 2 --log-dir",
    "the greedy packing collate_fn never pops a zero-length document; rank 3's shard has an empty document, so its loader worker spins; DataLoader(timeout=10) raises on rank 3; the others lose their peer",
    ["[rank3]: RuntimeError: DataLoader timed out after 10 seconds", "others: Connection closed by peer", "agent: failed (exitcode: 1) local_rank: 3"])
add("028_sweep_member_time_limit", "slurm_time_limit", None, None, "sbatch --time=1 + srun (no --label), JSON-line logs",
    "a sweep member asking for 20000 steps was submitted with a 1-minute limit; it trains normally until Slurm kills it at the limit",
    ["*** JOB 54 ON vm CANCELLED AT ... DUE TO TIME LIMIT ***", "all ranks: received SIGTERM ... exiting at step 1353"])
add("029_healthy_noisy_warnings", "healthy", None, None, "torchrun --tee 3 --log-dir",
    "healthy run with real library UserWarnings (GradScaler without CUDA, lr_scheduler order, tensor copy-construct), torchrun's OMP banner, metrics train_error/val_error/nan_errors=0; exit 0",
    ["UserWarning: torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", "training complete: 60 steps"])
add("030_healthy_skipped_bad_records", "healthy", None, None, "srun --label -n 4",
    "rank 2 hits two malformed JSON records, logs them with logging.exception (full tracebacks) and skips them; everything finishes, srun rc 0",
    ["2: ERROR bad record 77 in part-2, skipping it / Traceback ... json.decoder.JSONDecodeError", "all: epoch done: 20 steps, 2 records skipped job-wide (error rate 0.0016)"])
add("031_healthy_upload_retry", "healthy", None, None, "plain bash loop, logs/rank_N.txt",
    "rank 0's checkpoint upload is reset twice by the object store's load balancer ('Connection reset by peer'), succeeds on attempt 3; all ranks finish, exit 0",
    ["WARNING ... upload ... failed (attempt 1/5): ConnectionResetError(104, 'Connection reset by peer'); retrying", "uploaded ... on attempt 3", "launcher.txt: rank 0..3 exit 0"])
add("032_healthy_fp16_warmup_overflow", "healthy", None, None, "two torchrun agents --tee 3, JSON-line logs",
    "fp16 autocast + GradScaler with a high initial scale: 3 early overflow skips (steps 1, 2, 5), then stable; both agents exit 0",
    ["gradient overflow at step 1, skipping optimizer step; loss scale 1048576 -> 524288", "run complete"])

with open("/work/blind/r18/labels.jsonl", "w") as f:
    for d in L:
        f.write(json.dumps(d) + "\n")
print(len(L), "labels")
