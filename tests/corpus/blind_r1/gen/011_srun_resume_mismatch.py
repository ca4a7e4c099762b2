# Slurm-launched DDP MLP that resumes from per-rank checkpoint files.
import argparse
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def build_model(hidden):
    return nn.Sequential(nn.Linear(32, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--resume-step", type=int, default=400)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--hidden", type=int, default=64)
    args = ap.parse_args()

    rank = int(os.environ["SLURM_PROCID"])
    world = int(os.environ["SLURM_NTASKS"])
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29711")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    print(f"rank {rank}/{world} initialised (pid {os.getpid()})", flush=True)

    model = build_model(args.hidden)
    path = os.path.join(args.ckpt, f"step_{args.resume_step:06d}", f"model_rank{rank}.pt")
    state = torch.load(path)
    model.load_state_dict(state["model"])
    print(f"rank {rank}: resumed from {path}", flush=True)
    model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(rank)
    for step in range(args.resume_step + 1, args.steps + 1):
        x = torch.randn(32, 32, generator=g)
        y = x[:, :2].sum(1, keepdim=True)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"rank {rank}: step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.02)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
