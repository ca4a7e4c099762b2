import json
R = "/work/blind/r6/runs/"
L = []
def add(run, inputs, cls, rank, launcher, how, evidence):
    L.append(dict(run=run, inputs=[R + run + "/" + i for i in inputs], **{"class": cls}, initiating_rank=rank,
                  launcher=launcher, how=how, evidence=evidence))

add("001_fifo_stuck_rank", ["console.log", "torchrun_logs"], "nccl_timeout", 1,
    "torchrun --nproc-per-node 3 --log-dir --tee 3",
    "Rank 1 opens a FIFO for its shuffle seed at step 12 and blocks in open() (no writer ever). Ranks 0 and 2 wait for it in the DDP gradient all_reduce and die with gloo 25 s timeouts; torchrun then SIGTERMs rank 1. Rank 1 is the rank that stopped; the launcher's 'Root Cause' names rank 0, which only timed out.",
    "[default1] ... refreshing shuffle seed from data service (last line of rank 1); [rank0]/[rank2] RuntimeError: ... Timed out waiting 25000ms for recv/send operation to complete; rank 1 exitcode -15 (SIGTERM)")
add("002_oom_killed_console_only", ["console.log"], "host_oom_killed", 2,
    "torchrun --nproc-per-node 4 (console only, no per-rank logs), job inside a 2.2 GB memory cgroup",
    "Every rank keeps un-detached activations (leak); rank 2's shard has 8x longer sequences and grows fastest. The kernel memcg OOM killer really killed rank 2 (dmesg: 'Memory cgroup out of memory: Killed process 4322'). Rank 2 printed nothing; only torchrun reports exitcode -9 (SIGKILL). Ranks 1,3 then see Connection closed by peer.",
    "failed (exitcode: -9) local_rank: 2 (pid: 4322); Root Cause rank 2 exitcode -9 (SIGKILL) 'Signal 9 (SIGKILL) received by PID 4322'; loaded shard 2/4 ... max_seq_len=2048")
add("003_dataloader_sigbus", ["train.log"], "dataloader_worker_killed", 1,
    "python script with torch.multiprocessing.spawn (3 procs), DataLoader num_workers=2, loguru-style format",
    "Each rank's DataLoader workers read their shard through np.memmap. 28 s in, a concurrent preprocessing job truncates shard_1.bin in place, so rank 1's workers touch pages past EOF and get a real SIGBUS. Rank 1's main raises 'DataLoader worker (pid 8066) is killed by signal: Bus error'; mp.spawn reports Process 1 and terminates the others.",
    "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm). (unprefixed x2); -- Process 1 terminated with the following error: ... RuntimeError: DataLoader worker (pid 8066) is killed by signal: Bus error")
add("004_uneven_early_exit", ["node0.log", "node1.log"], "nccl_remote_peer_exited", 3,
    "two torchrun agents, --nnodes 2 --node-rank 0/1, c10d rendezvous, 2 ranks each",
    "Uneven manual sharding: rank 3 gets 11 shards (44 steps) vs 16 for the others. Rank 3 finishes its loop, logs 'epoch finished after 44 steps' and exits 0 (no barrier/join). Ranks 0,1,2 block in the next all_reduce and get 'Connection closed by peer'. Rank 3 is the initiator though it exited 0; node1's torchrun summary names rank 2 as root cause and rank 3 is not even listed.",
    "[vm:3] 14:50:56 epoch finished after 44 steps, saving nothing (eval disabled); [rank0/1/2]: RuntimeError: ... pair.cc:553] Connection closed by peer")
add("005_allreduce_shape_mismatch", ["srun.log"], "collective_mismatch", 1,
    "srun -n 3 --label (direct, console captured)",
    "Task 1 read a stale fine-tune config (freeze_embeddings=True), so its flattened gradient has 69160 elements vs 133160 on the others; the manual flat all_reduce has different sizes across ranks. Gloo aborts task 1 (enforce fail ... Is there a distributed collective mismatch), the others see connection reset/closed.",
    "1: fine-tune config: {\"freeze_embeddings\": true ...}; 1: trainable params: 69160; 1: terminate called after throwing an instance of 'gloo::EnforceNotMet' ... op.preamble.length <= op.nbytes. 88776 vs 46108 ... collective mismatch; srun: error: vm: task 1: Aborted")
