"""Ground-truth labels for the r24 runs, written from what each generator made happen."""
import json

L = []
def lab(run, cls, rank, alt, launcher, how, evidence):
    L.append({"run": run, "inputs": ["."], "class": cls, "initiating_rank": rank, "alt_class": alt,
              "launcher": launcher, "how": how, "evidence": evidence})

lab("001_nan_recurs", "nan_inf_loss", 1, None, "torchrun 3 procs, --max-restarts 1, c10d",
    "rank 1's batch at step 7 holds an inf (corrupt sample); its local loss is nan, the all-reduced global loss is nan on every rank and all three raise FloatingPointError; the elastic restart resumes from the step-5 checkpoint and fails identically.",
    ["[rank1] step 7 local_loss nan while ranks 0 and 2 show finite local_loss and global_loss nan",
     "all ranks raise 'FloatingPointError: non-finite global loss nan at step 7' in both attempts; torchrun names rank 0 as root cause"])
lab("002_restart_torn_ckpt", "host_oom_killed", 2, "checkpoint_corrupt", "torchrun 4 procs, --max-restarts 1, per-rank files (--log-dir/--redirects 3) + console",
    "attempt 0: at step 10 rank 0 writes the checkpoint slowly in place while ranks 1-3 evaluate; rank 2's eval requests an 80 GB logits buffer -> DefaultCPUAllocator: can't allocate memory; torchrun SIGTERMs the others, tearing rank 0's half-written model_latest.pt; attempt 1: every rank fails loading it (PytorchStreamReader failed finding central directory).",
    ["attempt_0/2/stderr.log: DefaultCPUAllocator: can't allocate memory: you tried to allocate 80824513568 bytes",
     "attempt_0/0/stdout.log ends at 'writing checkpoint ... (7.4 MB)' (no 'checkpoint written')",
     "attempt_1: all 4 ranks 'PytorchStreamReader failed reading zip archive' - a consequence"])
lab("003_node_lost", "node_failure", None, "nccl_remote_peer_exited", "two torchrun agents (2x2), c10d, --max-restarts 1, join_timeout 25",
    "at step 20 node 1's agent and both its workers (ranks 2,3) are SIGKILLed at once (node loss); node 0's ranks get 'Connection closed by peer', its agent restarts and waits for node 1 in re-rendezvous until RendezvousTimeoutError.",
    ["node1.log simply stops at step 20 with no error", "node0.log: ranks 0,1 Connection closed by peer, then RendezvousTimeoutError in _restart_workers"])
lab("004_node1_stale_ext", "dependency_abi_mismatch", None, None, "two torchrun agents (2x2), c10d",
    "node 1's PYTHONPATH puts an old fused_ops build first; both node-1 ranks (2,3) fail at import with an undefined c10 symbol; node 0's ranks wait in init_process_group and time out (DistStoreError).",
    ["node1.log: ImportError: .../fused_ops...so: undefined symbol: _ZN3c106detail23torchInternalAssertFailE... (ranks 2 and 3 alike)",
     "node0.log: DistStoreError wait timeout after 30000ms - consequence"])
lab("005_node1_ulimit_emfile", "too_many_open_files", 3, "dataloader_worker_killed", "two torchrun agents: node0 3 procs (ranks 0-2), node1 1 proc (rank 3), c10d",
    "node 1's agent is started from a shell with ulimit -n 256; DataLoader workers share batches by fd and the replay buffer keeps 120 batches, so rank 3 hits 'Too many open files. Communication with the workers is no longer possible'; ranks 0-2 then lose their peer.",
    ["node1.log: [rank3] ... nofile=256 vs nofile=20000 on node 0", "[rank3]: RuntimeError: Too many open files. ... ulimit -n",
     "node0 root cause is rank 2 with 'Connection closed by peer' - consequence"])
lab("006_rdzv_late_node", "rendezvous_failure", None, None, "three torchrun agents (3x2), c10d, join_timeout 20",
    "node 2's agent is started 35 s late; nodes 0/1 time out in rendezvous (RendezvousTimeoutError / store connection lost), then node 2 waits alone and times out.",
    ["node0.log/node2.log: RendezvousTimeoutError; no worker ever started"])
