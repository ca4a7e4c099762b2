"""Manual data-parallel trainer (no DDP wrapper): gradients averaged with all_reduce per parameter."""
import argparse
import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=50)
p.add_argument("--fault", default="none")
p.add_argument("--fault-rank", type=int, default=-1)
p.add_argument("--fault-step", type=int, default=-1)
p.add_argument("--pg-timeout", type=float, default=30)
p.add_argument("--lr", type=float, default=0.01)
p.add_argument("--log-every", type=int, default=5)
p.add_argument("--stop-loss", type=float, default=0.0)
args = p.parse_args()

dist.init_process_group("gloo", timeout=timedelta(seconds=args.pg_timeout))
rank, world = dist.get_rank(), dist.get_world_size()
print(f"[rank {rank}] world={world} pid={os.getpid()} debug={os.environ.get('TORCH_DISTRIBUTED_DEBUG', 'OFF')}", flush=True)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1))
for prm in model.parameters():
    dist.broadcast(prm.data, src=0)
opt = torch.optim.SGD(model.parameters(), lr=args.lr)
g = torch.Generator().manual_seed(100 + rank)
w_true = torch.randn(16, 1, generator=torch.Generator().manual_seed(7))


def sync_grads():
    for prm in model.parameters():
        dist.all_reduce(prm.grad)
        prm.grad /= world


def report(step, loss):
    t = torch.tensor([loss])
    if args.fault == "gather_vs_reduce" and rank == args.fault_rank and step >= args.fault_step:
        # per-rank loss list for the dashboard (only the last rank takes this path)
        out = [torch.zeros(1) for _ in range(world)]
        dist.all_gather(out, t)
        return sum(o.item() for o in out) / world
    dist.all_reduce(t)
    return t.item() / world


for step in range(1, args.steps + 1):
    x = torch.randn(32, 16, generator=g)
    y = x @ w_true
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    sync_grads()
    opt.step()
    if step % args.log_every == 0:
        avg = report(step, loss.item())
        print(f"[rank {rank}] step {step} loss {loss.item():.4f} global {avg:.4f}", flush=True)
        if args.stop_loss and args.fault == "early_stop_local" and loss.item() < args.stop_loss:
            print(f"[rank {rank}] loss below {args.stop_loss}, stopping early", flush=True)
            break
    time.sleep(0.05)
print(f"[rank {rank}] done", flush=True)
dist.destroy_process_group()
