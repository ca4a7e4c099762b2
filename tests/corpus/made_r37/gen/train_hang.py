"""A small DDP-like training loop on gloo (CPU) whose rank HANG_RANK blocks at step HANG_STEP on a lock its own
thread already holds (a real deadlock: threading.Lock is not re-entrant); the other ranks wait in the next
all-reduce. Steps are logged with timestamps every ~0.2 s. HANG_RANK=-1: no hang (a healthy run)."""

import logging
import os
import threading
import time

import torch
import torch.distributed as dist

logging.basicConfig(format="%(asctime)s %(levelname)s [rank %(rank)s] %(message)s", level=logging.INFO)
rank = int(os.environ["RANK"])
log = logging.LoggerAdapter(logging.getLogger("train"), {"rank": rank})
dist.init_process_group("gloo", timeout=__import__("datetime").timedelta(seconds=int(os.environ.get("PG_TIMEOUT", "300"))))
hang_rank, hang_step = int(os.environ.get("HANG_RANK", "-1")), int(os.environ.get("HANG_STEP", "20"))
steps = int(os.environ.get("STEPS", "400"))
model = torch.nn.Linear(32, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
metrics_lock = threading.Lock()


def flush_metrics(step: int) -> None:
    with metrics_lock:
        if rank == hang_rank and step == hang_step:
            with metrics_lock:  # the same lock again: blocks forever
                pass


for step in range(1, steps + 1):
    x = torch.randn(16, 32)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
    opt.step()
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss.item())
        flush_metrics(step)
    time.sleep(0.04)
log.info("training finished: %d steps", steps)
dist.destroy_process_group()
