import json, subprocess
L = []
def add(**k): L.append(k)
add(run="001_tr_logdir_bad_jsonl", inputs=["."], class_="tokenizer_or_data_error", initiating_rank=2, alt_class=None,
    launcher="torchrun 1 node x4, c10d rdzv, --log-dir --tee 3, DataLoader num_workers=2",
    how="shard_2.jsonl line 300 truncated mid-record; rank 2 DataLoader worker hit JSONDecodeError at ~step 19, re-raised in rank 2 main; ranks 1,3 then got gloo Connection closed by peer and the agent SIGTERMed the rest",
    evidence=["[default2]:[rank2]: RuntimeError: Caught JSONDecodeError in DataLoader worker process 0.", "[default2]:[rank2]: json.decoder.JSONDecodeError: Expecting ',' delimiter: line 2 column 1 (char 83)", "[default1]:[rank1]: RuntimeError: [...gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:30636."])
add(run="003_sbatch_label_prefetch_thread", inputs=["."], class_="tokenizer_or_data_error", initiating_rank=1, alt_class="nccl_timeout",
    launcher="sbatch + srun --label, 4 tasks, gloo timeout 45 s, no --kill-on-bad-exit",
    how="shard_1 sample 650 carries raw label 7 that the label remap table does not know; rank 1 background prefetch thread died with KeyError: 7 (printed as Exception in thread prefetch) and rank 1 main loop blocked forever on the empty queue; ranks 0,2,3 hit gloo 45 s timeouts and exited 1; rank 1 sat there until the on-call scancel-ed the job",
    evidence=["1: Exception in thread prefetch:", "1: KeyError: 7", "0: [rank0]: RuntimeError: [...gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 45000ms for recv operation to complete", "slurmstepd-vm: error: *** JOB 15 ON vm CANCELLED AT 2026-12-06T05:17:13 ***"])
add(run="005_2node_uneven_exit0", inputs=["."], class_="collective_mismatch", initiating_rank=2, alt_class="nccl_remote_peer_exited",
    launcher="two torchrun agents (trn-a100-017, trn-a100-018), 2 procs each, c10d rdzv, --log-dir + --tee 3 per node, console captured per node",
    how="uneven shards: shard_2 has 490 samples (30 batches) vs 2000; with one pass per rank, rank 2 (node 2 local_rank 0) logged data exhausted, destroyed its process group and exited 0 after step 30 while ranks 0,1,3 entered the next gradient all-reduce and got gloo Connection closed by peer; the agents name ranks 1 and 3 as root cause",
    evidence=["[default0]:2026-12-06 05:17:27,403 INFO [rank2] data exhausted after 30 steps; training finished", "[default1]:[rank3]: RuntimeError: [...gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:41699.", "rank      : 3 (local_rank: 1)  exitcode  : 1 (pid: 10089)"])
add(run="006_srun_nolabel_dtype", inputs=["."], class_="dtype_mismatch", initiating_rank=1, alt_class="tokenizer_or_data_error",
    launcher="sbatch + srun without --label, --kill-on-bad-exit=1, 4 tasks, HF-style log lines without rank",
    how="one sample (shard_1 line 700) was exported as float64; default collate promoted that batch to Double and rank 1 forward raised mat1 and mat2 must have the same dtype; peers got Connection closed by peer and srun killed the step",
    evidence=["[rank1]: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float", "srun: error: vm: task 1: Exited with exit code 1", "[rank0]: RuntimeError: [...pair.cc:553] Connection closed by peer [127.0.0.1]:2464."])
add(run="008_tr_logdir_nan_rank2", inputs=["."], class_="nan_inf_loss", initiating_rank=2, alt_class=None,
    launcher="torchrun 1 node x4, c10d rdzv, --log-dir with -r 3 (per-rank stdout/stderr files only; launcher.out has the agent output)",
    how="an inf feature was injected into rank 2's batch at step 23: rank 2 logged loss nan at step 23, the all-reduced NaN gradients poisoned every replica so ranks 0,1,3 logged nan from step 24, and the step-25 finite-loss guard raised FloatingPointError on all four ranks",
    evidence=["2026-12-06 05:17:51,054 INFO [rank2] step 23 loss nan lr 0.05 step_time 0.063s", "2026-12-06 05:17:51,117 INFO [rank0] step 24 loss nan lr 0.05 step_time 0.063s", "[rank0]: FloatingPointError: Loss is nan at step 25, stopping training"])
