import json
L = []
def add(run, cls, rank, launcher, how, evidence, alt=None, inputs=(".",)):
    d = {"run": run, "inputs": list(inputs), "class": cls, "initiating_rank": rank, "launcher": launcher,
         "how": how + (f" Acceptable alternative class: {alt}." if alt else " No alternative class."), "evidence": evidence}
    if alt: d["alt_class"] = alt
    L.append(d)

add("001_torchrun_gloo_hang", "nccl_timeout", 2, "torchrun --nproc-per-node 4, plain console",
    "Rank 2's chunk_001.npy is a FIFO with no writer: np.load/open() blocks forever (silent hang, no traceback). Ranks 0,1,3 time out (15 s gloo timeout) in the DDP allreduce; torchrun then SIGTERMs rank 2 and names rank 1 as 'first observed failure'. Started by rank 2 hanging.",
    ["rank 2 never logs 'loaded chunk_001.npy' (ranks 0,1,3 do)", "[rank0/1/3]: RuntimeError: ... unbound_buffer.cc ... Timed out waiting 15000ms for recv/send operation to complete", "rank 2: exitcode -15 (SIGTERM) from torchrun; no traceback for rank 2", "torchrun Root Cause: rank 1 (misleading)"],
    alt="job_hang_no_progress")
add("002_srun_host_oom_r1", "host_oom_killed", 1, "srun -l -n 4 --kill-on-bad-exit=1",
    "Unbounded embedding bank leak on all ranks; rank 1 runs in a 700 MB memory cgroup (v1), so the kernel memcg OOM killer SIGKILLs rank 1 (confirmed in dmesg, not included in the run). Others then get Connection reset/closed by peer and are Terminated by srun.",
    ["srun: error: vm: task 1: Killed", "[rank0]: ... Read error ... Connection reset by peer", "slurmstepd-vm: error: *** STEP 3.0 ON vm CANCELLED AT ...", "srun: error: vm: tasks 0,2-3: Terminated"])
add("003_torchrun_tee_host_oom_r3", "host_oom_killed", 3, "torchrun --nproc-per-node 4 --tee 3 --log-dir logs (+ dmesg_oom.txt excerpt)",
    "Whole job in a 2.5 GB memcg; rank 3's record file has a corrupt length header (2^31 floats) so its main process allocates ~8 GB and is killed by the kernel memcg OOM killer. torchrun reports rank 3 exitcode -9 (SIGKILL) as root cause; dmesg excerpt saved as dmesg_oom.txt.",
    ["Root Cause ... rank : 3 ... exitcode : -9 (pid: 14050) (SIGKILL)", "dmesg: Memory cgroup out of memory: Killed process 14050 (python3) ... anon-rss:1747904kB", "rank 3 logs stop at step 20"])
add("004_mpspawn_segfault_r1", "cuda_illegal_memory_access", 1, "torch.multiprocessing.spawn nprocs=3, console",
    "CPU-only: a ctypes C gather kernel without bounds checks is given a stale permutation file (indices up to 5e7) on rank 1 -> out-of-bounds read -> SIGSEGV in native code (faulthandler prints 'Fatal Python error: Segmentation fault'). The taxonomy has no CPU native-crash class; labelled as the illegal-memory-access (kernel/indexing bug) class.",
    ["Fatal Python error: Segmentation fault ... File train.py line 245 in native_gather", "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGSEGV"],
    alt="python_exception_other")
add("005_sbatch_step_timer_r2", "python_exception_other", 2, "sbatch (set -x) -> srun -n 4, no -l, no --kill-on-bad-exit; slurm-<jobid>.out",
    "Step-timer profiling enabled only on rank 2 has a bug: elapsed_ms() before begin() -> TypeError on rank 2; the others fail in the next DDP allreduce with Connection closed by peer.",
    ["[rank2]: TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'", "[rank0/1/3]: RuntimeError: ... pair.cc:553 Connection closed by peer", "srun: error: vm: task 2: Exited with exit code 1"])
add("006_torchrun_redirect_shape_r1", "shape_mismatch", 1, "torchrun --nproc-per-node 4 --redirects 3 --log-dir logs (console has only torchrun output; per-rank stdout/stderr files)",
    "Rank 1's data shard comes from a newer preprocessing (33 features vs 32): first Linear fails on rank 1; others Connection closed by peer.",
    ["logs/.../1/stderr.log: [rank1]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x33 and 32x128)", "console: failed (exitcode: 1) local_rank: 1"],
    alt="tokenizer_or_data_error")
