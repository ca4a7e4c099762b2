"""Writes /work/blind/r25/labels.jsonl (ground truth from what each gen/runs/*.sh made happen)."""
import json

L = []


def lab(run, cls, rank, alt, launcher, how, evidence):
    L.append({"run": run, "inputs": ["."], "class": cls, "initiating_rank": rank, "alt_class": alt,
              "launcher": launcher, "how": how, "evidence": evidence})


lab("001_shard_truncated", "tokenizer_or_data_error", 2, None, "torchrun --nproc-per-node 4 (1 node)",
    "Training shard train-00002 (read only by rank 2) truncated to 60% of its bytes (interrupted upload). Rank 2's "
    "DataLoader worker fails np.load on its first batch; ranks 0,1,3 wait in the DDP all_reduce and lose the peer. "
    "Paste: whole console (stdout+stderr).",
    ["[rank2]: zipfile.BadZipFile: Caught BadZipFile in DataLoader worker process 0 ... File is not a zip file (np.load of the shard in data.py _shard)",
     "ranks 0,1,3: gloo 'Connection closed by peer' in loss.backward",
     "torchrun Root Cause: rank 2 exitcode 1"])
lab("002_empty_shard", "tokenizer_or_data_error", 1, "python_exception_other", "sbatch + srun --label, 4 tasks",
    "Rank 1's shard came out of preprocessing with 0 samples (manifest num_samples=0). DataLoader(shuffle=True) on "
    "an empty dataset raises at construction on rank 1; the others wait in the first DDP all_reduce. Paste: slurm-<id>.out.",
    ["1: ... data: 1 shard(s) from .../train -> 0 samples",
     "1: [rank1]: ValueError: num_samples should be a positive integer value, but got num_samples=0",
     "ranks 0,2,3: Connection closed by peer; srun: error: task 1 exited first"])
lab("003_float_tokens", "dtype_mismatch", 3, "tokenizer_or_data_error",
    "two torchrun agents (--nnodes 2, 2 procs each, static rendezvous)",
    "Shard train-00003 re-exported with float64 token ids; rank 3 (node 1) feeds Double indices to the embedding. "
    "Paste: node0.log + node1.log.",
    ["node1.log [rank3]: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding)",
     "node0.log root-cause summary names rank 0 (only that node's first failure: Connection closed by peer)"])
lab("004_jsonl_schema", "tokenizer_or_data_error", 1, None,
    "torchrun --nproc-per-node 4 --log-dir --redirects 3 (per-rank stderr.log files)",
    "jsonl shard train-00001 written by a newer exporter with 'text' instead of 'input_ids'; rank 1's DataLoader "
    "worker raises KeyError. Paste: launcher console + logs/<id>/attempt_0/{0..3}/{stdout,stderr}.log.",
    ["attempt_0/1/stderr.log: KeyError: Caught KeyError in DataLoader worker ... ids = rec[\"input_ids\"] ... KeyError: 'input_ids'",
     "other ranks: gloo Connection closed by peer / SIGTERM from torchrun"])
lab("005_eval_rank0_only", "collective_mismatch", 0, None, "torchrun --nproc-per-node 4 --tee 3",
    "Bug: evaluation under `if rank == 0:` while evaluate() still all_reduces its loss sums. At step 30 rank 0 "
    "enters an all_reduce of 2 floats while ranks 1-3 run the next step's DDP bucket all_reduce; gloo on rank 0 "
    "aborts (SIGABRT). Paste: last 200 lines of the console (the whole console, 190 lines).",
    ["[default0]:terminate called after throwing an instance of 'gloo::EnforceNotMet' ... op.preamble.length <= op.nbytes. 84864 vs 4. Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?",
     "config dump shows 'eval': {'rank0_only': True}",
     "torchrun Root Cause: rank 0 exitcode -6 (SIGABRT); ranks 1-3: Read error/Connection reset by peer later"])