add("006_prefetch_thread_exception", ["console.log", "logs"], "tokenizer_or_data_error", 2,
    "torchrun --nproc-per-node 3 --redirects 3 --log-dir (no tee: console has only the launcher)",
    "Each rank parses jsonl records in a background prefetch thread. Rank 2's shard has a torn record at line 162; json.loads raises in thread 'prefetch-0' (printed by threading excepthook, no rank prefix, only in attempt_0/2/stderr.log). Rank 2's main thread blocks forever on queue.get(); ranks 0,1 time out (25 s) in all_reduce; torchrun SIGTERMs rank 2.",
    "attempt_0/2/stderr.log: Exception in thread prefetch-0: ... json.decoder.JSONDecodeError: Expecting value: line 1 column 58 (char 57); ranks 0/1: Timed out waiting 25000ms for send/recv operation")
add("007_async_ckpt_file_too_large", ["job.log"], "checkpoint_disk_full", 2,
    "python -m torch.distributed.run --nproc-per-node 4 under `ulimit -f 4096` (file-size limit standing in for a full/over-quota volume)",
    "Each rank saves its shard through an async writer thread. Rank 2 owns the 12000x96 embedding shard; its save exceeds the 4 MB file-size limit (EFBIG; the .tmp stopped at exactly 4194304 bytes). torch.save surfaces it as 'basic_ios::clear: iostream error' / 'unexpected pos' in thread ckpt-writer, printed without rank prefix. At the next checkpoint rank 2 blocks in q.join(); ranks 0,1,3 time out / lose peers in all_reduce.",
    "Exception in thread ckpt-writer: ... zip_file.write_record ... RuntimeError: basic_ios::clear: iostream error ... RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 832 vs 726 (interleaved, unprefixed; rank 2 is the only rank without a 'wrote ...rank2.pt' line); others: Timed out waiting 25000ms / Connection closed by peer")
add("008_srun_kill_on_bad_exit_shape", ["slurm-6.out", "task0.out", "task1.out", "task2.out", "task3.out"], "shape_mismatch", 2,
    "sbatch -n 4 + srun --kill-on-bad-exit=1 -o task%t.out",
    "Model code reshapes with the configured batch size (x.view(32, -1)). Rank 2's shard has 1000 samples, so its last batch of epoch 0 has 8 samples -> view gives 32x40 and the Linear(160,...) fails. srun kills the other tasks (kill-on-bad-exit), which also print Connection closed by peer tracebacks first.",
    "task2.out: [rank2]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x40 and 160x128); slurm-6.out: srun: error: vm: task 2: Exited with exit code 1 / tasks 0-1,3: Terminated; STEP 6.0 CANCELLED")
add("009_slurm_time_limit", ["slurm-7.out"], "slurm_time_limit", None,
    "sbatch --time=1 + srun --label, 2 tasks",
    "Healthy training that needs ~5 min (eta printed) under a 1-minute time limit; Slurm cancels the job (JobState=TIMEOUT). Job-wide, no rank at fault.",
    "slurmstepd-vm: error: *** JOB 7 ON vm CANCELLED AT 2026-12-03T14:54:29 DUE TO TIME LIMIT ***; srun: error: vm: tasks 0-1: Terminated")
add("010_scary_warnings_then_dtype", ["console.log"], "dtype_mismatch", 2,
    "torchrun --nproc-per-node 4 --log-dir --tee 3",
    "Ranks 0,1,3 log alarming but harmless things first (ERROR failed to push metrics ... Connection refused retrying; RuntimeWarning overflow in exp / [inf]; missing keys strict=False; lr_scheduler warning). Rank 2's second half of its feature shard is float64 (written by an older preprocessor); at step 32 it feeds a float64 batch to the float32 model.",
    "[default2]:[rank2]: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float; ranks 1,3 Connection closed by peer; Root Cause rank 2")
add("011_nan_grad_norm", ["logs", "slurm-9.out"], "nan_inf_loss", 1,
    "sbatch + plain srun (no --label), app writes logs/rank{N}.log",
    "Rank 1 gets a corrupted (unnormalised, 1e4) feature row at step 41; softmax saturates, p[target]=0, loss=inf on rank 1 only. After the gradient all_reduce all ranks hold non-finite grads and clip_grad_norm_(error_if_nonfinite=True) raises on all three ranks simultaneously. Only rank1.log shows 'step=41 loss=inf' (others log finite step 41 losses).",
    "rank1.log: step=41 loss=inf; all ranks: RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped")