add("007_srun_dtype_r0", "dtype_mismatch", 0, "srun -n 3 (no -l), console",
    "Only rank 0 evaluates; the validation file is float64 -> model(vx) fails with a dtype mismatch on rank 0 at step 20; ranks 1,2 lose their peer.",
    ["[rank0]: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float", "srun: error: vm: task 0: Exited with exit code 1"])
add("008_torchrun_debug_collective_mismatch_r3", "collective_mismatch", 3, "torchrun --nproc-per-node 4 --tee 3 --log-dir logs, TORCH_DISTRIBUTED_DEBUG=DETAIL (manual grad allreduce, no DDP)",
    "bincount-based per-class counts are all-reduced every 10 steps; rank 3's chunk lacks class 9 so it all-reduces a [9] tensor while the others use [10]; DETAIL mode reports the mismatch on all ranks.",
    ["Rank 3 is running collective: CollectiveFingerPrint(SequenceNumber=73, OpType=ALLREDUCE, TensorShape=[9] ...", "but Rank 3 is running collective: ... TensorShape=[9] (in ranks 0-2's errors)"])
add("009_bashloop_uneven_data_r1", "nccl_timeout", 1, "plain bash loop (RANK=$r python train.py & ... wait), interleaved console",
    "Uneven shards: rank 1 has 2 chunks, the others 3. Rank 1 finishes after 20 steps and enters the final dist.barrier() while the others are in DDP allreduce for step 20: all four time out (20 s). Started by rank 1 running out of data early. Ranks called different collectives (barrier vs allreduce), so collective_mismatch is an acceptable alternative.",
    ["[rank1] training finished after 20 steps (others: loaded chunk_002.npy)", "[rank1]: dist.barrier() ... Timed out waiting 20000ms for recv operation to complete", "[rank0/2/3]: loss.backward() ... Timed out waiting 20000ms"],
    alt="collective_mismatch")
add("010_torchrun_nan_loss_r2", "nan_inf_loss", 2, "torchrun --nproc-per-node 4, plain console",
    "One sample with features ~1.7e38 in rank 2's chunk_001 -> overflow -> loss nan on rank 2 at step 13 (others finite); NaN grads are all-reduced, every rank is nan from step 14; trainer raises FloatingPointError after 3 non-finite steps.",
    ["WARNING [rank2] train: non-finite loss nan at step 13 (ranks 0,1,3 finite at step 13)", "all ranks: non-finite loss nan at step 14", "[rank2]: FloatingPointError: loss is nan for 3 consecutive steps (step 15)"])
add("011_srun_missing_shard_r3", "tokenizer_or_data_error", 3, "srun -l -n 4 --kill-on-bad-exit=1",
    "Rank 3's chunk_001.npy listed in the manifest is missing -> FileNotFoundError on rank 3 at step 10; others Connection closed by peer and are Terminated by srun.",
    ["3: [rank3]: FileNotFoundError: [Errno 2] No such file or directory: '.../rank3/chunk_001.npy'", "srun: error: vm: task 3: Exited with exit code 1", "srun: error: vm: tasks 0-2: Terminated"])
add("012_srun_collective_size_mismatch_r3", "collective_mismatch", 3, "srun -l -n 4 (no --kill-on-bad-exit), DDP, no TORCH_DISTRIBUTED_DEBUG",
    "Same bincount bug as 008 without debug mode: rank 3 all-reduces [9] vs [10]; gloo enforce fails in rank 3 (terminate -> SIGABRT) and the others lose their peer.",
    ["3: terminate called after throwing an instance of 'gloo::EnforceNotMet' ... op.preamble.length <= op.nbytes. 16 vs 8 ... Is there a distributed collective mismatch in your code?", "srun: error: vm: task 3: Aborted"])
add("013_mpspawn_ckpt_disk_full_r0", "checkpoint_disk_full", 0, "torch.multiprocessing.spawn nprocs=2, console",
    "Rank 0 saves ~0.6 MB checkpoints every 10 steps to a 2 MB tmpfs and keeps them all; the 4th save (step 40) hits ENOSPC. torch.save reports it only as an iostream error / unexpected pos (no 'No space left' text). Alternative storage_io_error because the log never says 'space'.",
    ["saved checkpoint .../ckpt_step00030.pt", "RuntimeError: basic_ios::clear: iostream error (zip_file.write_record)", "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 35904 vs 35792", "ProcessRaisedException: -- Process 0 terminated with the following error"],
    alt="storage_io_error")
