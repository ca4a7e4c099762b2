# Plain DDP regression MLP, prints with print(); completes normally.
import argparse
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def make_shard(rank, n, dim, seed=1234):
    g = torch.Generator().manual_seed(seed + rank)
    w_true = torch.linspace(-1.0, 1.0, dim)
    x = torch.randn(n, dim, generator=g)
    y = (x @ w_true).unsqueeze(1) + 0.05 * torch.randn(n, 1, generator=g)
    return x, y


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--log-every", type=int, default=20)
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    world = dist.get_world_size()
    torch.manual_seed(0)
    torch.set_num_threads(1)

    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
    ddp = DDP(model)
    opt = torch.optim.AdamW(ddp.parameters(), lr=args.lr, weight_decay=0.01)
    loss_fn = nn.MSELoss()

    x_all, y_all = make_shard(rank, 4096, 32)
    n = x_all.shape[0]
    if rank == 0:
        print(f"world_size={world} steps={args.steps} batch_size={args.batch_size} lr={args.lr}")
    print(f"[rank{rank}] shard has {n} samples")

    t0 = time.time()
    for step in range(1, args.steps + 1):
        i = ((step - 1) * args.batch_size) % (n - args.batch_size)
        xb, yb = x_all[i:i + args.batch_size], y_all[i:i + args.batch_size]
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(ddp(xb), yb)
        loss.backward()
        opt.step()
        if step % args.log_every == 0 or step == 1:
            print(f"[rank{rank}] step {step}/{args.steps} loss {loss.item():.4f} ({(time.time()-t0)/step*1000:.1f} ms/step)")
        time.sleep(0.01)

    dist.barrier()
    if rank == 0:
        print(f"training finished: {args.steps} steps in {time.time()-t0:.1f}s")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
