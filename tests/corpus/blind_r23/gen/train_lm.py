#!/usr/bin/env python
"""Tiny causal-LM pretraining job (DDP, gloo) in the style of an in-house trainer.

Failure scenarios are arranged from the outside (bad files, mounts, limits,
per-node config) where possible; a few process-level ones use the CHAOS env
var ("kind@rank@step[,kind@rank@step]") which is never printed.
"""
import argparse
import datetime
import glob
import json
import os
import signal
import sys
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--seq-len", type=int, default=64)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--epochs", type=int, default=0, help="if >0, train by epochs instead of steps")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--eval-every", type=int, default=50)
    p.add_argument("--eval-batches", type=int, default=4)
    p.add_argument("--ckpt-every", type=int, default=100)
    p.add_argument("--ckpt-dir", default="")
    p.add_argument("--async-ckpt", action="store_true")
    p.add_argument("--ckpt-timeout", type=float, default=30)
    p.add_argument("--resume", default="")
    p.add_argument("--model-config", default=os.environ.get("MODEL_CONFIG", ""))
    p.add_argument("--timeout", type=int, default=30)
    p.add_argument("--log-style", default="std")
    p.add_argument("--quiet-nonzero", action="store_true")
    p.add_argument("--stream", action="store_true", help="stream shards one at a time")
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--eval-report", default="", help="rank 0 writes eval metrics json here")
    p.add_argument("--domain-metrics", action="store_true")
    p.add_argument("--nan-guard", action="store_true")
    p.add_argument("--hf-batches", action="store_true", help="samples are dicts (input_ids, labels, masks...)")
    p.add_argument("--diverge-guard", type=float, default=0.0,
                   help="rank 0 aborts if loss stays above FACTOR x best smoothed loss for 30 steps")
    p.add_argument("--fused-ops", action="store_true", help="use the fused_ops extension for norms")
    p.add_argument("--metrics-push", default="", help="host:port of the metrics gateway (best effort)")
    p.add_argument("--cache-lock", default="", help="take this dataset-cache lock before building loaders")
    p.add_argument("--lr-restart-step", type=int, default=0)
    p.add_argument("--lr-restart-peak", type=float, default=0.0)
    p.add_argument("--prefetch", type=int, default=2)
    p.add_argument("--manual-allreduce", action="store_true", help="average grads by hand instead of DDP")
    return p.parse_args()


CHAOS = {}
for item in filter(None, os.environ.get("CHAOS", "").split(",")):
    k, r, s = item.split("@")
    CHAOS[k] = (int(r), int(s))


def chaos(kind, rank, step):
    if kind in CHAOS:
        r, s = CHAOS[kind]
        return r == rank and step == s
    return False


class StreamShards(torch.utils.data.IterableDataset):
    """Reads the rank's shards one after another (np.load, not mmap) -- like a webdataset."""

    def __init__(self, paths, seq_len, batch, log):
        self.paths, self.seq_len, self.batch, self.log = paths, seq_len, batch, log

    def __iter__(self):
        while True:
            for p in self.paths:
                self.log.info("loading shard %s", os.path.basename(p))
                arr = np.load(p).astype(np.int64)
                n = (len(arr) - 1) // self.seq_len
                order = np.random.permutation(n)
                for j in order:
                    c = torch.from_numpy(arr[j * self.seq_len: (j + 1) * self.seq_len + 1])
                    yield c[:-1], c[1:]


