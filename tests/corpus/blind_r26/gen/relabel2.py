import json, subprocess
L = [
 dict(run="014_sbatch_torchrun_time_limit", inputs=["."], class_="slurm_time_limit", initiating_rank=None, alt_class="preemption_sigterm",
    launcher="sbatch --time=00:01:00 + srun torchrun (1 node x4, c10d rdzv)",
    how="a 5000-step job at ~0.21 s/step submitted with a 1-minute limit; slurm killed it at the limit while it was healthy at step 320; the torchrun agent got SIGTERM and raised SignalException",
    evidence=["slurmstepd-vm: error: *** JOB 26 ON vm CANCELLED AT 2026-12-06T05:33:48 DUE TO TIME LIMIT ***", "W1206 05:33:48.391000 17019 torch/distributed/elastic/agent/server/api.py:753] Received 15 death signal, shutting down workers", "torch.distributed.elastic.multiprocessing.api.SignalException: Process 17019 got signal: 15"]),
 dict(run="034_2node_async_ckpt_deadline", inputs=["."], class_="checkpoint_write_timeout", initiating_rank=0, alt_class="checkpoint_writer_hang",
    launcher="two torchrun agents (trn-h200-a1/-a2), 2 procs each, c10d rdzv, one console log per node; gloo timeout 40 s",
    how="rank 0 writes checkpoints from a background ckpt-writer thread (Python open + torch.save into the file object) and waits at most 20 s for the previous write before queueing the next; the step-60 target was a FIFO standing in for a stalled FUSE object-store mount, so at step 90 the deadline expired and rank 0 raised TimeoutError; rank 0 then hung at interpreter exit joining the stuck writer thread, ranks 1-3 timed out in the all-reduce after 40 s, and the agents SIGTERMed what was left",
    evidence=["2026-12-06 05:34:05,114 INFO [rank0] waiting for previous async checkpoint ckpt/step_000060.pt (deadline 20s)", "2026-12-06 05:34:25,114 ERROR [rank0] async checkpoint ckpt/step_000060.pt did not finish within 20s", "[rank0]: TimeoutError", "[rank2]: RuntimeError: [...unbound_buffer.cc:78] Timed out waiting 40000ms for recv operation to complete"]),
 dict(run="035_sbatch_silent_hang_time_limit", inputs=["."], class_="job_hang_no_progress", initiating_rank=None, alt_class="slurm_time_limit",
    launcher="sbatch --time=00:02:00 + srun --label, 4 tasks, gloo timeout 1800 s",
    how="at step 94 rank 2 blocked forever reading a FIFO (stand-in for a shard-index read that never returns); the other ranks waited in the gradient all-reduce; with a 30-min collective timeout nothing was printed after step 90 (05:34:59) until slurm killed the job at its 2-minute limit (05:36:48). Truth: rank 2 stopped first, but nothing in the logs distinguishes it, so initiating_rank is left null",
    evidence=["0: 2026-12-06 05:34:59,404 INFO [rank0] step 90 loss 0.1723 lr 0.05 step_time 0.061s", "slurmstepd-vm: error: *** JOB 27 ON vm CANCELLED AT 2026-12-06T05:36:48 DUE TO TIME LIMIT ***", "srun: error: vm: tasks 0-3: Terminated"]),
]
for l in L:
    l["class"] = l.pop("class_")
    subprocess.run(["python3", "/work/blind/r26/gen/addlabel.py", json.dumps(l)], check=True)
