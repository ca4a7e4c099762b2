"""Small shared helpers for the r18 blind runs: process-group setup, logging, a tiny model."""
import json
import logging
import os
import socket
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

HOST = socket.gethostname()


def env_rank():
    """rank/world/local_rank from torchrun, Slurm or a plain launcher."""
    if "RANK" in os.environ:
        return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ.get("LOCAL_RANK", 0))
    if "SLURM_PROCID" in os.environ:
        return (int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"]),
                int(os.environ.get("SLURM_LOCALID", 0)))
    raise SystemExit("no rank in environment")


class JsonFormatter(logging.Formatter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def format(self, record):
        d = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(record.created)) + ".%03dZ" % record.msecs,
             "level": record.levelname.lower(), "host": HOST, "pid": os.getpid(), "global_rank": self.rank,
             "logger": record.name, "msg": record.getMessage()}
        if record.exc_info:
            d["exc"] = self.formatException(record.exc_info)
        return json.dumps(d)


def make_logger(rank, fmt=None, stream=None):
    """fmt: 'py' (asctime + [rank N]), 'hostpid' ("host:pid [R3]"), 'json', 'bare' (launcher adds the rank)."""
    fmt = fmt or os.environ.get("LOGFMT", "py")
    log = logging.getLogger("train")
    log.handlers.clear()
    log.propagate = False
    h = logging.StreamHandler(stream or sys.stdout)
    if fmt == "json":
        h.setFormatter(JsonFormatter(rank))
    elif fmt == "hostpid":
        h.setFormatter(logging.Formatter(f"%(asctime)s {HOST}:{os.getpid()} [R{rank}] %(levelname)s %(message)s"))
    elif fmt == "bare":
        h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    else:
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s"))
    log.addHandler(h)
    log.setLevel(logging.INFO)
    return log


def init_pg(rank=None, world=None, timeout_s=None):
    if rank is None:
        rank, world, _ = env_rank()
    timeout_s = timeout_s or int(os.environ.get("PG_TIMEOUT", "15"))
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=timeout_s))
    return rank, world


class TinyNet(nn.Module):
    def __init__(self, d_in=32, d_hidden=64, d_out=4):
        super().__init__()
        self.d_in = d_in
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def build(rank, lr=0.05):
    torch.manual_seed(0)
    model = DDP(TinyNet())
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    return model, opt


def batch(rank, step, bs=16, d_in=32):
    g = torch.Generator().manual_seed(1000 * rank + step)
    x = torch.randn(bs, d_in, generator=g)
    y = torch.randint(0, 4, (bs,), generator=g)
    return x, y


def train_step(model, opt, x, y):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss.item()
