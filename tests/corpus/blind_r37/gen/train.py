#!/usr/bin/env python3
"""Tiny DDP training job (CPU, gloo) used to produce real failing and healthy runs.

Behaviour is picked by environment variables so that the launch lines look ordinary:
  JOB_MODE   what goes wrong (see the hooks below); "" for a normal run
  JOB_BAD    the global rank on which it goes wrong
  JOB_AT     the step at which it goes wrong
  JOB_STYLE  print | logging | json | bar | trainer
  JOB_STEPS  number of steps, JOB_TIMEOUT the process-group timeout in seconds
  JOB_DIR    scratch directory (checkpoints, data shards, FIFOs)
"""
import ctypes
import faulthandler
import datetime as dt
import json
import logging
import math
import mmap
import os
import signal
import sys
import threading
import time
import urllib.request

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

MODE = os.environ.get("JOB_MODE", "")
BAD = int(os.environ.get("JOB_BAD", "-1"))
AT = int(os.environ.get("JOB_AT", "5"))
STYLE = os.environ.get("JOB_STYLE", "print")
STEPS = int(os.environ.get("JOB_STEPS", "12"))
TIMEOUT = int(os.environ.get("JOB_TIMEOUT", "30"))
WORKDIR = os.environ.get("JOB_DIR", "/tmp/jobdir")
SLEEP = float(os.environ.get("JOB_SLEEP", "0.3"))
WORKERS = int(os.environ.get("JOB_WORKERS", "0"))
HANGDUMP = int(os.environ.get("JOB_HANGDUMP", "0"))

RANK = 0
WORLD = 1
_log = None


def setup_logging():
    global _log
    if STYLE == "logging":
        logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                            format=f"%(asctime)s %(levelname)s [rank{RANK}] %(name)s: %(message)s")
        _log = logging.getLogger("train")
    elif STYLE == "trainer":
        logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                            format=f"[%(asctime)s][minitrainer][%(levelname)s][Rank {RANK}] %(message)s")
        _log = logging.getLogger("minitrainer")


def log(msg, level="info", **fields):
    if STYLE in ("logging", "trainer"):
        getattr(_log, level)(msg + ("" if not fields else " " + " ".join(f"{k}={v}" for k, v in fields.items())))
    elif STYLE == "json":
        rec = {"ts": dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds"), "level": level.upper(),
               "rank": RANK, "msg": msg, **fields}
        print(json.dumps(rec), flush=True)
    else:
        extra = "" if not fields else " " + " ".join(f"{k}={v}" for k, v in fields.items())
        print(f"{msg}{extra}", flush=True)


class Shards(Dataset):
    """Samples read from small JSON-lines shard files (made by the launcher script)."""

    def __init__(self, rank, n):
        self.rank, self.n = rank, n
        self.open_handles = []

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(1000 * self.rank + i)
        x = torch.randn(16, generator=g)
        y = x.sum(dim=0, keepdim=True) * 0.1
        if self.rank == BAD and MODE == "badjson" and i == AT * 8:
            path = os.path.join(WORKDIR, "shards", "shard-00017.jsonl")
            with open(path) as f:
                for line in f:
                    rec = json.loads(line)
                    x = torch.tensor(rec["features"], dtype=torch.float32)
        if self.rank == BAD and MODE == "dl_segv" and i == AT * 8:
            # a native decoder reading a NULL buffer
            ctypes.string_at(0)
        if self.rank == BAD and MODE == "dl_bus" and i == AT * 8:
            p = "/dev/shm/r37_batchbuf_%d" % os.getpid()
            with open(p, "wb") as f:
                f.truncate(1 << 20)
            f = open(p, "r+b")
            m = mmap.mmap(f.fileno(), 1 << 20)
            os.truncate(p, 0)
            os.unlink(p)
            _ = m[4096 * 10]
        if self.rank == BAD and MODE == "emfile" and i >= AT * 8:
            idx = os.path.join(WORKDIR, "shards")
            for name in sorted(os.listdir(idx)):
                self.open_handles.append(open(os.path.join(idx, name)))
        if self.rank == BAD and MODE == "dtype" and i >= AT * 8:
            x = x.double()
        if self.rank == BAD and MODE == "shape" and i >= AT * 8:
            x = torch.cat([x, torch.ones(1)])
        if self.rank == BAD and MODE == "nan" and i == AT * 8 + 3:
            x[3] = float("inf")
        if self.rank == BAD and MODE == "fifo_read" and i == AT * 8:
            with open(os.path.join(WORKDIR, "shards", "shard-00031.jsonl")) as f:  # a FIFO nobody writes
                f.readline()
        return x, y