add("014_srun_ckpt_readonly_r0", "checkpoint_permission_denied", 0, "srun -l -n 2",
    "Checkpoint directory is on a read-only mount; rank 0's first save at step 10 fails with EROFS; rank 1 loses its peer.",
    ["0: [rank0]: RuntimeError: [enforce fail at inline_container.cc:747] . open file failed with strerror: Read-only file system", "srun: error: vm: task 0: Exited with exit code 1"])
add("015_torchrun_resume_shape_mismatch_r0", "checkpoint_load_mismatch", 0, "torchrun --nproc-per-node 4, plain console",
    "Rank 0 resumes from a checkpoint written with hidden=256 into a hidden=128 model -> load_state_dict size mismatch; others were waiting for DDP's broadcast and get SIGTERMed by torchrun.",
    ["[rank0]: RuntimeError: Error(s) in loading state_dict for Net: size mismatch for fc1.weight ...", "failed (exitcode: 1) local_rank: 0"])
add("016_torchrun_rdzv_node_missing", None, None, "", "", [])
L.pop()
add("016_torchrun_rdzv_node_missing", "rendezvous_failure", None, "torchrun --nnodes 2 --rdzv-backend c10d (only one node started), console",
    "Second node's agent never started; c10d rendezvous join_timeout=20 s expires on node 0; no worker ran. Job-level cause, no rank.",
    ["torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError", "no worker output at all"])
add("017_torchrun_port_in_use", "port_in_use", None, "torchrun --nnodes 1 --master-port 21117 (static rdzv), console",
    "A leftover process (python http.server) holds the master port; torchrun's agent cannot create its TCPStore. No worker ran; no rank.",
    ["torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 21117, useIpv6: false, code: -98, name: EADDRINUSE"])
add("018_sbatch_time_limit", "slurm_time_limit", None, "sbatch --time=1 -> srun -l -n 2; slurm-<jobid>.out",
    "Job needs several minutes but was submitted with a 1-minute limit; Slurm cancels it. Job-wide, no rank.",
    ["slurmstepd-vm: error: *** JOB 9 ON vm CANCELLED AT ... DUE TO TIME LIMIT ***", "srun: error: vm: tasks 0-1: Terminated"])
add("019_sbatch_srun_torchrun_sigterm", "preemption_sigterm", None, "sbatch -> srun (1 task) -> torchrun --nproc-per-node 4; slurm-<jobid>.out",
    "After ~40 steps I ran `scancel --signal=TERM <job>` (preemption-like stop request). torchrun got SIGTERM and shut the workers down. Job-wide, no rank.",
    ["slurmstepd-vm: error: *** STEP 10.0 ON vm CANCELLED AT ...", "Received 15 death signal, shutting down workers", "torch.distributed.elastic.multiprocessing.api.SignalException: Process 19915 got signal: 15"])
add("020_bashloop_ext_undefined_symbol_r2", "dependency_abi_mismatch", 2, "plain bash loop with per-rank log files logs/rankN.log + launcher console",
    "Each rank imports a compiled extension from its own build cache; rank 2's is a stale build referencing a c10 symbol absent from torch 2.13 -> ImportError undefined symbol on rank 2 before init_process_group; ranks 0,1,3 time out in init ('3/4 clients joined').",
    ["logs/rank2.log: ImportError: .../rank2/fused_ops/fused_ops.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs", "logs/rank0.log: DistStoreError: Timed out after 21 seconds waiting for clients. 3/4 clients joined."])
add("021_torchrun_emfile_r1", "too_many_open_files", 1, "torchrun --nproc-per-node 4 under ulimit -n 256, plain console",
    "Per-sample-file dataset leaks file handles; rank 1's shard has 640 files (others 192) -> EMFILE on rank 1 in its first epoch; others lose their peer.",
    ["[rank1]: OSError: [Errno 24] Too many open files", "failed (exitcode: 1) local_rank: 1"])
add("022_torchrun_dataloader_worker_oom_r0", "dataloader_worker_killed", 0, "torchrun --nproc-per-node 4, DataLoader num_workers=2, plain console",
    "Job in a 3 GB memcg; rank 0's record file has a corrupt length header so one of rank 0's DataLoader workers allocates ~4 GB and is OOM-killed by the kernel (dmesg: Killed process (pt_data_worker)). Rank 0's main process raises; others lose their peer. Alternative host_oom_killed (the kill was an OOM kill).",
    ["[rank0]: RuntimeError: DataLoader worker (pid 21058) is killed by signal: Killed.", "[rank0]: RuntimeError: DataLoader worker (pid(s) 21058) exited unexpectedly"],
    alt="host_oom_killed")
