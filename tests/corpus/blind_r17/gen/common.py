"""Shared helpers for r17 generator scripts (tiny DDP models on gloo/CPU)."""
import datetime
import json
import logging
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

TO = int(os.environ.get("PG_TIMEOUT", "15"))
LOGSTYLE = os.environ.get("LOGSTYLE", "print")


def make_logger(rank, world):
    if LOGSTYLE == "logging":
        fmt = f"%(asctime)s [rank{rank}/{world}] %(levelname)s %(name)s: %(message)s"
        logging.basicConfig(level=logging.INFO, format=fmt, stream=sys.stdout)
        return logging.getLogger("trainer").info
    if LOGSTYLE == "json":
        def _j(msg):
            print(json.dumps({"ts": round(time.time(), 3), "rank": rank, "msg": msg}), flush=True)
        return _j
    if LOGSTYLE == "bare":
        def _b(msg):
            print(msg, flush=True)
        return _b

    def _p(msg):
        print(f"[{datetime.datetime.now():%H:%M:%S}] rank {rank}: {msg}", flush=True)
    return _p


def init(rank=None, world=None, timeout=None):
    if rank is not None:
        os.environ["RANK"] = str(rank)
        os.environ["LOCAL_RANK"] = str(rank)
        os.environ["WORLD_SIZE"] = str(world)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=timeout or TO))
    rank, world = dist.get_rank(), dist.get_world_size()
    log = make_logger(rank, world)
    log(f"process group ready: backend=gloo rank={rank} world_size={world}")
    torch.manual_seed(0)
    return rank, world, log


class Net(nn.Module):
    def __init__(self, d_in=32, hidden=64, n_out=4, extra=False):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_out)
        self.aux = nn.Linear(hidden, n_out)
        self.extra = nn.Linear(hidden, hidden) if extra else None

    def forward(self, x, use_aux=True):
        h = F.relu(self.fc1(x))
        if self.extra is not None:
            h = F.relu(self.extra(h))
        out = self.fc2(h)
        if use_aux:
            out = out + 0.1 * self.aux(h)
        return out


def make_batch(rank, step, bs=16, d_in=32):
    g = torch.Generator().manual_seed(1000 * rank + step)
    return torch.randn(bs, d_in, generator=g), torch.randint(0, 4, (bs,), generator=g)


def reduce_loss(loss, world):
    t = loss.detach().clone()
    dist.all_reduce(t)
    return t.item() / world