def join_cgroup_and_grow():
    cg = f"/sys/fs/cgroup/memory/r37_{os.environ.get('RUN_ID', 'x')}_{RANK}"
    os.makedirs(cg, exist_ok=True)
    with open(cg + "/memory.limit_in_bytes", "w") as f:
        f.write(str(600 * 1024 * 1024))
    with open(cg + "/cgroup.procs", "w") as f:
        f.write(str(os.getpid()))


class AsyncSaver:
    def __init__(self):
        self.thread = None
        self.error = None

    def save(self, state, path):
        if self.thread is not None and self.thread.is_alive():
            log(f"waiting for previous checkpoint save to finish before saving {path}")
            self.thread.join()
        if self.thread is not None and self.error is None and getattr(self, "_failed", False):
            pass

        def work():
            tmp = path + ".tmp"
            torch.save(state, tmp)
            os.replace(tmp, path)

        def run():
            try:
                work()
            except BaseException as e:
                self._failed = True
                raise

        self.thread = threading.Thread(target=run, name=f"ckpt-writer-{os.path.basename(path)}", daemon=True)
        self.thread.start()

    def check(self):
        if getattr(self, "_failed", False):
            raise RuntimeError("async checkpoint writer thread exited without completing the save")


def _write_metrics(lock, step, loss):
    with lock:  # re-entered from flush_metrics: a non-reentrant lock
        with open(os.path.join(WORKDIR, f"metrics_{RANK}.jsonl"), "a") as f:
            f.write(json.dumps({"step": step, "loss": loss}) + "\n")


def flush_metrics(lock, step, loss):
    with lock:
        _write_metrics(lock, step, loss)


def main():
    global RANK, WORLD
    if "RANK" in os.environ:
        RANK, WORLD = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    else:
        RANK, WORLD = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    run(RANK, WORLD)


