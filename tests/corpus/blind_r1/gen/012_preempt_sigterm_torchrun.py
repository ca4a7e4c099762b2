# DDP MLP, long-ish run with periodic checkpoints on rank 0; logging with timestamps.
import argparse
import logging
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("train")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--ckpt-every", type=int, default=250)
    ap.add_argument("--out", default="checkpoints")
    args = ap.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s | %(levelname)-7s | rank {rank} | %(message)s")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.Linear(128, 128), nn.GELU(), nn.Linear(128, 8)))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    g = torch.Generator().manual_seed(100 + rank)
    w = torch.randn(32, 8, generator=torch.Generator().manual_seed(1))
    os.makedirs(args.out, exist_ok=True)
    log.info("starting: world_size=%d max_steps=%d", world, args.steps)
    for step in range(1, args.steps + 1):
        x = torch.randn(64, 32, generator=g)
        y = x @ w
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            log.info("step %5d/%d  loss %.5f", step, args.steps, loss.item())
        if step % args.ckpt_every == 0 and rank == 0:
            path = os.path.join(args.out, f"ckpt_{step:06d}.pt")
            torch.save({"step": step, "model": model.module.state_dict(), "opt": opt.state_dict()}, path)
            log.info("saved checkpoint %s", path)
        time.sleep(0.02)
    log.info("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
