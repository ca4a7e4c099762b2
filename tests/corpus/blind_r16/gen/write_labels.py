import json
L = []
def add(run, cls, rank, launcher, how, evidence, alt=None):
    d = {"run": run, "inputs": ["."], "class": cls, "initiating_rank": rank}
    if alt: d["alt_class"] = alt
    d.update({"launcher": launcher, "how": how, "evidence": evidence})
    L.append(d)

add("001_cgroup_oom_rank2", "host_oom_killed", 2, "torchrun --log-dir --redirects 3 (4 workers) + dmesg excerpt",
    "rank 2 moved itself into a 300M memory cgroup and grew an in-memory cache until the kernel OOM killer SIGKILLed it; torchrun then SIGTERMed ranks 0,1,3 (ranks 1,3 first logged gloo 'Connection closed by peer').",
    ["failed (exitcode: -9) local_rank: 2", "Root Cause ... rank : 2 ... exitcode : -9 (SIGKILL)", "Memory cgroup out of memory: Killed process 31404 (python3)"])
add("002_flock_hang_rank1", "nccl_timeout", 1, "bash loop with env vars, per-rank log files, launcher.log",
    "rank 1 blocked on an flock held by a stale process right after logging 'refreshing shard index'; ranks 0 and 2 hit the 15 s gloo timeout in DDP allreduce; launcher SIGTERMed rank 1 (its log just stops).",
    ["[1] refreshing shard index (last line of rank1.log)", "[rank0]: RuntimeError: ... Timed out waiting 15000ms for recv operation to complete", "sent SIGTERM to 31747"],
    alt="job_hang_no_progress")
add("003_uneven_early_exit_rank3", "nccl_remote_peer_exited", 3, "torchrun --standalone, console only (4 workers)",
    "rank 3's data shard had only 96 samples, so it left the loop after 12 steps, logged 'training finished' and exited 0; ranks 0-2 still in DDP allreduce got 'Connection closed by peer'. torchrun names rank 2 as root cause, but rank 3 left first.",
    ["[rank3] INFO trainer: training finished after 12 steps", "Connection closed by peer ... typically caused by a remote worker crashing", "Root Cause: rank 2 exitcode 1"])
add("004_coll_shape_debug_rank2", "collective_mismatch", 2, "mp.spawn (3 procs), TORCH_DISTRIBUTED_DEBUG=DETAIL",
    "at step 7 rank 2 all_reduced a 5-element metrics tensor while ranks 0,1 used 4 elements; DETAIL debug reported the mismatch.",
    ["Detected mismatch between collectives on ranks. Rank 2 is running collective: CollectiveFingerPrint(... TensorShape=[5]", "-- Process 2 terminated with the following error"])
add("005_dl_worker_killed_rank1", "dataloader_worker_killed", 1, "torchrun --log-dir --tee 3, c10d rendezvous (3 workers)",
    "a DataLoader worker of rank 1 was SIGKILLed while loading a sample; rank 1 raised, others got connection closed and were SIGTERMed.",
    ["[default1]:[rank1]: RuntimeError: DataLoader worker (pid 905) is killed by signal: Killed.", "Root Cause: rank 1"])
add("006_nan_input_rank2", "nan_inf_loss", 2, "srun -l -n 4",
    "rank 2 got a batch with an inf feature at step 17; its finiteness check raised FloatingPointError; ranks 0,1,3 got connection closed.",
    ["2: [rank2]: FloatingPointError: Loss is nan at step 17, rank 2; stopping", "srun: error: vm: task 2: Exited with exit code 1 (first)"])
add("007_ckpt_enospc_rank0", "checkpoint_disk_full", 0, "sbatch + srun (3 tasks), slurm-JOBID.out",
    "rank 0 saved checkpoints to a 1 MiB tmpfs; the third save ran out of space. torch.save reported it only as an iostream error / 'unexpected pos'; ranks 1,2 waiting in the post-save barrier got connection closed.",
    ["saving checkpoint to /work/blind/r16/mnt/007/ckpt/step000030.pt", "[rank0]: RuntimeError: basic_ios::clear: iostream error", "[rank0]: RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 10560 vs 10452"],
    alt="storage_io_error")