def run(rank, world):
    global RANK, WORLD
    RANK, WORLD = rank, world
    setup_logging()
    os.makedirs(WORKDIR, exist_ok=True)
    if MODE == "cg_oom" and rank == BAD:
        join_cgroup_and_grow()
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=dt.timedelta(seconds=TIMEOUT))
    log(f"initialized process group rank={rank} world_size={world} backend=gloo")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))

    if MODE == "hub" and rank == BAD:
        url = "http://127.0.0.1:45991/api/models/acme/tiny-lm/resolve/main/config.json"
        log(f"downloading model config from {url}")
        with urllib.request.urlopen(url, timeout=10) as r:
            cfg = json.load(r)
    if MODE in ("resume_corrupt",) and rank == BAD:
        p = os.path.join(WORKDIR, "ckpt", "step_000400.pt")
        log(f"resuming from {p}")
        sd = torch.load(p, map_location="cpu")
        model.load_state_dict(sd["model"])
    if MODE == "resume_keys":
        p = os.path.join(WORKDIR, "ckpt", "step_000400.pt")
        log(f"resuming from {p}")
        sd = torch.load(p, map_location="cpu")
        model.load_state_dict(sd["model"])
    for prm in model.parameters():
        dist.broadcast(prm.data, src=0)
    ddp = model if os.environ.get("JOB_NODDP") else DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("JOB_LR", "0.05")))
    n = STEPS * 8
    if MODE == "early_exit" and rank == BAD:
        n = AT * 8  # this rank's shard list is shorter
    ds = Shards(rank, n)
    dl = DataLoader(ds, batch_size=8, num_workers=WORKERS, shuffle=False)
    saver = AsyncSaver()
    stop = {"flag": False}
    if MODE == "sigterm_ok":
        def on_term(sig, frame):
            log("received SIGTERM: will save a checkpoint and exit", level="warning")
            stop["flag"] = True
        signal.signal(signal.SIGTERM, on_term)
    if rank == 0 and STYLE != "json":
        import warnings
        warnings.warn("torch.distributed: the 'gloo' backend is being used on CPU; performance will be limited",
                      UserWarning)
    lock = threading.Lock()
    hog = []
    t0 = time.time()
    step = 0
    loss_hist = []
    for step, (x, y) in enumerate(dl, start=1):
        if MODE == "hang_io" and rank == BAD and step == AT:
            # read the next shard index from a path that never answers (a FIFO with no writer)
            with open(os.path.join(WORKDIR, "shards", "index.fifo")) as f:
                f.read()
        if MODE == "mbarrier" and rank == BAD and step == AT:
            # open the validation index before the eval barrier: a FIFO nobody writes
            with open(os.path.join(WORKDIR, "shards", "val_index.fifo")) as f:
                f.read()
        if MODE == "mbarrier" and step == AT:
            dist.monitored_barrier(timeout=dt.timedelta(seconds=20), wait_all_ranks=True)
        if MODE == "zerodiv" and rank == BAD and step == AT:
            warmup = int(os.environ.get("WARMUP_STEPS", "0"))
            for g in opt.param_groups:
                g["lr"] = g["lr"] * min(1.0, step / warmup)
        if MODE == "cg_oom" and rank == BAD and step >= AT:
            for _ in range(40):
                hog.append(torch.ones(32 * 1024 * 1024 // 4 * 8))  # keeps activations "for debugging"
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if MODE == "diverge" and step >= AT:
            for g in opt.param_groups:
                g["lr"] = 3.0
        if not torch.isfinite(loss):
            log(f"non-finite loss {loss.item()} at step {step}", level="error")
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}; stopping (check the data and the learning rate)")
        opt.zero_grad()
        loss.backward()
        if ddp is model:  # hand-rolled data parallel: average the gradients
            for prm in model.parameters():
                dist.all_reduce(prm.grad)
                prm.grad /= WORLD
        opt.step()
        lv = loss.item()
        loss_hist.append(lv)
        if MODE == "diverge" and step > AT + 3 and lv > 50 * min(loss_hist):
            raise RuntimeError(f"training diverged: loss {lv:.4g} at step {step} is {lv / min(loss_hist):.0f}x the best loss {min(loss_hist):.4g}")
        if MODE == "mismatch" and step == AT:
            stats = torch.tensor([lv, float(step)] + ([float(len(x))] if rank == BAD else []))
            dist.all_reduce(stats)
        if STYLE == "bar":
            done = int(30 * step / STEPS)
            el = time.time() - t0
            sys.stdout.write(f"\rEpoch 0: {100 * step // STEPS:3d}%|{'#' * done}{' ' * (30 - done)}| {step}/{STEPS} "
                             f"[{int(el):02d}s, loss={lv:.4f}]")
            sys.stdout.flush()
        elif STYLE == "json":
            log("train_step", step=step, loss=round(lv, 5), lr=opt.param_groups[0]["lr"])
        else:
            log(f"step {step}/{STEPS} loss {lv:.5f} lr {opt.param_groups[0]['lr']:.3g} "
                f"{(time.time() - t0) / step:.3f}s/it")
        if MODE in ("ckpt_thread", "ckpt_hang", "ckpt_enospc", "") and step % 4 == 0 and rank == (BAD if BAD >= 0 else 0):
            saver.check()
            cdir = os.environ.get("JOB_CKPT_DIR", os.path.join(WORKDIR, "ckpt"))
            os.makedirs(cdir, exist_ok=True)
            path = os.path.join(cdir, f"step_{step:06d}.pt")
            if MODE == "ckpt_enospc":
                log(f"saving checkpoint to {path}")
                torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "blob": torch.zeros(1 << 20)}, path)
                log(f"saved checkpoint {path}")
            else:
                log(f"saving checkpoint asynchronously to {path}")
                saver.save({"model": model.state_dict(), "step": step}, path)
        if MODE == "deadlock" and rank == BAD and step == AT:
            flush_metrics(lock, step, lv)
        if HANGDUMP:
            faulthandler.cancel_dump_traceback_later()
            faulthandler.dump_traceback_later(HANGDUMP, repeat=False)
        if MODE == "sigterm_ok" and stop["flag"]:
            log(f"stopping at step {step} after SIGTERM; checkpoint saved", level="warning")
            break
        if MODE == "warn_retry" and step == AT and rank == BAD:
            for attempt in (1, 2):
                try:
                    if attempt == 1:
                        raise ConnectionResetError(104, "Connection reset by peer")
                    log("metrics upload succeeded on retry")
                except ConnectionResetError as e:
                    log(f"metrics upload failed ({e!r}); retrying in 0.5s", level="warning")
                    time.sleep(0.5)
        time.sleep(SLEEP)
    if STYLE == "bar":
        sys.stdout.write("\n")
    if saver.thread is not None:
        saver.thread.join()
    if MODE == "early_exit" and rank == BAD:
        log(f"data exhausted after {step} steps; training finished")
        dist.destroy_process_group()
        return
    dist.barrier()
    log(f"training finished: {step} steps in {time.time() - t0:.1f}s")
    dist.destroy_process_group()


def spawn_entry(rank, world):
    os.environ["RANK"], os.environ["WORLD_SIZE"] = str(rank), str(world)
    run(rank, world)


if __name__ == "__main__":
    if os.environ.get("JOB_SPAWN"):
        import torch.multiprocessing as mp
        mp.spawn(spawn_entry, args=(int(os.environ["JOB_SPAWN"]),), nprocs=int(os.environ["JOB_SPAWN"]))
    else:
        main()