lab("007_lock_deadlock", "nccl_timeout", 2, "job_hang_no_progress", "torchrun 4 procs, c10d; Flight Recorder dumps written by the script's stall watchdog",
    "rank 2's shard ends first (9 batches); its prefetch thread holds buf_lock and waits for stats_lock while the main thread holds stats_lock and waits for buf_lock (lock-order deadlock). Ranks 0,1,3 wait in all_reduce until gloo's 30 s timeout; rank 2 is SIGTERMed.",
    ["rank 2's stack dump: prefetch thread at s007.py:27 (with self.stats_lock) and main thread in get() at s007.py:36 (with self.buf_lock)",
     "fr/fr_trace_rank_2 has 36 entries, the others 37 (rank 2 never entered the 37th all_reduce)",
     "ranks 0,1,3: 'Timed out waiting 30000ms'; rank 2: no exception, exitcode -15; torchrun root cause rank 1"])
lab("008_fifo_blocked_read", "nccl_timeout", 1, "job_hang_no_progress", "torchrun 3 procs, per-rank files (--log-dir/--redirects 3) + torchrun.log",
    "rank 1's second shard file is a named pipe with no writer; open() blocks forever after 10 steps; ranks 0 and 2 time out in all_reduce (25 s) and rank 1 is SIGTERMed.",
    ["attempt_0/1/stdout.log ends with 'opening shard .../rank1/shard_001.bin' and stderr.log is empty",
     "ranks 0,2 got past the same point ('opening shard') and then 'Timed out waiting 25000ms'",
     "torchrun root cause: rank 2 (timeout) - consequence"])
lab("009_sampler_spin", "nccl_timeout", 4, "job_hang_no_progress", "two torchrun agents: 3 + 2 procs (ranks 0-4), c10d, JSON lines",
    "rank 4's packing sampler rejection-samples forever once its short documents are used up (infinite CPU loop) after step 15; ranks 0-3 time out in all_reduce after 30 s; rank 4 is SIGTERMed.",
    ["all ranks' last step is 15; ranks 0-3 raise gloo timeouts, rank 4 (gpu-a02) raises nothing and exits -15",
     "torchrun root causes name rank 0 (gpu-a01) and rank 3 (gpu-a02) - consequences"])
lab("010_p2p_skipped_send", "collective_mismatch", 2, "nccl_timeout", "torchrun 4 procs with --tee 3 ([defaultN]: prefixes), console",
    "every step rank 2 sends a boundary tensor to rank 3 (send/recv); at step 6 rank 2's micro-batch is empty, it logs a warning and skips the forward and the send, going straight to all_reduce; rank 3 blocks in recv(src=2); everyone times out after 25 s.",
    ["[default2]: WARNING - step 6: empty micro-batch after filtering, skipping forward",
     "rank 3's traceback is in dist.recv (Timed out waiting 25000ms for recv), ranks 1,2 time out in all_reduce, rank 0 then sees Connection closed by peer; torchrun names rank 0 as root cause",
     "rank 3 is the rank that stopped; rank 2's skipped send is what started it"])
lab("011_straggler_3nodes", "nccl_timeout", 5, "job_hang_no_progress", "three torchrun agents (3x2), c10d; app writes logs/train_rankN.log + node consoles",
    "rank 5's data reads slow down exponentially (sleep doubling each step) until one step (25.6 s) exceeds the 20 s collective timeout; all other ranks time out waiting for it.",
    ["logs/train_rank5.log: data_time 6.4 s, 12.8 s at steps 11-12 while other ranks show data_time 0.000 and growing fwd_bwd_comm",
     "consoles: ranks 0-4 'Timed out waiting 20000ms'"])