add("008_ckpt_erofs_rank2_2nodes", "checkpoint_permission_denied", 2, "two torchrun agents (2 simulated nodes x 2 workers, c10d rendezvous)",
    "every rank saves its own shard; rank 2's directory was a read-only bind mount, so its save failed with EROFS; the others got connection closed and node0's agent logged store broken-pipe / RendezvousConnectionError noise.",
    ["[rank2]: RuntimeError: [enforce fail at inline_container.cc:747] . open file failed with strerror: Read-only file system", "RendezvousConnectionError: The connection to the C10d store has failed (node0.log)"])
add("009_resume_shape_mismatch_rank3", "checkpoint_load_mismatch", 3, "torchrun --standalone --log-dir (no redirects; console has the output)",
    "each rank resumes its own checkpoint file; rank 3's came from a hidden=128 model, load_state_dict raised size mismatch; torchrun SIGTERMed the rest.",
    ["[rank3]: RuntimeError: Error(s) in loading state_dict for Sequential:", "size mismatch for 0.weight: copying a param with shape torch.Size([128, 32])", "Root Cause: rank 3"])
add("010_missing_shard_rank2", "tokenizer_or_data_error", 2, "sbatch + srun --label (4 tasks), --output=train-%j.log",
    "the data directory had no shard_00002.pt; rank 2 raised FileNotFoundError building its dataset; ranks 0,1,3 got connection closed (rank 1 also aborted with 'terminate called without an active exception').",
    ["2: [rank2]: FileNotFoundError: [Errno 2] No such file or directory: '/work/blind/r16/mnt/010_data/shard_00002.pt'", "srun: error: vm: task 1: Aborted"])
add("011_segfault_rank1", "python_exception_other", 1, "torchrun --log-dir --redirects 3 --tee 3 (3 workers)",
    "rank 1 dereferenced NULL through ctypes at step 21 (SIGSEGV, no Python traceback); ranks 0,2 got 'Connection reset by peer'. No taxonomy class for a native crash; python_exception_other is the nearest 'program bug' class.",
    ["failed (exitcode: -11) local_rank: 1", "exitcode : -11 (pid: 2825) (SIGSEGV)", "Read error [127.0.0.1]:49589: Connection reset by peer"],
    alt="nccl_remote_peer_exited")
add("012_rdzv_second_node_missing", "rendezvous_failure", None, "two torchrun agents (c10d rendezvous, nnodes=2, join_timeout=20)",
    "node 1's agent was given a wrong rendezvous endpoint port, so neither agent ever saw 2 nodes; both raised RendezvousTimeoutError. No rank ever started.",
    ["torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError (both logs)"])
add("013_port_in_use", "port_in_use", 0, "bash loop, all ranks to one terminal (3 ranks)",
    "MASTER_PORT was held by a leftover http.server; rank 0 could not bind the TCPStore (EADDRINUSE); ranks 1,2 hung connecting until the session was killed.",
    ["torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 21013, useIpv6: false, code: -98, name: EADDRINUSE"])
add("014_emfile_rank3", "too_many_open_files", 3, "mp.spawn (4 procs) under ulimit -n 256",
    "rank 3's dataset opened a side file per sample and never closed it; after ~240 samples open() failed with EMFILE; mp.spawn terminated the others.",
    ["OSError: [Errno 24] Too many open files: '/work/blind/r16/mnt/014_side/r3_241.bin'", "process 3 terminated with exit code 1"])
add("015_ext_undefined_symbol_node1", "dependency_abi_mismatch", 2, "two torchrun agents (node0: 2 workers, node1: 1 worker)",
    "node 1's PYTHONPATH held a stale compiled fused_adam_ext .so with an undefined c10 symbol; its only worker (global rank 2) failed at import; node 0's ranks timed out waiting in the store for rank 2.",
    ["ImportError: .../fused_adam_ext.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", "[rank2] ... starting pid=5935", "DistStoreError: wait timeout after 15000ms, keys: /default_pg/0//cpu//0/2"])
add("016_slurm_time_limit", "slurm_time_limit", None, "sbatch -t 1 + srun -l (3 tasks)",
    "job time limit was 1 minute for an effectively endless training loop; Slurm cancelled the job at the limit.",
    ["slurmstepd-vm: error: *** JOB 24 ON vm CANCELLED AT 2026-12-05T12:43:22 DUE TO TIME LIMIT ***", "srun: error: vm: tasks 0-2: Terminated"])
