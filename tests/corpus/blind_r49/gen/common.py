"""Shared helpers for the r49 generator scripts (CPU, gloo)."""
import datetime
import os

import torch
import torch.distributed as dist
import torch.nn as nn


def env_rank():
    for k in ("RANK", "SLURM_PROCID"):
        if k in os.environ:
            return int(os.environ[k])
    return 0


def env_world():
    for k in ("WORLD_SIZE", "SLURM_NTASKS"):
        if k in os.environ:
            return int(os.environ[k])
    return 1


def init(timeout_s=40, rank=None, world=None):
    rank = env_rank() if rank is None else rank
    world = env_world() if world is None else world
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "58999")
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=timeout_s))
    torch.manual_seed(1234 + rank)
    torch.set_num_threads(1)
    return rank, world


class MLP(nn.Module):
    def __init__(self, d_in=32, d_h=64, d_out=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_h), nn.ReLU(), nn.Linear(d_h, d_h), nn.ReLU(),
                                 nn.Linear(d_h, d_out))

    def forward(self, x):
        return self.net(x)


def make_data(n=512, d_in=32, n_cls=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(d_in, n_cls, generator=g)
    x = torch.randn(n, d_in, generator=g)
    y = (x @ w).argmax(1)
    return x, y