lab("006_async_ckpt_hang", "checkpoint_writer_hang", 3, "nccl_timeout", "torchrun --nproc-per-node 4",
    "Async checkpoint: rank 3's writer thread opens its rank-state file in node-local scratch, which is a FIFO no one "
    "reads (stands in for a hung local mount). torch.save's C++ file writer blocks while holding the GIL, so the whole "
    "rank 3 process freezes right after 'saving checkpoint step 20 (async)'. Ranks 0-2 time out (30 s) in the next "
    "DDP all_reduce; torchrun has to SIGKILL rank 3. Paste: whole console.",
    ["rank3's last line: 'tinylm.ckpt: saving checkpoint step 20 (async) -> .../ckpt' and no traceback at all",
     "ranks 0,1,2: gloo 'Timed out waiting 30000ms for recv/send operation to complete'",
     "'Unable to shutdown process 5009 via 15, forcefully exiting via 9'; rank 3 exitcode -9 (SIGKILL)",
     "torchrun Root Cause names rank 0 (a timeout), not the stuck rank"])
lab("007_metrics_flush_hang", "job_hang_no_progress", 2, "nccl_timeout",
    "sbatch + srun --label, 4 tasks (one per 'node'), --time=3min",
    "Rank 2's node reaches the metrics gateway through a wedged proxy (accepts, never answers); the uploader has no "
    "timeout, so rank 2 blocks forever in uploader.flush() before the step-20 eval. Ranks 0,1,3 time out in the eval "
    "all_reduce and exit; srun keeps waiting for task 2 until Slurm's time limit cancels the job 2.5 min later. "
    "Paste: slurm-<id>.out.",
    ["2: flushing 3 metric record(s) to http://127.0.0.1:30072/v1/ingest (the others flush 1 record to :30071)",
     "0,1,3: Timed out waiting 30000ms for recv/send operation to complete in evaluate -> dist.all_reduce",
     "*** JOB 3 ON vm CANCELLED AT ... DUE TO TIME LIMIT ***",
     "2: final traceback (at the SIGTERM) shows rank 2 inside uploader.flush() -> self.q.join() -> waiter.acquire()"])
lab("008_cgroup_oom", "host_oom_killed", 1, None, "torchrun --nproc-per-node 4",
    "eval keeps every batch's softmax (eval.keep_predictions) -> RSS spike at the first eval. Rank 1 was moved into a "
    "520 MB memory cgroup right after start (its 'node' has less memory); the kernel memcg OOM killer SIGKILLs it at "
    "step 20's eval. Paste: console.log + dmesg.txt (kernel OOM report for that cgroup, dmesg -T).",
    ["dmesg: Memory cgroup out of memory: Killed process 9629 (python3) ... ; oom-kill:constraint=CONSTRAINT_MEMCG",
     "console: failed (exitcode: -9) local_rank: 1 (pid: 9629); Root Cause rank 1 SIGKILL",
     "others only get SIGTERM from torchrun"])
lab("009_ulimit_v_alloc", "host_oom_killed", 3, None,
    "sbatch + srun --output=...rank%t.log (per-task files), 4 tasks",
    "Rank 3's node applies a 1.45 GB address-space limit (ulimit -v); eval keeps all softmax outputs and "
    "torch.cat(preds) fails in the CPU allocator on rank 3 at the step-40 eval. Paste: logs/ (4 per-rank files) + "
    "the batch script's slurm-<id>.out (which wrongly prints 'srun exited with 0').",
    ["rank3 file: RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 134217728 bytes. Error code 12",
     "ranks 0-2: Connection closed by peer after their step-40 eval"])
lab("010_nofile_worker", "too_many_open_files", 1, "dataloader_worker_killed",
    "four torchrun agents (--nnodes 4, 1 proc each, static rendezvous)",
    "256 packed .rec shards (64 per rank) whose dataset keeps every touched shard's file+mmap open per worker; "
    "node 1 runs under ulimit -n 64. A DataLoader worker of rank 1 hits EMFILE passing a batch fd, the main process "
    "gets EOFError. Paste: node0..3.log.",
    ["node1.log [rank1]: OSError: [Errno 24] Too many open files (multiprocessing resource_sharer, in the worker)",
     "node1.log [rank1]: EOFError in rebuild_storage_fd / recv_handle in the main process",
     "other nodes: Connection closed by peer"])
lab("011_devshm_bus", "dataloader_worker_killed", 2, None, "sbatch + srun --label, 4 tasks",
    "Rank 2's node has a tiny /dev/shm (64k tmpfs in a private mount namespace for that task). Its DataLoader worker "
    "cannot allocate the shared-memory segment for the first batch. (torch now reports this as ENOSPC instead of "
    "the old SIGBUS.) Paste: slurm-<id>.out.",
    ["2: [rank2]: RuntimeError: Caught RuntimeError in DataLoader worker process 0 ... unable to allocate shared memory(shm) for file </torch_...>: No space left on device (28)",
     "others: Connection closed by peer"])