lab("012_slurm_tokenizer_thread", "tokenizer_or_data_error", 1, "job_hang_no_progress", "sbatch 3 tasks, srun --label, --time=1",
    "rank 1's background tokenizer thread hits a record with 'content' instead of 'text' (KeyError) and dies; the main thread blocks forever on queue.get() after the queued batches; ranks 0,2 wait in all_reduce (300 s PG timeout) until Slurm's time limit cancels the job.",
    ["1: Exception in thread tokenizer: ... KeyError: 'text'",
     "slurmstepd: *** JOB N ON vm CANCELLED AT ... DUE TO TIME LIMIT *** - consequence of the hang"])
lab("013_dl_worker_segv", "dataloader_worker_killed", 3, None, "torchrun 4 procs, PYTHONFAULTHANDLER=1, console",
    "a ctypes 'decoder' in rank 3's DataLoader worker writes through a NULL pointer for record 1337 -> SIGSEGV in the worker; rank 3 raises 'DataLoader worker (pid X) is killed by signal: Segmentation fault'; the others lose their peer.",
    ["ERROR: Unexpected segmentation fault encountered in worker.", "[rank3]: RuntimeError: DataLoader worker (pid ...) is killed by signal: Segmentation fault."])
lab("014_node1_small_shm", "dataloader_worker_killed", 2, None, "two torchrun agents: worker-0 2 procs (ranks 0,1), worker-1 1 proc (rank 2), c10d",
    "worker-1 runs in a mount namespace with a 4 MB /dev/shm; its DataLoader workers cannot allocate shared memory for 600 KB batches (ENOSPC on /dev/shm); rank 2 fails, ranks 0,1 lose their peer.",
    ["trainer-worker-1.log: /dev/shm: 4 MiB (vs 24105 MiB on worker-0)",
     "[rank2]: Caught RuntimeError in DataLoader worker process 1 ... unable to allocate shared memory(shm) ... No space left on device (28)"])
lab("015_ckpt_thread_eacces", "checkpoint_permission_denied", 1, None, "torchrun 3 procs (without DAC-override capabilities), console",
    "each rank writes its optimizer shard in a background thread; rank 1's shard directory is owned by another user (0755), so its writer thread dies with 'open file failed with strerror: Permission denied' at step 10; at step 20 rank 1's main thread sees the missing checkpoint and raises; ranks 0,2 lose their peer.",
    ["'Exception in thread ckpt-writer-10' (unprefixed) ... RuntimeError: [enforce fail at inline_container.cc:747] . open file failed with strerror: Permission denied",
     "ranks 0,2 log 'checkpoint step 20 ... started' but rank 1 raises 'async checkpoint of step 10 did not complete on rank 1'"])
lab("016_ckpt_writer_lock_hang", "checkpoint_writer_hang", 3, "nccl_timeout", "torchrun 4 procs with --tee 3, console",
    "a leftover uploader process from the previous job holds flock on ckpt/rank3.lock; rank 3's async checkpoint writer blocks on it forever; at step 14 rank 3's main thread waits for the writer, the others wait in the commit barrier and time out after 25 s.",
    ["'ckpt writer: step 10 shard written' appears for ranks 0,1,2 ([default0-2]) but never for rank 3",
     "ranks 0-2 'Timed out waiting 25000ms' in barrier after 'waiting for writer to finish step 10'; rank 3 SIGTERMed"])
lab("017_cgroup_oom_recurs", "host_oom_killed", 3, None, "torchrun 4 procs, --max-restarts 1, inside a 2200 MB memory cgroup; console + dmesg OOM lines",
    "rank 3 keeps 40 MB of activations per step (leak); the cgroup limit is reached and the kernel OOM killer kills rank 3 (exitcode -9); torchrun restarts once and it happens again.",
    ["[rank3] rss_mb grows ~40 MB/step while the other ranks stay flat", "attempt 0: failed (exitcode: -9) local_rank: 3; attempt 1 summary: rank 3 exitcode -9 (SIGKILL) while torchrun's Root Cause names rank 0 (SIGTERM)",
     "dmesg_oom.txt: Memory cgroup out of memory: Killed process <rank 3 pid> (python3)"])
