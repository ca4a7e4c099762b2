# DDP on "image" shards with a memoizing decoder; per-rank progress with print().
import argparse
import json
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return -1.0


class ImageShard:
    def __init__(self, meta_path):
        with open(meta_path) as f:
            self.meta = json.load(f)
        self.cache = {}  # sample id -> decoded tensor

    def decode(self, idx):
        if idx not in self.cache:
            h = w = self.meta["resolution"]
            g = torch.Generator().manual_seed(self.meta["seed"] * 100003 + idx)
            self.cache[idx] = torch.rand(1, h, w, generator=g)
        return self.cache[idx]

    def batch(self, start, n):
        imgs = [F.adaptive_avg_pool2d(self.decode(i), (4, 4)).flatten() for i in range(start, start + n)]
        x = torch.stack(imgs)
        y = x.mean(1, keepdim=True) * 3.0 - 1.5
        return x, y


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data")
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch-size", type=int, default=32)
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    ds = ImageShard(os.path.join(args.data, f"meta_{rank}.json"))
    print(f"rank {rank}/{world} | shard {ds.meta['name']} | rss {rss_mb():.0f} MB", flush=True)
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(1, args.steps + 1):
        x, y = ds.batch((step - 1) * args.batch_size, args.batch_size)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"rank {rank} | step {step:4d} | loss {loss.item():.5f} | rss {rss_mb():.0f} MB", flush=True)
        time.sleep(0.03)
    print(f"rank {rank} | finished", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
