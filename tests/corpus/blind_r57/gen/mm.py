#!/usr/bin/env python3
"""Manual data-parallel loop (no DDP) with explicit gradient all_reduce; one rank's metric sync differs."""
import os, time, logging, sys
from datetime import timedelta
import torch, torch.distributed as dist
rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", 0))); world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", 1)))
os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("RANK", str(rank)); os.environ.setdefault("WORLD_SIZE", str(world))
TARGET, AT, KIND = int(os.environ.get("TARGET", -1)), int(os.environ.get("AT", 3)), os.environ.get("KIND", "coll")
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format=f"%(asctime)s [%(levelname)s] %(message)s")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
torch.manual_seed(0)
w = torch.randn(8, 1, requires_grad=True)
for step in range(8):
    x = torch.randn(16, 8); loss = (x @ w).pow(2).mean(); loss.backward()
    dist.all_reduce(w.grad); w.grad /= world
    with torch.no_grad(): w -= 0.01 * w.grad
    w.grad = None
    acc = torch.tensor([1.0, loss.item()])
    if rank == TARGET and step == AT:
        if KIND == "coll": dist.all_gather([torch.zeros(2) for _ in range(world)], acc)
        else: dist.all_reduce(torch.tensor([1.0, loss.item(), 0.0]))
    else:
        dist.all_reduce(acc)
    if rank == 0: logging.info("step %d loss %.4f", step, acc[1].item() / world)
    time.sleep(0.1)
dist.destroy_process_group()