add("023_torchrun_prefetch_thread_r3", "tokenizer_or_data_error", 3, "torchrun --nproc-per-node 4 --log-dir logs (no tee/redirect: no files written), plain console",
    "Rank 3's chunk_001.bin is truncated; the background prefetch thread raises in .view(-1, 33) and dies (threading excepthook output has no rank prefix); rank 3's main loop blocks on queue.get forever; ranks 0-2 time out (15 s) in DDP allreduce; torchrun SIGTERMs rank 3. Alternative python_exception_other (uncaught exception in a thread).",
    ["Exception in thread prefetch: ... RuntimeError: shape '[-1, 33]' is invalid for input of size 10000", "rank 3's step logs stop at step 5", "[rank0/1/2]: ... Timed out waiting 15000ms"],
    alt="python_exception_other")
add("024_srun_rank_never_joins_r3", "rendezvous_failure", 3, "srun -n 4 -W 15 (no -l), console",
    "Rank 3 waits for a dataset-staging marker that never appears and never calls init_process_group; ranks 0-2 time out forming the group (store wait 20 s, '3/4 clients joined'); srun kills rank 3 15 s after the first exit. Alternative nccl_timeout (store timeouts).",
    ["INFO [rank3] train: waiting for dataset staging to finish (...)", "torch.distributed.DistStoreError: Timed out after 21 seconds waiting for clients. 3/4 clients joined.", "srun: error: vm: task 3: Killed"],
    alt="nccl_timeout")
add("025_sbatch_ckpt_truncated_r0", "checkpoint_corrupt", 0, "sbatch -> srun -l --kill-on-bad-exit=1 -n 3; slurm-<jobid>.out",
    "The newest checkpoint is a torn (truncated) zip; rank 0 torch.load fails; others Terminated by srun.",
    ["0: [rank0]: RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory ...", "srun: error: vm: task 0: Exited with exit code 1"])
add("026_torchrun_healthy_noisy", "healthy", None, "torchrun --nproc-per-node 2, TORCH_CPP_LOG_LEVEL=INFO, plain console",
    "Healthy: resumes from a compatible checkpoint, metrics push to a dead endpoint logs 3 ConnectionRefusedError tracebacks (caught) then gives up; c10d INFO lines incl. 'uv_loop_close failed ... EBUSY'. Exit 0.",
    ["ERROR [rank0] train: metrics push failed (attempt 1/3), will retry + traceback", "training finished after 60 steps (both ranks)", "rc=0"])
add("027_srun_healthy_skip_bad_records", "healthy", None, "srun -l -n 3 --kill-on-bad-exit=1, TORCH_DISTRIBUTED_DEBUG=INFO",
    "Healthy: ranks 1 and 2 hit short records; the dataset logs a WARNING with a ValueError traceback from inside the DataLoader worker and substitutes the next record. All ranks finish 60 steps, exit 0.",
    ["1: WARNING [rank1] data: skipping corrupt record 500 ... ValueError: record 500: expected 33 values, got 31", "training finished after 60 steps (all ranks)"])
add("028_mpspawn_healthy_ckpt_fallback", "healthy", None, "torch.multiprocessing.spawn nprocs=2, console",
    "Healthy: primary checkpoint dir is read-only; each save logs 'ERROR ... failed; falling back' with a Read-only file system traceback and then succeeds in the fallback dir. Exit 0.",
    ["[rank0] ERROR: checkpoint save to ... failed; falling back to ...", "RuntimeError: ... open file failed with strerror: Read-only file system", "[rank0] saved checkpoint .../ckpt_local/ckpt_step00010.pt", "training finished after 30 steps"])
add("029_srun_dataloader_worker_killed_r1", "dataloader_worker_killed", 1, "srun -l -n 3 (no --kill-on-bad-exit), DataLoader num_workers=2",
    "I SIGKILLed one of rank 1's DataLoader workers from outside at ~step 10 (kill -9 <worker pid>). Meant to be a handled restart, but the DataLoader's SIGCHLD handler raised inside time.sleep() outside the handler, so rank 1 died; ranks 0,2 lost their peer. (Generated as an intended healthy run; kept as a failing run, label from what happened.)",
    ["1: [rank1]: RuntimeError: DataLoader worker (pid 24402) is killed by signal: Killed.", "srun: error: vm: task 1: Exited with exit code 1", "[rank0/2]: Connection closed by peer"])
with open("/work/blind/r15/labels.jsonl", "w") as f:
    for d in L:
        f.write(json.dumps(d) + "\n")
print(len(L))