lab("018_launcher_only_keyerror", "python_exception_other", 2, None, "torchrun 3 procs with --redirects 3; only torchrun's console given",
    "rank 2 (the metrics rank) reads a renamed config key at step 1: KeyError: 'eval_interval'; ranks 0,1 lose their peer.",
    ["Root Cause: rank 2 ... KeyError: 'eval_interval' (from the error file via @record)"])
lab("019_uneven_shard_exit0", "nccl_remote_peer_exited", 3, "tokenizer_or_data_error", "torchrun 4 procs, console, '[rankN]' prefixed prints",
    "rank 3's shard has only 12 batches (others 29-30); it finishes its epoch and exits 0; ranks 0-2 fail in their next all_reduce with 'Connection closed by peer'.",
    ["[rank3] shard ...: 12 batches vs 29/30 on the others", "[rank3] epoch 0 complete ... exiting (no error)",
     "torchrun names rank 0 as root cause - consequence"])
lab("020_mismatch_debug_detail", "collective_mismatch", 1, None, "torchrun 4 procs, TORCH_DISTRIBUTED_DEBUG=DETAIL, console",
    "rank 1 infers num_classes=1001 from its shard labels (others 1000) and all_reduces a [1001] tensor; the DETAIL checker reports the mismatch on all ranks.",
    ["num_classes inferred ... 1001 on rank 1 only", "Detected mismatch between collectives ... Rank 1 ... TensorShape=[1001] vs [1000] on the other ranks; torchrun root cause: rank 0"])
lab("021_mismatch_silent", "collective_mismatch", 1, "nccl_timeout", "torchrun 3 procs, per-rank files (--log-dir/--redirects 3) + console",
    "'new best' is decided on each rank's local val loss; at step 8 only rank 1 sees an improvement and calls broadcast(src=1) per parameter while ranks 0,2 go on to the gradient all_reduce; rank 1's broadcast send times out after 25 s and the others then see the connection closed.",
    ["only attempt_0/1/stdout.log has 'new best, syncing weights from this rank' at step 8",
     "rank 1: Timed out waiting 25000ms for send (in broadcast); ranks 0,2: Connection closed by peer; torchrun root cause rank 1"])
lab("022_slurm_timelimit", "slurm_time_limit", None, None, "sbatch 2 tasks, srun --label, --time=1, JSON lines",
    "training runs normally but needs ~5 min (eta in the log); Slurm cancels it at the 1-minute time limit.",
    ["progress lines with eta_s ~205 at elapsed 65 s", "*** JOB N ON vm CANCELLED AT ... DUE TO TIME LIMIT ***"])
lab("023_slurm_torchrun_scancel", "preemption_sigterm", None, None, "sbatch -> srun --label (2 tasks) -> torchrun 2 procs each, c10d",
    "healthy long run; ~25 s in, the job is scancel'ed; both agents receive SIGTERM, stop their workers and exit with SignalException.",
    ["*** JOB N ON vm CANCELLED AT ... *** (no time limit)", "Received 15 death signal, shutting down workers; SignalException: Process ... got signal: 15"])
lab("024_oov_token_3nodes", "tokenizer_or_data_error", 4, "python_exception_other", "three torchrun agents (2+2+1 procs), per-rank files per node (--log-dir/--redirects 3), JSON lines",
    "rank 4's shard was tokenized with an extended vocabulary (50304) while the model's embedding has 50257 rows; at step 12 an id >= 50257 appears: IndexError: index out of range in self; the others lose their peer.",
    ["node2/.../attempt_0/0/stdout.log: rank 4 'tokenizer': 'gpt2-ext-code', 'vocab_size': 50304", "node2/.../attempt_0/0/stderr.log: [rank4]: IndexError: index out of range in self (embedding)"])