add(run="009_tr_ckpt_enospc", inputs=["console.txt"], class_="checkpoint_disk_full", initiating_rank=0, alt_class="storage_io_error",
    launcher="torchrun 1 node x4, c10d rdzv, console capture (the job prologue printed df -h of the checkpoint dir)",
    how="checkpoint dir is a real 640 KiB tmpfs; the step-20 and step-40 saves (281 KiB each) fit, the step-60 torch.save by rank 0 ran out of space (ENOSPC inside the zip writer, surfaced only as iostream error / unexpected pos); peers got Connection closed by peer",
    evidence=["tmpfs           640K     0  640K   0% /work/blind/r26/work/j009/ckpt", "[rank0]: RuntimeError: basic_ios::clear: iostream error", "[rank0]: RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 24064 vs 23968"])
add(run="010_sbatch_ckpt_write_hang", inputs=["."], class_="checkpoint_writer_hang", initiating_rank=0, alt_class="nccl_timeout",
    launcher="sbatch + srun --label --kill-on-bad-exit=1, 4 tasks, gloo timeout 50 s",
    how="the step-40 checkpoint target was a FIFO with no reader (stand-in for a stuck filer), so rank 0 blocked inside torch.save after logging saving checkpoint; ranks 1-3 waited in the post-save barrier and timed out after 50 s; srun then killed rank 0 (Terminated, no traceback)",
    evidence=["0: 2026-12-06 05:18:16,018 INFO [rank0] saving checkpoint to /work/blind/r26/work/j010/ckpt/step_000040.pt", "1: [rank1]: RuntimeError: [...gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 50000ms for recv operation to complete", "srun: error: vm: task 0: Terminated"])
add(run="011_2node_ckpt_readonly", inputs=["."], class_="checkpoint_permission_denied", initiating_rank=0, alt_class=None,
    launcher="two torchrun agents (h100-pod3-n07/-n08), 2 procs each, c10d rdzv, one console log per node",
    how="checkpoint dir was a tmpfs remounted read-only; at step 30 rank 0 creating its staging dir got EROFS; ranks 1-3 failed with Connection closed by peer; the n08 agent itself then died with RendezvousConnectionError because the store host (n07 agent) had already exited",
    evidence=["[rank0]: OSError: [Errno 30] Read-only file system: '/work/blind/r26/work/j011/ckpt/step_000030.tmp'", "[rank3]: RuntimeError: [...pair.cc:553] Connection closed by peer [127.0.0.1]:53976.", "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed."])
add(run="012_tr_resume_size_mismatch", inputs=["."], class_="checkpoint_load_mismatch", initiating_rank=None, alt_class="shape_mismatch",
    launcher="torchrun 1 node x4, c10d rdzv, --log-dir --tee 3",
    how="resumed with --hidden 96 from a checkpoint written by a hidden=64 run; every rank raised the same load_state_dict size-mismatch error at start-up",
    evidence=["[default0]:2026-12-06 05:19:34,980 INFO [rank0] resuming from ckpt/step_000040.pt", "[default0]:[rank0]: RuntimeError: Error(s) in loading state_dict for Net:", "size mismatch for fc1.weight: copying a param with shape torch.Size([64, 16]) from checkpoint, the shape in current model is torch.Size([96, 16])."])
add(run="013_sbatch_resume_truncated", inputs=["."], class_="checkpoint_corrupt", initiating_rank=0, alt_class=None,
    launcher="sbatch + srun --label --kill-on-bad-exit=1, 4 tasks; rank 0 loads and broadcasts the checkpoint",
    how="latest checkpoint step_000060.pt truncated to 150000 of 287493 bytes (torn write); rank 0 torch.load failed finding the zip central directory; ranks 1-3 waiting in broadcast_object_list got Connection closed by peer; srun killed the step",
    evidence=["-rw-r--r-- 1 root root 150000 Dec  6 05:19 step_000060.pt", "0: [rank0]: RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory.", "1: [rank1]: RuntimeError: [...pair.cc:553] Connection closed by peer [127.0.0.1]:8873."])
