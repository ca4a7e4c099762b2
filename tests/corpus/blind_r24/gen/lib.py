"""Shared helpers for the r24 blind-run generators (tiny CPU models, gloo)."""
import datetime
import faulthandler
import json
import logging
import os
import sys
import threading
import time

sys.path.insert(0, "/work/blind/r24/pylib")  # tqdm

import torch
import torch.distributed as dist
import torch.nn as nn

RANK = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", 0)))
WORLD = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", 1)))
LOCAL_RANK = int(os.environ.get("LOCAL_RANK", os.environ.get("SLURM_LOCALID", 0)))
HOST = os.environ.get("FAKE_HOST", "vm")


def init(timeout=30, prefix_store=True):
    torch.set_num_threads(1)
    td = datetime.timedelta(seconds=timeout)
    rc = os.environ.get("TORCHELASTIC_RESTART_COUNT")
    if prefix_store and rc is not None:
        # work around stale gloo peer addresses in the agent store after an elastic restart
        store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                              is_master=False, timeout=td)
        dist.init_process_group("gloo", store=dist.PrefixStore(f"attempt_{rc}", store),
                                rank=RANK, world_size=WORLD, timeout=td)
    else:
        dist.init_process_group("gloo", timeout=td)
    torch.manual_seed(1234)
    return dist.get_rank(), dist.get_world_size()


class Log:
    """style: logging | print | json | prefix"""

    def __init__(self, style="logging", name="train"):
        self.style = style
        if style == "logging":
            logging.basicConfig(
                level=logging.INFO,
                format=f"%(asctime)s %(levelname)s [rank{RANK}] %(name)s: %(message)s",
                stream=sys.stdout,
            )
            self.lg = logging.getLogger(name)
        elif style == "logging_norank":
            logging.basicConfig(
                level=logging.INFO,
                format="%(asctime)s - %(name)s - %(levelname)s - %(message)s",
                stream=sys.stdout,
            )
            self.lg = logging.getLogger(name)

    def _emit(self, level, msg, **kv):
        if self.style in ("logging", "logging_norank"):
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            getattr(self.lg, level.lower())(msg + ((" " + extra) if extra else ""))
        elif self.style == "json":
            rec = {"ts": datetime.datetime.now().isoformat(timespec="milliseconds"),
                   "level": level, "rank": RANK, "host": HOST, "msg": msg}
            rec.update(kv)
            print(json.dumps(rec), flush=True)
        elif self.style == "prefix":
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            print(f"[rank{RANK}] {msg} {extra}".rstrip(), flush=True)
        else:  # plain print, no rank
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            print(f"{msg} {extra}".rstrip(), flush=True)

    def info(self, msg, **kv):
        self._emit("INFO", msg, **kv)

    def warning(self, msg, **kv):
        self._emit("WARNING", msg, **kv)

    def error(self, msg, **kv):
        self._emit("ERROR", msg, **kv)


def model(hidden=64, vocab=None):
    torch.manual_seed(0)
    if vocab:
        return nn.Sequential(nn.Embedding(vocab, hidden), nn.Flatten(), nn.Linear(hidden * 8, 1))
    return nn.Sequential(nn.Linear(32, hidden), nn.ReLU(), nn.Linear(hidden, 1))


def batch(step, rank, bs=16):
    g = torch.Generator().manual_seed(step * 1000 + rank)
    x = torch.randn(bs, 32, generator=g)
    y = x.sum(dim=1, keepdim=True) * 0.1
    return x, y


def allreduce_grads(m):
    ws = dist.get_world_size()
    for p in m.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= ws


def progress_watchdog(get_last, stall=15, log=None):
    """Dump all thread stacks once when no step finished for `stall` seconds."""

    def run():
        fired = False
        while True:
            time.sleep(1)
            if not fired and time.time() - get_last() > stall:
                fired = True
                msg = f"no training progress for {stall}s on rank {RANK}; dumping stacks"
                if log:
                    log.warning(msg)
                else:
                    print(msg, flush=True)
                sys.stdout.flush()
                faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
                sys.stderr.flush()

    t = threading.Thread(target=run, name="progress-watchdog", daemon=True)
    t.start()
    return t