def main():
    args = parse()
    rank, world = common.env_rank(), common.env_world()
    log = common.setup_logging(rank, args.log_style, args.quiet_nonzero)
    local_rank = int(os.environ.get("LOCAL_RANK", os.environ.get("SLURM_LOCALID", 0)))
    log.info("starting: rank=%d local_rank=%d world=%d host=%s pid=%d", rank, local_rank, world,
             os.uname().nodename, os.getpid())
    if rank == 0:
        log.info("args: %s", json.dumps(vars(args), sort_keys=True))

    if args.fused_ops:
        import fused_ops
        log.info("fused_ops %s loaded", fused_ops.version())
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.timeout))
    log.info("process group ready (backend=%s)", dist.get_backend())
    common.seed_all(1234 + rank)

    cfg = {"vocab": 512, "d_model": 64, "n_layer": 2, "n_head": 4}
    if args.model_config:
        with open(args.model_config) as f:
            cfg.update(json.load(f))
        log.info("model config from %s: %s", args.model_config, cfg)
    torch.manual_seed(1234)
    model = common.TinyGPT(cfg["vocab"], cfg["d_model"], cfg["n_layer"], cfg["n_head"], args.seq_len)
    nparams = sum(p.numel() for p in model.parameters())
    if rank == 0:
        log.info("model: TinyGPT %.2fM params", nparams / 1e6)

    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.1, betas=(0.9, 0.95))
    start_step = 0
    if args.resume:
        log.info("resuming from %s", args.resume)
        sd = torch.load(args.resume, map_location="cpu", weights_only=True)
        model.load_state_dict(sd["model"])
        opt.load_state_dict(sd["optim"])
        start_step = sd["step"]
        log.info("resumed at step %d", start_step)
    if args.manual_allreduce:
        for p_ in model.parameters():
            dist.broadcast(p_.data, 0)
        ddp = model
    else:
        ddp = DDP(model)

    if args.cache_lock:
        import fcntl
        log.info("acquiring dataset cache lock %s", args.cache_lock)
        lockf = open(args.cache_lock, "a")
        fcntl.flock(lockf, fcntl.LOCK_EX)
        log.info("dataset cache lock acquired")
        fcntl.flock(lockf, fcntl.LOCK_UN)
    shards = sorted(glob.glob(os.path.join(args.data_dir, "shard_*.npy")))
    mine = shards[rank::world]
    log.info("rank %d assigned %d/%d shards: %s", rank, len(mine), len(shards),
             ",".join(os.path.basename(s) for s in mine))
    if args.stream:
        ds = StreamShards(mine, args.seq_len, args.batch, log)
        loader = torch.utils.data.DataLoader(ds, batch_size=args.batch, num_workers=args.workers)
    else:
        ds = common.TokenShards(mine, args.seq_len, hf=args.hf_batches)
        loader = torch.utils.data.DataLoader(ds, batch_size=args.batch, shuffle=True, drop_last=True,
                                             num_workers=args.workers,
                                             prefetch_factor=args.prefetch if args.workers else None,
                                             persistent_workers=args.workers > 0)
    eval_ds = common.TokenShards(shards[-1:], args.seq_len)
    eval_loader = torch.utils.data.DataLoader(eval_ds, batch_size=args.batch)

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ckpt") if args.async_ckpt else None
    pending = None

    def batches():
        if args.epochs:
            for ep in range(args.epochs):
                log.info("epoch %d: %d batches on this rank", ep, len(loader))
                for b in loader:
                    yield b
        else:
            while True:
                for b in loader:
                    yield b

    def evaluate(step):
        nonlocal pending
        ddp.eval()
        tot, cnt = 0.0, 0
        with torch.no_grad():
            for i, (x, y) in enumerate(eval_loader):
                if i >= args.eval_batches:
                    break
                lo = ddp(x)
                tot += F.cross_entropy(lo.reshape(-1, lo.size(-1)), y.reshape(-1)).item()
                cnt += 1
        t = torch.tensor([tot / max(cnt, 1)])
        gathered = [torch.zeros(1) for _ in range(world)]
        dist.all_gather(gathered, t)
        val = float(np.mean([g.item() for g in gathered]))
        ddp.train()
        if rank == 0:
            log.info("eval step %d: val_loss=%.4f val_ppl=%.2f", step, val, float(np.exp(val)))
            if args.eval_report:
                rec = {"step": step, "val_loss": np.float32(val) if chaos("np32", rank, step) else val,
                       "per_rank": [g.item() for g in gathered]}
                with open(args.eval_report, "a") as f:
                    f.write(json.dumps(rec) + "\n")
        dist.barrier()

    def save(step):
        nonlocal pending
        if not args.ckpt_dir:
            return
        d = os.path.join(args.ckpt_dir, f"step_{step:06d}")
        if args.async_ckpt:
            if pending is not None:
                log.info("waiting for previous async checkpoint")
                pending.result(timeout=args.ckpt_timeout)
            sd = {"model": {k: v.clone() for k, v in model.state_dict().items()},
                  "optim": opt.state_dict(), "step": step, "rank": rank}

            def write():
                os.makedirs(d, exist_ok=True)
                if chaos("slow_writer", rank, step):
                    with open(os.environ["SLOW_FIFO"], "rb") as f:  # blocks: storage stall
                        f.read()
                torch.save(sd, os.path.join(d, f"rank_{rank:02d}.pt"))
                logging_ok(step)

            pending = pool.submit(write)
            log.info("async checkpoint step %d submitted", step)
        else:
            if rank == 0:
                os.makedirs(d, exist_ok=True)
                torch.save({"model": model.state_dict(), "optim": opt.state_dict(), "step": step},
                           os.path.join(d, "model.pt"))
                log.info("saved checkpoint %s", d)
            dist.barrier()

    def logging_ok(step):
        log.info("checkpoint shard for step %d written", step)

    ddp.train()
    t0 = time.time()
    step = start_step
    end = start_step + args.steps
    tokens = 0
    domain_names = ["web", "code", "books"]
    for b in batches():
        if isinstance(b, dict):
            x, y = b["input_ids"], b["labels"]
        else:
            x, y = b
        if not args.epochs and step >= end:
            break
        if chaos("hang_fifo", rank, step):
            log.info("prefetching next shard from %s", os.environ["HANG_FIFO"])
            with open(os.environ["HANG_FIFO"], "rb") as f:
                f.read()
        if chaos("oom_cgroup", rank, step):
            cg = os.environ["OOM_CGROUP"]
            with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
            cache = []
            while True:  # activation-cache leak
                cache.append(torch.ones(16 * 1024 * 1024))
        if chaos("alloc", rank, step):
            # "gather full logits for the perplexity histogram": huge buffer
            buf = torch.empty(int(os.environ.get("ALLOC_ELEMS", 4 * 1024 ** 3)), dtype=torch.float32)
            buf.zero_()
        lr = common.cosine_lr(step, args.lr, args.warmup, end)
        if args.lr_restart_step and step >= args.lr_restart_step:
            lr = args.lr_restart_peak
        for g in opt.param_groups:
            g["lr"] = lr
        logits = ddp(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
        if chaos("nan", rank, step):
            loss = loss * float("inf") * 0.0
        if args.nan_guard and not torch.isfinite(loss):
            raise FloatingPointError(f"non-finite loss {loss.item()} at step {step} on rank {rank}")
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if args.manual_allreduce:
            for p_ in model.parameters():
                dist.all_reduce(p_.grad)
                p_.grad /= world
        gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
        opt.step()
        tokens += x.numel()
        step += 1
        if args.diverge_guard and rank == 0:
            li = loss.item()
            ema = li if step == start_step + 1 else 0.9 * ema + 0.1 * li
            best = ema if step == start_step + 1 else min(best, ema)
            bad = bad + 1 if ema > args.diverge_guard * best else 0
            if bad == 1:
                log.warning("loss spike at step %d: smoothed loss %.3f vs best %.3f", step, ema, best)
            if bad >= 30:
                raise RuntimeError(f"Training diverged: smoothed loss {ema:.3f} has stayed above "
                                   f"{args.diverge_guard}x the best ({best:.3f}) for 30 steps (step {step})")
        if args.domain_metrics and step % 25 == 0:
            counts = {n: int((x % 3 == i).sum()) for i, n in enumerate(domain_names)}
            if chaos("extra_domain", rank, step):
                counts["math"] = 7
            t = torch.tensor(list(counts.values()), dtype=torch.float32)
            dist.all_reduce(t)
            if rank == 0:
                log.info("domain token counts: %s", t.tolist())
        if step % args.log_every == 0 and (rank == 0 or not args.quiet_nonzero):
            dt = time.time() - t0
            log.info("step %d/%d | loss %.4f | lr %.2e | grad_norm %.3f | tok/s %.0f", step, end,
                     loss.item(), lr, gn.item(), tokens / dt)
        elif step % (args.log_every * 5) == 0:
            log.info("step %d loss %.4f", step, loss.item())
        if args.eval_every and step % args.eval_every == 0:
            evaluate(step)
            if args.metrics_push and rank == 0:
                import socket
                try:
                    h, p_ = args.metrics_push.rsplit(":", 1)
                    with socket.create_connection((h, int(p_)), timeout=2) as s_:
                        s_.sendall(json.dumps({"step": step, "loss": loss.item()}).encode())
                except OSError:
                    log.warning("metrics push to %s failed (will retry next eval)", args.metrics_push,
                                exc_info=True)
        if args.ckpt_every and step % args.ckpt_every == 0:
            save(step)
    if pending is not None:
        pending.result(timeout=args.ckpt_timeout)
    log.info("training done: %d steps in %.1fs", step - start_step, time.time() - t0)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