lab("012_worker_segv", "dataloader_worker_killed", 3, "tokenizer_or_data_error", "torchrun --nproc-per-node 4",
    "Packed .rec shard train-00003 has an index entry pointing far outside the file; the zero-copy ctypes decoder in "
    "rank 3's DataLoader worker reads through it and the worker dies with SIGSEGV. INFO logs went to stdout; the user "
    "pasted only stderr.",
    ["ERROR: Unexpected segmentation fault encountered in worker.",
     "[rank3]: RuntimeError: DataLoader worker (pid 13540) is killed by signal: Segmentation fault.",
     "torchrun Root Cause: rank 3"])
lab("013_scratch_enospc", "checkpoint_disk_full", 3, "storage_io_error",
    "custom bash launcher (RANK/WORLD_SIZE env, one process per 'node')",
    "Checkpoints stage rank state in node-local scratch; node 3's scratch is a 64k tmpfs a previous job left 52k full. "
    "The step-25 save fits, the step-50 torch.save on rank 3 runs out of space; ranks 0-2 wait in the post-save "
    "barrier and lose the peer. torch reports the full disk only as an iostream error. Paste: the trainer's per-rank "
    "log files (logs/rank0..3.log; exceptions logged via log.exception).",
    ["rank3.log: ERROR fatal error in training loop ... torch.save(rank_state, local) ... RuntimeError: basic_ios::clear: iostream error ... [enforce fail at inline_container.cc:672] . unexpected pos 768 vs 662",
     "ranks 0-2: barrier -> Connection closed by peer"])
lab("014_spot_sigterm_node2", "preemption_sigterm", 2, None,
    "four torchrun agents (--nnodes 4, 1 proc each, static rendezvous)",
    "Spot reclaim of node 2: its torchrun agent gets SIGTERM ~14 s in and forwards it; rank 2's handler logs it, but "
    "its DataLoader workers were killed too, so rank 2 dies with 'worker killed by signal: Terminated' before the "
    "emergency checkpoint; ranks 0,1,3 lose the peer in the next all_reduce. Paste: logs/node0..3.log.",
    ["node2.log: 'Received 15 death signal, shutting down workers'; SignalException: Process 14345 got signal: 15",
     "node2.log: WARNING [rank2] received SIGTERM, will checkpoint and exit at the end of this step",
     "node0/1/3: Connection closed by peer, ~3 s later"])
lab("015_inf_weight_nan", "nan_inf_loss", 2, None, "sbatch + srun --label, 4 tasks, TORCH_CPP_LOG_LEVEL=INFO",
    "One sample in shard train-00002 has quality weight +inf; rank 2 draws it at step 95 and the weighted loss is NaN; "
    "the trainer's finite-loss check raises on rank 2 before backward; the others lose the peer in all_reduce. "
    "Paste: last 250 lines of slurm-<id>.out (c10d INFO noise included).",
    ["2: [rank2]: FloatingPointError: non-finite loss nan at step 95 (epoch 0); batch weight sum inf, min 0.8281, max inf",
     "0,1,3: Connection closed by peer"])
lab("016_lr_divergence", "loss_spike_divergence", None, None, "torchrun --nproc-per-node 4",
    "Launch passes --set optim.lr=1.0 with a 1500-step warmup: the loss falls from 6.2 to ~0.55 while the LR is small, "
    "then climbs past 2 as the LR passes ~0.3. The divergence guard (averaged loss, identical on all ranks) raises on "
    "all 4 ranks at step 505. No single initiating rank. Paste: whole console.",
    ["step lines: loss ~0.5 around steps 150-450, then 1.2 -> 1.8 -> 2.0 with lr 3.1e-1..3.4e-1",
     "all ranks: RuntimeError: training diverged: loss 2.0043 at step 505 is above 3x the best 0.5549 for 3 consecutive logs"])