add("017_preempt_sigterm", "preemption_sigterm", None, "sbatch + srun (4 tasks)",
    "after ~18 s of training the job was sent SIGTERM by scancel --signal=TERM (what a preempting scheduler sends first); every rank's handler logged it and exited 143.",
    ["slurmstepd-vm: error: *** STEP 25.0 ON vm CANCELLED AT 2026-12-05T12:47:28 ***", "received signal 15 (SIGTERM): stopping", "Exited with exit code 143"])
add("018_bg_thread_keyerror_rank1", "python_exception_other", 1, "torchrun --standalone --log-dir --redirects 3 (4 workers)",
    "rank 1's background prefetch thread died with KeyError; its main loop then blocked on the empty queue; ranks 0,2,3 timed out in DDP allreduce; torchrun names rank 0 as root cause and SIGTERMs rank 1.",
    ["Exception in thread prefetch-meta: ... KeyError: 'tokens' (rank 1 stderr.log)", "Timed out waiting 15000ms for recv operation to complete (ranks 0,2,3)", "rank 1 exitcode -15 (SIGTERM)"],
    alt="nccl_timeout")
add("019_ckpt_write_hang_rank0", "checkpoint_writer_hang", 0, "torchrun --log-dir --redirects 1 (3 workers; stdout in files, stderr on console)",
    "rank 0's checkpoint target was a FIFO with no reader (stand-in for a wedged filesystem): open() never returned; ranks 1,2 timed out (20 s) in the post-save barrier; torchrun SIGTERMed rank 0.",
    ["saving checkpoint to /work/blind/r16/mnt/019_ckpt/step000020.pt (last line of rank 0 stdout.log, no 'checkpoint saved')", "Timed out waiting 20000ms for recv operation to complete", "rank 0 exitcode -15 (SIGTERM)"],
    alt="nccl_timeout")
add("020_loss_divergence", "loss_spike_divergence", 0, "torchrun --standalone --log-dir --tee 3 (3 workers)",
    "a loss multiplier bug made the loss grow geometrically (68 -> 22779 -> 8.7e8); rank 0's divergence guard raised; others got connection closed.",
    ["step 8 loss 22779.5990", "[rank0]: RuntimeError: loss diverged: 8.721e+08 at step 9 (threshold 1e6)"])
add("021_world_size_too_big", "rendezvous_failure", None, "bash loop, per-rank files under out/ (3 ranks started, WORLD_SIZE=4)",
    "the launch exported WORLD_SIZE=4 but started only 3 ranks; rank 0's TCPStore waited for a 4th client and all ranks timed out in init. The missing rank never existed, so no single rank started it.",
    ["torch.distributed.DistStoreError: Timed out after 16 seconds waiting for clients. 3/4 clients joined.", "DistStoreError: wait timeout after 15000ms, keys: /default_pg/0//cpu//0/0"],
    alt="nccl_timeout")
add("022_recursion_rank3", "python_exception_other", 3, "srun -n 4 -o task-%t.out -e task-%t.err",
    "rank 3 recursively flattened a 5000-deep nested sample at step 11 -> RecursionError; the others got connection closed.",
    ["[rank3]: RecursionError: maximum recursion depth exceeded (task-3.err)", "srun: error: vm: task 3: Exited with exit code 1 (first line of srun_stderr.txt)"])
add("023_assert_rank1", "python_exception_other", 1, "bash loop, per-rank logs/workerN.log (4 ranks)",
    "a user assertion in the training step fired on rank 1 at step 13; the others got connection closed.",
    ["[rank1]: AssertionError: expected packed batch, got (8, 1)"])
add("024_cuda_on_cpu_rank2", "cuda_driver_mismatch", 2, "torchrun --nproc-per-node 4 --master-port, console via tee",
    "a device-selection bug put rank 2 on cuda:2 on a CPU-only torch build -> 'Torch not compiled with CUDA enabled'.",
    ["[rank2]: AssertionError: Torch not compiled with CUDA enabled"],
    alt="device_mismatch")
add("025_truncated_ckpt_rank1", "checkpoint_corrupt", 1, "sbatch + srun -l (3 tasks)",
    "each rank resumes its own file; rank 1's checkpoint was truncated to half its size (torn copy); torch.load's zip reader failed with EINVAL; the others got connection closed.",
    ["1: [rank1]:     sd = torch.load(path, map_location=\"cpu\")", "1: [rank1]: OSError: [Errno 22] Invalid argument", "srun: error: vm: task 1: Exited with exit code 1 (first)"],
    alt="storage_io_error")
