#!/usr/bin/env python3
"""Small DDP trainer (CPU, gloo) used to produce real failing runs.

Failure modes are switched on with --fail MODE and --fail-rank R; they cause
real exceptions / signals / hangs, nothing is faked.
"""
import argparse
import datetime as dt
import json
import math
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

WORK = os.environ.get("BLIND_WORK", "/work/blind/r19/work")


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--step-sleep", type=float, default=0.15)
    p.add_argument("--fail", default="none")
    p.add_argument("--fail-rank", type=int, default=-1)
    p.add_argument("--fail-step", type=int, default=20)
    p.add_argument("--fmt", default="plain")
    p.add_argument("--timeout", type=float, default=30.0)
    p.add_argument("--dim", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--ckpt-dir", default="")
    p.add_argument("--ckpt-every", type=int, default=0)
    p.add_argument("--resume", default="")
    p.add_argument("--data", default="")
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--run-id", default="run")
    p.add_argument("--warn", action="store_true", help="emit benign warnings")
    p.add_argument("--rank0-log-only", action="store_true")
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--sigterm-save", action="store_true")
    p.add_argument("--no-ddp", action="store_true", help="manual gradient all-reduce")
    return p.parse_args()


class Logger:
    def __init__(self, fmt, rank, world, only0=False):
        self.fmt, self.rank, self.world, self.only0 = fmt, rank, world, only0

    def __call__(self, msg, level="INFO", **kv):
        if self.only0 and self.rank != 0 and level == "INFO":
            return
        now = dt.datetime.now()
        if self.fmt == "json":
            rec = {"ts": now.isoformat(timespec="milliseconds"), "level": level,
                   "rank": self.rank, "world_size": self.world, "msg": msg}
            rec.update(kv)
            line = json.dumps(rec)
        elif self.fmt == "hf":
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            line = f"[{now:%Y-%m-%d %H:%M:%S},{now.microsecond//1000:03d}] [{level}] [trainer.py:{random.randint(80,400)}] [RANK {self.rank}] {msg} {extra}".rstrip()
        elif self.fmt == "weird":
            extra = ", ".join(f"{k}: {v}" for k, v in kv.items())
            line = f"{now:%H:%M:%S.%f} {level[0]} {msg}{(' | ' + extra) if extra else ''}  (worker {self.rank} of {self.world})"
        elif self.fmt == "bare":
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            line = f"{now:%Y-%m-%dT%H:%M:%S} {msg} {extra}".rstrip()
        else:  # plain
            extra = " | ".join(f"{k} {v}" for k, v in kv.items())
            line = f"{now:%Y-%m-%d %H:%M:%S} | {level:<5} | rank {self.rank}/{self.world} | {msg}{(' | ' + extra) if extra else ''}"
        print(line, flush=True)


class Net(nn.Module):
    def __init__(self, dim, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(torch.relu(self.fc2(torch.relu(self.fc1(x))))).squeeze(-1)


def make_batch(g, dim, bs=16, dtype=torch.float32):
    x = torch.randn(bs, dim, generator=g, dtype=dtype)
    y = x[:, :4].sum(-1).float() * 0.5
    return x, y


def main(rank=None, world=None, args=None):
    args = args or parse()
    if rank is None:
        rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", 0)))
        world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", 1)))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    local_rank = int(os.environ.get("LOCAL_RANK", os.environ.get("SLURM_LOCALID", rank)))
    log = Logger(args.fmt, rank, world, args.rank0_log_only)
    torch.set_num_threads(1)
    torch.manual_seed(1234)
    fr = args.fail_rank
    me = rank == fr

    if args.fail == "import" and me:
        # optional fused kernel enabled by config on this node
        if os.environ.get("USE_FUSED_LAYERNORM") == "1":
            log("using fused layernorm kernels (USE_FUSED_LAYERNORM=1)")
            import fused_layer_norm_cuda  # noqa: F401

    log("initializing process group", backend="gloo", master=f"{os.environ['MASTER_ADDR']}:{os.environ.get('MASTER_PORT')}")
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=dt.timedelta(seconds=args.timeout))
    log("process group ready", local_rank=local_rank)

    if args.fail == "hub" and local_rank == 0:
        url = os.environ.get("TOKENIZER_URL", "http://127.0.0.1:24999/tok.json")
        log("downloading tokenizer files", url=url)
        import urllib.request
        urllib.request.urlopen(url, timeout=10).read()
    if args.fail == "hub":
        dist.barrier()

    dim = args.dim
    model = Net(dim)
    if args.resume:
        path = args.resume.format(rank=rank)
        log("resuming from checkpoint", path=path)
        sd = torch.load(path, map_location="cpu", weights_only=True)
        model.load_state_dict(sd["model"])
        log("checkpoint loaded", step=sd.get("step"))
    ddp = model if args.no_ddp else DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=args.lr, momentum=0.9)
    g = torch.Generator().manual_seed(1000 + rank)

    sched = None
    if args.warn:
        # genuine library warnings, harmless
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1000, gamma=0.5)
        sched.step()  # called before the first optimizer.step()
        _ = torch.tensor(torch.zeros(2))

    steps = args.steps
    if args.fail == "early_exit" and me:
        steps = args.fail_step  # this rank's shard is shorter
        log("data shard loaded", samples=steps * 16, batches=steps)
    elif args.fail == "early_exit":
        log("data shard loaded", samples=steps * 16, batches=steps)

    # background prefetcher (used by thread_exc)
    q = None
    if args.fail == "thread_exc":
        q = queue.Queue(maxsize=4)

        def prefetch():
            for i in range(steps + 5):
                if me and i == args.fail_step:
                    raw = b"\x7b\x22text\x22: \x22caf\xe9 au lait\x22}"
                    raw.decode("utf-8")  # bad sample in this shard
                q.put(make_batch(g, dim))
        t = threading.Thread(target=prefetch, name="Thread-2 (prefetch)", daemon=True)
        t.start()

    jsonl = None
    if args.fail == "jsondecode" or args.data:
        jsonl = open(args.data.format(rank=rank))

    dl_iter = None
    if args.fail == "busdl" or args.workers:
        from torch.utils.data import DataLoader
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from mmds import MMapDataset
        ds = MMapDataset(os.path.join(WORK, args.run_id, f"shard{rank}.bin"), dim)
        dl = DataLoader(ds, batch_size=16, num_workers=args.workers or 2, shuffle=False)
        dl_iter = iter(dl)

    fds = []
    losses = []
    if args.sigterm_save:
        def on_term(signum, frame):
            log(f"received signal {signum} (SIGTERM), saving emergency checkpoint and exiting", level="WARNING")
            sys.stdout.flush()
            sys.exit(143)
        signal.signal(signal.SIGTERM, on_term)

    t0 = time.time()
    for step in range(1, steps + 1):
        # ---- data
        if q is not None:
            x, y = q.get()
        elif dl_iter is not None:
            try:
                x = next(dl_iter)
            except StopIteration:
                dl_iter = iter(dl)
                x = next(dl_iter)
            y = x[:, :4].sum(-1) * 0.5
        elif jsonl is not None:
            rows = []
            for _ in range(16):
                line = jsonl.readline()
                if not line:
                    jsonl.seek(0)
                    line = jsonl.readline()
                rec = json.loads(line)
                rows.append(rec["x"])
            x = torch.tensor(rows, dtype=torch.float32)
            y = x[:, :4].sum(-1) * 0.5
        else:
            x, y = make_batch(g, dim)

        if me and step == args.fail_step:
            f = args.fail
            if f == "fifo_read":
                p = os.path.join(WORK, args.run_id, "shard_index.fifo")
                with open(p) as fh:  # blocks: nobody writes the pipe
                    fh.read()
            elif f == "memhog":
                hog = []
                while True:
                    hog.append(torch.ones(64 * 1024 * 1024 // 4))  # 64 MiB each
                    time.sleep(0.05)
            elif f == "alloc":
                # eval cache: allocate a big activation buffer
                buf = torch.empty(int(6e9) // 4, dtype=torch.float32)
                buf.zero_()
            elif f == "shape":
                x = torch.randn(16, dim + 16, generator=g)
            elif f == "dtype":
                x = x.double()
            elif f == "nan":
                x[3, 5] = float("inf")
                x[7, 1] = -float("inf")
            elif f == "segfault":
                import ctypes
                import faulthandler
                faulthandler.enable()
                ctypes.string_at(0)
            elif f == "abort":
                import faulthandler
                faulthandler.enable()
                os.abort()
            elif f == "subproc_hang":
                log("running post-step hook", cmd="hooks/upload_metrics.sh")
                subprocess.run(["bash", os.path.join(WORK, args.run_id, "upload_metrics.sh")], check=True)
            elif f == "flock_hang":
                pass  # handled at checkpoint time
            elif f == "emfile":
                pass
        if args.fail == "emfile" and step >= 2:
            # per-sample side files are opened and never closed (leak);
            # this rank's shard has many more sample files
            n = 40 if me else 1
            for i in range(n):
                fds.append(open(os.path.join(WORK, args.run_id, "samples", f"s{(step * 40 + i) % 500}.npy"), "rb"))

        if args.fail == "shape_collective" and me and step == args.fail_step:
            stats = torch.zeros(5)
        else:
            stats = torch.zeros(4)
        if args.fail == "shape_collective" and step >= args.fail_step - 1:
            dist.all_reduce(stats)

        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if args.fail == "diverge" and step >= args.fail_step:
            for pg in opt.param_groups:
                pg["lr"] = args.lr * (1.6 ** (step - args.fail_step + 1))
        if not math.isfinite(loss.item()):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}; stopping (check data / lower lr)")
        opt.zero_grad()
        loss.backward()
        if args.no_ddp:
            for prm in model.parameters():
                dist.all_reduce(prm.grad)
                prm.grad /= world
        gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1e9)
        opt.step()
        losses.append(loss.item())
        if args.fail == "diverge" and rank == 0 and len(losses) > 30:
            best = min(losses[:-10])
            if all(l > 20 * best for l in losses[-8:]):
                raise RuntimeError(f"Training diverged: loss {losses[-1]:.4g} > 20x best {best:.4g} for 8 consecutive steps")
        if step % args.log_every == 0 or step == 1:
            el = time.time() - t0
            log(f"step {step}/{args.steps}", loss=f"{loss.item():.4f}", grad_norm=f"{gn.item():.3f}",
                lr=f"{opt.param_groups[0]['lr']:.4g}", it_s=f"{step/el:.2f}")

        if args.ckpt_every and step % args.ckpt_every == 0:
            path = args.ckpt_dir.format(rank=rank, step=step)
            log("saving checkpoint", step=step, path=path)
            if args.fail == "flock_hang" and me and step >= args.fail_step:
                import fcntl
                lockp = os.path.join(os.path.dirname(path), ".ckpt.lock")
                lf = open(lockp, "a")
                fcntl.flock(lf, fcntl.LOCK_EX)  # held by a stale writer
            os.makedirs(path, exist_ok=True)
            torch.save({"model": model.state_dict(), "optim": opt.state_dict(), "step": step,
                        "pad": torch.zeros(200_000)}, os.path.join(path, f"shard_rank{rank:02d}.pt"))
            dist.barrier()
            log("checkpoint saved", step=step)
        time.sleep(args.step_sleep)

    if args.fail == "early_exit" and me:
        log("epoch finished, no more batches in shard", batches=steps)
        log("training complete, exiting")
        return
    dist.barrier()
    log("training finished", steps=steps, final_loss=f"{losses[-1]:.4f}", elapsed_s=f"{time.time()-t0:.1f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