add(run="015_sbatch_requeue_preempted", inputs=["."], class_="preemption_sigterm", initiating_rank=None, alt_class=None,
    launcher="sbatch --requeue --open-mode=append + srun --label, 4 tasks, SIGTERM handler writes an emergency checkpoint",
    how="healthy job at step 249 was requeued by the scheduler (scontrol requeue, as a preemption does); slurmstepd cancelled the step DUE TO JOB REQUEUE, every rank caught SIGTERM, rank 0 saved an emergency checkpoint, all exited 143; the requeued copy was cancelled while still pending",
    evidence=["slurmstepd-vm: error: *** JOB 20 ON vm CANCELLED AT 2026-12-06T05:21:00 DUE TO JOB REQUEUE ***", "0: 2026-12-06 05:21:00,107 WARNING [rank0] received signal 15 at step 249; saving emergency checkpoint and exiting", "srun: error: vm: tasks 0-3: Exited with exit code 143"])
add(run="016_sbatch_node_down", inputs=["."], class_="node_failure", initiating_rank=None, alt_class=None,
    launcher="sbatch --no-requeue + srun --label, 4 tasks, print-style logs; scontrol show job captured afterwards",
    how="at step ~160 the node was set DOWN (reason hc: PSU fault) under the running job; slurmctld killed the job on the failed node, srun reported Node failure, job state NODE_FAIL",
    evidence=["srun: error: Node failure on vm", "slurmstepd-vm: error: *** JOB 21 ON vm CANCELLED AT 2026-12-06T05:21:46 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***", "JobState=NODE_FAIL Reason=NodeDown"])
add(run="017_sbatch_deadlock_hang_stackdump", inputs=["."], class_="job_hang_no_progress", initiating_rank=0, alt_class=None,
    launcher="sbatch + srun --label, 4 tasks, gloo timeout 1800 s; on-call sent USR1 (faulthandler stack dump) then scancel",
    how="at step 113 rank 0's metrics-flusher thread took a lock and blocked opening a FIFO whose reader is gone; rank 0 main thread then blocked on that lock and ranks 1-3 waited in the DDP all-reduce (backward); no step lines for 2 minutes, no errors; the USR1 faulthandler dump shows rank 0 in on_step/flusher and ranks 1-3 in _engine_run_backward; then the on-call cancelled the job",
    evidence=["0: 2026-12-06 05:22:27,469 INFO [rank0] step 100 loss 0.3702 lr 0.05 step_time 0.060s", "0:   File \"/work/blind/r26/gen/train.py\", line 363 in on_step", "0:   File \"/work/blind/r26/gen/train.py\", line 359 in flusher", "slurmstepd-vm: error: *** JOB 22 ON vm CANCELLED AT 2026-12-06T05:24:34 ***"])
add(run="020_2node_ext_undefined_symbol", inputs=["."], class_="dependency_abi_mismatch", initiating_rank=None, alt_class=None,
    launcher="two torchrun agents (gpu-c12-01/-02), 2 procs each, c10d rdzv, one console log per node; init_process_group timeout 60 s",
    how="node 2's environment carries a fastops extension built against a newer libtorch; both node-2 ranks (2 and 3) failed importing it with undefined symbol before joining the process group; node 1 ranks 0,1 then timed out 60 s later in init_process_group waiting for ranks 2,3 (DistStoreError)",
    evidence=["ImportError: /work/blind/r26/work/j020/envs/node02/lib/python3.11/site-packages/fastops.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN2at4_ops10fast_gelu_4callERKNS_6TensorE", "torch.distributed.DistStoreError: wait timeout after 60000ms, keys: /default_pg/0//cpu//0/2"])
add(run="021_tr_dataloader_worker_sigkill", inputs=["."], class_="dataloader_worker_killed", initiating_rank=1, alt_class=None,
    launcher="torchrun 1 node x4, c10d rdzv, --log-dir --tee 3, DataLoader num_workers=2 persistent",
    how="after step 40 one DataLoader worker process of rank 1 was SIGKILLed from outside (as an OOM killer or operator would); rank 1 main raised DataLoader worker (pid ...) is killed by signal: Killed; peers got Connection closed by peer",
    evidence=["[default1]:[rank1]: RuntimeError: DataLoader worker (pid 16120) is killed by signal: Killed. ", "[default0]:[rank0]: RuntimeError: [...pair.cc:553] Connection closed by peer [127.0.0.1]:5031."])