lab("017_stale_ckpt_cache", "checkpoint_load_mismatch", 2, None,
    "four torchrun agents, c10d rendezvous (--nnodes 4, 1 proc each)",
    "Resume job. Checkpoints are copied to a node-local cache; node c's cache still holds a 3-layer model.pt from an "
    "older experiment at the same <run>/step_000040 path. Rendezvous put node c at rank 2, which loads the stale "
    "state dict; ranks 0,1,3 resume and lose it in the first all_reduce. Paste: logs/node-{a,b,c,d}.log.",
    ["node-c.log: INFO [rank2] using node-local cached checkpoint .../cache_c/...",
     "[rank2]: RuntimeError: Error(s) in loading state_dict for TinyLM: Unexpected key(s) in state_dict: \"blocks.layers.2....\"",
     "others: 'cached checkpoint to ...' then Connection closed by peer"])
lab("018_torn_rank_state", "checkpoint_corrupt", 1, None, "torchrun --nproc-per-node 4",
    "The previous job was killed while rank 1 wrote its step-40 rank-state file (file kept 40% of its bytes). The "
    "resume loads model.pt fine on every rank, then rank 1's rank001.pt fails. Paste: last 150 lines of the console "
    "(176 lines total).",
    ["[rank1]: RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory ... checkpoint file is corrupted",
     "others: Connection closed by peer"])
lab("019_detail_mismatch_aux_head", "collective_mismatch", 3, None,
    "torchrun --nproc-per-node 4, TORCH_DISTRIBUTED_DEBUG=DETAIL, hydra log format (no rank in lines)",
    "Manual gradient averaging (no DDP) over params with a grad; an auxiliary boundary head only gets a grad on "
    "batches with EOS. Shard train-00003 has no EOS, so rank 3 skips two all_reduces and its collective sequence "
    "diverges on step 1. Paste: whole console.",
    ["all ranks: Detected mismatch between collectives on ranks ... Rank 3 is running collective: CollectiveFingerPrint(SequenceNumber=60, OpType=ALLREDUCE, TensorShape=[512, 64] ...) while ranks 0-2 run TensorShape=[1, 64]"])
lab("020_ddp_unused_aux_head", "collective_mismatch", 1, "python_exception_other",
    "two torchrun agents (--nnodes 2 x 2 procs, static rendezvous)",
    "Same aux head under DDP(find_unused_parameters=False); shard train-00001 has no EOS, so on rank 1 the aux head "
    "takes no part in the loss and its DDP bucket is never reduced (the ranks' code paths differ). Rank 1 raises at "
    "its next forward; ranks 0,2,3 lose it. Paste: node0.log + node1.log.",
    ["node0.log [rank1]: RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one ... Parameter indices which did not receive grad for rank 1: 29 30",
     "ranks 0,2,3: Connection closed by peer"])
lab("021_time_limit", "slurm_time_limit", None, None, "sbatch --time=00:01:00 + srun --label, 4 tasks",
    "A 5000-step run submitted with a 1-minute limit; Slurm cancels it (SIGTERM to all tasks, SIGKILL after 5 s). "
    "The trainer's SIGTERM handler races with its DataLoader workers being killed (logging errors, worker-killed "
    "tracebacks). Paste: slurm-<id>.out.",
    ["slurmstepd-vm: error: *** JOB 10 ON vm CANCELLED AT 2026-12-06T03:05:06 DUE TO TIME LIMIT ***",
     "all ranks: received SIGTERM / emergency checkpoint / DataLoader worker killed by signal: Terminated"])
lab("022_hub_dns_node1", "hub_network_error", 2, None, "two torchrun agents (--nnodes 2 x 2 procs)",
    "Tokenizer fetched from the hub by local rank 0 of each node, then a barrier. Node 0's cache has it; node 1 "
    "(ranks 2,3) has HF_ENDPOINT set to an internal mirror name that does not resolve: rank 2 retries 3x and raises. "
    "Paste: node0.log + node1.log.",
    ["node1.log WARNING [rank2] download of http://hf-mirror.corp.internal/... failed: <urlopen error [Errno -2] Name or service not known>",
     "[rank2]: urllib.error.URLError: <urlopen error [Errno -2] Name or service not known>",
     "ranks 0,1,3: Connection closed by peer in the barrier"])
