# Multi-node DDP MLP with a metrics-server client (rank 0), step-time watchdog, warnings.
import argparse
import logging
import os
import socket
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("trainer")


class MetricsClient:
    """Tiny line-protocol client for the experiment's metrics relay."""

    def __init__(self, host, port, retries=6, backoff=2.0):
        self.sock = None
        for attempt in range(1, retries + 1):
            try:
                self.sock = socket.create_connection((host, port), timeout=2)
                log.info("connected to metrics relay %s:%d (attempt %d)", host, port, attempt)
                return
            except OSError:
                log.warning("metrics relay %s:%d not reachable (attempt %d/%d), retrying in %.0fs",
                            host, port, attempt, retries, backoff, exc_info=True)
                time.sleep(backoff)
        log.error("giving up on metrics relay; metrics will only be logged locally")

    def send(self, name, value, step):
        if self.sock is not None:
            try:
                self.sock.sendall(f"{name} {value:.6f} {step}\n".encode())
            except OSError:
                self.sock = None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--metrics", default="127.0.0.1:29790")
    args = ap.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s [rank{rank}] %(message)s")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=100, gamma=0.5)
    sched.step()
    metrics = None
    if rank == 0:
        host, port = args.metrics.split(":")
        metrics = MetricsClient(host, int(port))
    g = torch.Generator().manual_seed(rank)
    times = []
    for step in range(1, args.steps + 1):
        t = time.time()
        x = torch.randn(32, 20, generator=g)
        y = torch.cos(x[:, :3]).sum(1, keepdim=True)
        if rank == 1 and step == 140:
            time.sleep(1.5)  # host hiccup on one node
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        dt = time.time() - t
        times.append(dt)
        if step > 20 and dt > 10 * sorted(times)[len(times) // 2]:
            log.warning("slow step %d: %.2fs (median %.3fs)", step, dt, sorted(times)[len(times) // 2])
        if step % 25 == 0:
            log.info("step %d loss %.4f lr %.4f", step, loss.item(), sched.get_last_lr()[0])
            if metrics:
                metrics.send("train/loss", loss.item(), step)
        time.sleep(0.02)
    dist.barrier()
    log.info("training complete after %d steps", args.steps)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