add(run="024_tr_restarts_missing_shard", inputs=["."], class_="tokenizer_or_data_error", initiating_rank=3, alt_class="rendezvous_failure",
    launcher="torchrun 1 node x4, --max-restarts 2, c10d rdzv, --log-dir -r 3 (per-attempt per-rank files) + agent output in launcher.log",
    how="data/shard_3.jsonl was never written; in attempt 0 rank 3 raised FileNotFoundError building its dataset (after init_process_group), peers got Connection closed by peer; both restarts then failed to re-form the gloo group in this torch build (connectFullMesh Connection refused to stale peer addresses), so the final torchrun summary shows only gloo connect errors",
    evidence=["attempt_0/3/stderr.log: [rank3]: FileNotFoundError: [Errno 2] No such file or directory: 'data/shard_3.jsonl'", "E1206 05:26:03.054000 16232 ... failed (exitcode: 1) local_rank: 3 (pid: 16240)", "RuntimeError: Gloo connectFullMesh failed with [...gloo/transport/tcp/pair.cc:152] timed out connecting: SO_ERROR: Connection refused"])
add(run="025_sbatch_lr_ramp_divergence", inputs=["."], class_="loss_spike_divergence", initiating_rank=None, alt_class=None,
    launcher="sbatch + srun --label --kill-on-bad-exit=1, 4 tasks",
    how="learning rate ramped linearly from 0.05 to 25 over the run (a bad sweep point); loss hovered 1.3-3.6 then blew up (rank 0: 188.6 at step 150, lr 9.4); the script's divergence guard (20-step mean > 8x best mean) raised on ranks 0,1,3 at step 150, rank 2 got Connection closed by peer",
    evidence=["0: 2026-12-06 05:26:23,712 INFO [rank0] step 150 loss 188.6008 lr 9.406 step_time 0.030s", "0: 2026-12-06 05:26:23,715 ERROR [rank0] 20-step mean loss 13.5301 is > 8x the best mean 1.3845; aborting (divergence guard)", "0: [rank0]: RuntimeError: training diverged: mean loss 13.5301 at step 150 (best 1.3845)"])
add(run="030_healthy_sbatch_label_ckpt", inputs=["."], class_="healthy", initiating_rank=None, alt_class=None,
    launcher="sbatch + srun --label --kill-on-bad-exit=1, 4 tasks, checkpoint every 50 steps",
    how="ran 200 steps, wrote 4 checkpoints, all ranks finished, srun exit 0",
    evidence=["0: 2026-12-06 05:26:42,167 INFO [rank0] done", "[2026-12-06T05:26:44+00:00] srun exit 0"])
add(run="033_sbatch_torchrun_async_ckpt_deadline", inputs=["."], class_="checkpoint_writer_hang", initiating_rank=0, alt_class="nccl_timeout",
    launcher="sbatch -n1 + srun torchrun (1 node x4, c10d rdzv, --log-dir --tee 3)",
    how="rank 0 writes checkpoints from a background ckpt-writer thread with a 20 s deadline; the step-60 target was a FIFO standing in for a stalled FUSE object-store mount; torch.save opens the file in C++ without releasing the GIL, so right after logging async checkpoint: queued ckpt/step_000060.pt rank 0 froze entirely (its deadline check never ran); ranks 1-3 timed out after 40 s in the next all-reduce; the agent SIGTERMed rank 0 (no traceback) and named rank 3 as root cause",
    evidence=["[default0]:2026-12-06 05:26:58,642 INFO [rank0] async checkpoint: queued ckpt/step_000060.pt", "[default2]:[rank2]: RuntimeError: [...unbound_buffer.cc:78] Timed out waiting 40000ms for recv operation to complete", "rank      : 3 (local_rank: 3)  exitcode  : 1 (pid: 16684)"])
for l in L:
    l["class"] = l.pop("class_")
    subprocess.run(["python3", "/work/blind/r26/gen/addlabel.py", json.dumps(l)], check=True)