add("026_float64_batch_rank2", "dtype_mismatch", 2, "torchrun --standalone --log-dir --redirects 3 (3 workers)",
    "rank 2's data path produced float64 samples from step 9 -> Linear raised dtype mismatch.",
    ["[rank2]: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float"])
add("027_oom_rank0_spawn", "host_oom_killed", 0, "mp.spawn (3 procs), console only",
    "rank 0 (also the store host) joined a 250M memory cgroup and grew an eval cache until OOM-killed; mp.spawn SIGTERMed the others. Only evidence: SIGKILL of process 0 after 'building eval cache'.",
    ["[0] building eval cache", "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL"])
add("028_bcast_vs_allreduce_rank1", "collective_mismatch", 1, "sbatch running srun torchrun (4 workers, c10d)",
    "at step 12 rank 1 called broadcast while ranks 0,2,3 called all_reduce (no debug mode); all four timed out. Tracebacks show rank 1 in dist.broadcast, others in dist.all_reduce.",
    ["[rank1]:     dist.broadcast(t, src=0)", "[rank0]:     dist.all_reduce(t)", "Timed out waiting 15000ms for recv operation to complete (all ranks)"],
    alt="nccl_timeout")
add("029_healthy_nan_skip", "healthy", None, "torchrun --standalone --log-dir --tee 3 (3 workers)",
    "healthy: one NaN loss on rank 1 skipped collectively, GradScaler UserWarnings, a metrics push that failed 3 times and was given up; all ranks finished, exit code 0.",
    ["WARNING: non-finite loss detected (loss=nan) at step 17; skipping this batch", "training complete: 50 steps, 1 skipped batches", "exit code 0"])
add("030_restart_stale_gloo_peers", "nccl_system_error", 3, "torchrun --max-restarts 2, c10d rendezvous (4 workers)",
    "meant as a healthy restart: rank 3 raised a transient ConnectionResetError in attempt 0 and torchrun restarted the group, but every restarted attempt failed in gloo connectFullMesh (Connection refused to stale peer addresses) and the job failed. Rank 3 started the chain; the final failure is the transport connect failure.",
    ["[rank3]: ConnectionResetError: [Errno 104] Connection reset by peer (feature store, transient)", "Gloo connectFullMesh failed with ... timed out connecting: SO_ERROR: Connection refused", "torchrun exit code 1"],
    alt="rendezvous_failure")
add("031_healthy_slow_master", "healthy", None, "bash loop, merged terminal (3 ranks, rank 0 started 8 s late)",
    "healthy: store host started late, C++ INFO logging on (uv_loop_close failed EBUSY lines), failed metrics push retried and given up; all ranks finished.",
    ["WARNING: metrics push failed (ConnectionRefusedError(111, 'Connection refused'))", "uv_loop_close failed with:-16 errn:EBUSY", "training complete: 40 steps"])
add("032_healthy_bad_sample_skipped", "healthy", None, "srun -l -n 4",
    "healthy: rank 2 printed two full JSONDecodeError tracebacks for unparsable metadata, skipped those samples and continued; srun exit code 0.",
    ["2: json.decoder.JSONDecodeError: Expecting value: line 1 column 42 (char 41)", "training complete: 40 steps", "srun exit code 0"])
add("033_ckpt_enospc_rank3", "checkpoint_disk_full", 3, "torchrun --standalone --log-dir --redirects 2 (4 workers; stdout on console, stderr in files)",
    "every rank saves its shard to local scratch; rank 3's scratch was a full 2 MiB tmpfs -> ENOSPC in torch.save; others got connection closed.",
    ["[rank3]: OSError: [Errno 28] No space left on device", "Root Cause: rank 3"])
add("034_hub_download_refused_rank0", "hub_network_error", 0, "bash loop, rank outputs prefixed with sed into one terminal log (3 ranks)",
    "rank 0 downloads the tokenizer from the hub mirror before init_process_group; the mirror refused the connection, rank 0 died before creating the store; ranks 1,2 timed out connecting to the store.",
    ["rank0 | urllib.error.URLError: <urlopen error [Errno 111] Connection refused>", "rank1 | torch.distributed.DistNetworkError: The client socket has timed out after 15000ms while trying to connect to (127.0.0.1, 21034)."])
with open("/work/blind/r16/labels.jsonl", "w") as f:
    for d in L:
        f.write(json.dumps(d) + "\n")
print(len(L))