lab("025_node1_stale_config", "checkpoint_load_mismatch", 1, None, "three torchrun agents x 1 proc, c10d, node consoles",
    "node 1 exports MODEL_CONFIG of the previous experiment (hidden 96); rank 1's load_state_dict of the hidden-128 checkpoint fails with size mismatch; ranks 0,2 lose their peer.",
    ["node1.log: model config .../exp41.json: {'hidden': 96}", "[rank1]: RuntimeError: Error(s) in loading state_dict for Sequential: size mismatch ..."])
lab("026_node1_scratch_full", "checkpoint_disk_full", 2, "storage_io_error", "two torchrun agents (2x2), c10d, node consoles with tqdm",
    "node 1's node-local scratch is a 6 MB tmpfs already holding 4.5 MB; rank 2 (node 1's local rank 0) stages a 3.4 MB checkpoint there and torch.save fails (ENOSPC surfaces as 'basic_ios::clear: iostream error' / 'unexpected pos'); the others lose their peer.",
    ["node1.out: staging checkpoint to .../scratch/ckpt_step20.pt then [rank2]: RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 1259648 vs 1259540",
     "node0.out: the same save on rank 0 succeeds ('staged 3.4 MB')"])
lab("027_healthy_2node_tqdm", "healthy", None, None, "two torchrun agents (2x2), c10d, --max-restarts 1, tqdm",
    "normal two-node run that completes; a UserWarning about lr_scheduler.step() order.", ["both agents exit 0; 'epoch 1 finished'"])
lab("028_healthy_uploader_thread_dies", "healthy", None, None, "torchrun 3 procs, JSON lines",
    "rank 1's best-effort metrics uploader thread cannot reach its service, retries 3 times and dies with ConnectionRefusedError; training continues and completes on all ranks.",
    ["Exception in thread metrics-uploader ... ConnectionRefusedError", "'run complete' on all ranks, torchrun exits 0"])
lab("029_healthy_slurm_scaler", "healthy", None, None, "sbatch 3 tasks, srun --label",
    "completes; one badly-normalised batch at step 40 spikes the loss and triggers one loss-scaler overflow skip; the loss recovers the next step.",
    ["'gradient overflow, skipping update' once at step 40", "training complete on all ranks; exit 0"])
lab("030_hub_mirror_down_restart_ok", "hub_network_error", 2, "healthy", "two torchrun agents (2x2), c10d, --max-restarts 1",
    "node 1's tokenizer cache is empty and its HF_ENDPOINT mirror is down during attempt 0: rank 2 fails with URLError Connection refused; the mirror is then started, the elastic restart downloads the file and the run completes (both agents exit 0).",
    ["node1.log: [rank2]: urllib.error.URLError: <urlopen error [Errno 111] Connection refused> in attempt 0",
     "attempt 1: 'saved ... tokenizer.json' and 'finished' on all ranks"])
lab("031_elastic_scaleup_stuck", "rendezvous_failure", None, None, "torchrun --nnodes 1:2 elastic, second agent joins during training",
    "node 0 trains alone (1:2 nodes); node 1 joins ~8 s later; node 0 stops its workers for the scale-up re-rendezvous, but both agents then wait for each other's store keys (role_info / MASTER_ADDR) and fail with DistStoreError after 60 s. No worker failed.",
    ["node0.log: Sending closing signal SIGTERM (scale-up), then DistStoreError: wait timeout ... keys: /torch.rendezvous.job031.1/torchelastic/role_info/0",
     "node1.log: DistStoreError: wait timeout ... keys: /torch.rendezvous.job031.1/MASTER_ADDR"])
lab("032_healthy_retried_missing_index", "healthy", None, None, "torchrun 3 procs, per-rank files (--log-dir/--redirects 3) + console",
    "rank 2's shard index is still being synced at start; it logs FileNotFoundError tracebacks (3 retries) and then succeeds; the run completes.",
    ["attempt_0/2/stdout.log: 3x ERROR could not read shard index ... FileNotFoundError, then 'shard index ok' and 'Training completed.'"])

with open("/work/blind/r24/labels.jsonl", "w") as f:
    for x in L:
        f.write(json.dumps(x) + "\n")
print(len(L), "labels")