lab("023_stale_extension_node1", "dependency_abi_mismatch", 1, None,
    "four torchrun agents (--nnodes 4, 1 proc each, static rendezvous)",
    "model.fused_ops imports compiled extension tinylm_fused from the node's site dir; node 1's copy was built "
    "against another torch (references c10::cuda::getCurrentCUDAStream) -> ImportError before init_process_group. "
    "Ranks 0,2,3 wait in the store and time out after 30 s. Paste: logs/node0..3.log.",
    ["node1.log: ImportError: .../node1_site/tinylm_fused.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda20getCurrentCUDAStreamEa (no [rank1]: prefix; only the INFO line and the torchrun summary name rank 1)",
     "nodes 0,2,3: torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/1"])
lab("026_eval_shards_zero_div", "python_exception_other", 3, "tokenizer_or_data_error",
    "in-house launcher with torch.multiprocessing.spawn (4 procs)",
    "Validation set re-exported with 3 shards for a 4-rank job: rank 3 gets no eval shards; eval.log_local divides by "
    "its 0 local tokens before the all_reduce -> ZeroDivisionError at the step-30 eval. Paste: launcher console.",
    ["INFO [rank3] data: 0 shard(s) from .../val -> 0 samples",
     "-- Process 3 terminated with the following error: ... local_loss = tot[0].item() / tot[1].item() ... ZeroDivisionError: float division by zero",
     "spawn terminates processes of ranks 0-2 (SIGTERM)"])
lab("027_seqlen128_shard", "tokenizer_or_data_error", 2, "shape_mismatch",
    "sbatch + srun without --label, 4 tasks, 'bracket' log format",
    "Shard train-00002 was tokenized with seq_len=128 while the model has 64 learned positions; rank 2's first "
    "batch indexes past the position embedding. Paste: slurm-<id>.out.",
    ["[rank2]: h = self.tok(x) + self.pos(pos)[None] ... IndexError: index out of range in self",
     "others: Connection closed by peer; srun: error: task 2 exited first"])
lab("028_scratch_readonly_r2", "checkpoint_permission_denied", 2, None,
    "custom bash launcher, per-process stdout+stderr files",
    "Node 2's local scratch is read-only (bind-mounted ro in a private mount namespace, as after an ext4 error "
    "remount); at the step-25 checkpoint rank 2 cannot create its staging dir; ranks 0,1,3 lose it in the barrier. "
    "Paste: out/rank0..3.out.",
    ["rank2.out [rank2]: OSError: [Errno 30] Read-only file system: '.../node2/tinylm-ablation/step_000025'",
     "others: Connection closed by peer in barrier"])
lab("029_healthy_metrics_down", "healthy", None, None, "torchrun --nproc-per-node 4",
    "HEALTHY: metrics gateway down the whole run; 48 'metrics upload failed' warnings with full ConnectionRefused "
    "tracebacks and 'dropping N metric record(s)' errors; training completes 100/100 steps on all ranks.",
    ["'training complete: 100 steps' on all 4 ranks", "no launcher failure"])
lab("030_healthy_autobatch", "healthy", None, None, "sbatch + srun --label, 4 tasks, ulimit -v 2.2 GB",
    "HEALTHY: batch-size probe catches DefaultCPUAllocator failures at 16384 and 2048 (logged with traceback), 64 "
    "fits, training completes 80/80 steps.",
    ["autobatch: batch size 16384 does not fit, halving ... can't allocate memory", "training complete: 80 steps on all ranks"])
lab("031_healthy_late_node_resume", "healthy", None, None, "two torchrun agents (--nnodes 2 x 2), TORCH_CPP_LOG_LEVEL=INFO",
    "HEALTHY: resume from step 40; node 1 started 10 s early; its hub mirror refuses the first tokenizer download "
    "(warning), the retry succeeds; training completes at step 120.",
    ["WARNING [rank2] download ... failed: Connection refused; retrying", "training complete: 120 steps on all ranks"])
lab("032_healthy_skip_bad_records", "healthy", None, None,
    "torchrun --nproc-per-node 4 --log-dir --redirects 3 --tee 3, TORCH_DISTRIBUTED_DEBUG=INFO",
    "HEALTHY: one truncated jsonl line in rank 1's shard; skip_bad_samples logs a warning with the JSONDecodeError "
    "traceback 5 times (once per epoch); training completes 80/80. Paste: console + the log dir.",
    ["[rank1] skipping unreadable sample 42 of JsonlShards + JSONDecodeError traceback", "training complete: 80 steps on all ranks"])

with open("/work/blind/r25/labels.jsonl", "w") as f:
    for x in L:
        f.write(json.dumps(x) + "\n")
print(len(L), "labels")