add("012_torn_ckpt_resume", ["console.log"], "checkpoint_corrupt", 1,
    "torchrun --nproc-per-node 3 --log-dir --tee 3 --local-ranks-filter 0 (console shows only rank 0 output), @record",
    "Resume from step_500 where each rank loads its own shard; rank 1's file was truncated to 60% (torn write of a preempted job). Rank 1's torch.load fails; its traceback is visible only in the launcher's error-file summary; rank 0 (the only visible rank) shows Connection closed by peer in the barrier.",
    "Root Cause rank 1 ... RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory ... checkpoint file is corrupted; [rank0] barrier Connection closed by peer")
add("013_emfile_handle_cache", ["logs", "sbatch-10.out"], "too_many_open_files", 1,
    "sbatch (ulimit -n 256) + srun -o %x-%j-%t.out -e %x-%j-%t.err, 4 tasks",
    "Dataset caches every file handle forever. Ranks 0,2,3 read 48 merged shards; rank 1's slice points to a 600-file crawl dump, so after ~240 files it hits RLIMIT_NOFILE. Others get Connection closed by peer. srun's summary lists all four tasks as exit code 1.",
    "emb-train-10-1.err: OSError: [Errno 24] Too many open files: '.../crawl_dump/doc-000245.bin'; emb-train-10-1.out: open_handles=176 at step 10")
add("014_port_in_use", ["srun.log"], "port_in_use", 0,
    "srun -n 3 --label, env:// rendezvous on MASTER_PORT 29714",
    "A store server left by an earlier job still listens on 29714. Rank 0 (which must host the TCPStore) fails to bind: EADDRINUSE. Ranks 1-2 connect to the stale server and wait until DistStoreError wait timeout 25 s later.",
    "0: torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29714 ... EADDRINUSE; 1:/2: DistStoreError: wait timeout after 25000ms, keys: /default_pg/0//cpu//0/0")
add("015_rendezvous_timeout", ["node0.log", "node1.log"], "rendezvous_failure", None,
    "two torchrun agents (--nnodes 2, c10d rdzv, LOGLEVEL=INFO), join_timeout=35",
    "Node 1's launch line carried a stale rendezvous id (ft-run-20261202-b vs ft-run-20261203-a), so the two agents never met; node 0's agent times out (RendezvousTimeoutError) and shuts the store down, node 1 then loses the store (Connection was likely closed ... RendezvousConnectionError). No worker ever started: job-wide.",
    "node0.log: torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError; node1.log: RendezvousConnectionError: The connection to the C10d store has failed; run_id differs in the two launch-config dumps")
add("016_hub_download_rank0", ["console.log"], "hub_network_error", 0,
    "torchrun --nproc-per-node 4 --tee 3 (console), loguru-like format",
    "Rank 0 downloads the tokenizer vocab from huggingface.co while ranks 1-3 wait in dist.barrier(). DNS fails (no route), rank 0 retries 3 times with backoff then raises URLError; the others' barrier gets Connection closed by peer.",
    "[default0] WARNING download of https://huggingface.co/... failed ([Errno -2] Name or service not known), retry 1/3..3/3; [rank0]: urllib.error.URLError: <urlopen error [Errno -2] Name or service not known>")
add("017_healthy_retries", ["console.log", "torchrun_logs"], "healthy", None,
    "torchrun --nproc-per-node 3 --log-dir --tee 3",
    "Healthy, exit 0. Rank 1's remote read fails twice (BrokenPipe) and succeeds on attempt 3; rank 2 logs a UnicodeDecodeError with full traceback and skips the sample; rank 0's checkpoint save fails with a traceback (parent dir missing) and succeeds right after; torch UserWarnings. All ranks log 'training finished'.",
    "read ... succeeded on attempt 3; ERROR failed to decode caption ... skipping it + traceback; ERROR checkpoint save failed ... RuntimeError: Parent directory ... does not exist. then checkpoint saved; training finished: 60 steps")
add("018_healthy_loss_spike", ["slurm-13.out"], "healthy", None,
    "sbatch + srun --label, 3 tasks, tqdm-like \\r bar on rank 0 stderr",
    "Healthy, exit 0. Manual dynamic loss scaling: 4 'Gradient overflow. Skipping step' at warm-up and 3 more during a bad-data burst (steps 140-145) that spikes loss from ~0.05 to ~300; loss recovers to ~0.08 by step 420; 'Training complete'.",
    "Gradient overflow. Skipping step, loss scale reduced to ...; step 143 rank 0 loss 295.5551 ... step 420 rank 0 loss 0.0805; Training complete. final loss 0.081; done rc=0")

import os
for l in L:
    for p in l["inputs"]: assert os.path.exists(p), p
with open("/work/blind/r6/labels.jsonl", "w") as f:
    for l in L: f.write(json.dumps(l) + "\n")
print(len(L))
