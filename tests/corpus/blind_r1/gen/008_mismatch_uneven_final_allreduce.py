# DDP MLP over a DataLoader of this rank's shard; epoch stats all-reduced at the end.
import argparse
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data")
    p.add_argument("--bs", type=int, default=32)
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    blob = torch.load(os.path.join(args.data, f"part{rank}.pt"))
    loader = DataLoader(TensorDataset(blob["x"], blob["y"]), batch_size=args.bs, shuffle=True, drop_last=True)
    print(f"rank{rank}: {len(loader)} batches per epoch", flush=True)
    model = DDP(nn.Sequential(nn.Linear(12, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_sum = torch.zeros(2)
    for step, (x, y) in enumerate(loader, 1):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_sum += torch.tensor([loss.item() * len(x), len(x)])
        if step % 25 == 0:
            print(f"rank{rank}: step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.02)
    dist.all_reduce(loss_sum)
    if rank == 0:
        print(f"epoch mean loss {loss_sum[0] / loss_sum[1]:.4f} over {int(loss_sum[1])} samples", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
