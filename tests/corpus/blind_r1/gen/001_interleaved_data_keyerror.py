# DDP MLP on JSONL shards; rank 0 prints progress with print().
import argparse
import glob
import json
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class JsonlShard:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.lines = f.readlines()

    def __len__(self):
        return len(self.lines)

    def batch(self, start, size):
        xs, ys = [], []
        for raw in self.lines[start:start + size]:
            rec = json.loads(raw)
            xs.append(rec["x"])
            ys.append([rec["label"]])
        return torch.tensor(xs), torch.tensor(ys)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--log-every", type=int, default=25)
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)

    shards = sorted(glob.glob(os.path.join(args.data, "train-*.jsonl")))
    ds = JsonlShard(shards[rank])
    steps = len(ds) // args.batch_size
    if rank == 0:
        print(f"found {len(shards)} shards, {len(ds)} records per rank, {steps} steps/epoch")

    model = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1))
    model = DDP(model)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps * args.epochs)

    t0 = time.time()
    step = 0
    for epoch in range(args.epochs):
        for b in range(steps):
            step += 1
            x, y = ds.batch(b * args.batch_size, args.batch_size)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            if rank == 0 and (step % args.log_every == 0 or step == 1):
                print(f"epoch {epoch} step {step} loss {loss.item():.5f} lr {sched.get_last_lr()[0]:.2e} "
                      f"elapsed {time.time() - t0:.1f}s")
            time.sleep(0.015)
    if rank == 0:
        print("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
