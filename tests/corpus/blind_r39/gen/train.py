#!/usr/bin/env python
"""Small text-classification trainer used for all runs (CPU, gloo).

Launch with torchrun, srun (SLURM_PROCID etc.) or `--spawn N` (torch.multiprocessing.spawn).
"""
import argparse
import contextlib
import datetime
import errno
import fcntl
import io
import json
import logging
import math
import os
import queue
import socket
import sys
import threading
import time
import concurrent.futures as cf

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--shard-dir", default=None, help="per-rank token shards (memmap)")
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--bs", type=int, default=4)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--dl-timeout", type=float, default=0)
    p.add_argument("--log-style", default="print", choices=["print", "logging", "json", "bar", "trainer"])
    p.add_argument("--ckpt-dir", default=None)
    p.add_argument("--save-every", type=int, default=0)
    p.add_argument("--sharded-ckpt", action="store_true")
    p.add_argument("--resume", default=None)
    p.add_argument("--resume-strict", type=int, default=1)
    p.add_argument("--pg-timeout", type=float, default=30)
    p.add_argument("--step-sleep", type=float, default=0.05)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--vocab-from-data", action="store_true")
    p.add_argument("--aux-head", action="store_true")
    p.add_argument("--metrics-writer", type=int, default=-1)
    p.add_argument("--prefetch-thread", action="store_true")
    p.add_argument("--progress-hook", action="store_true")
    p.add_argument("--target-loss", type=float, default=0)
    p.add_argument("--global-early-stop", type=int, default=0)
    p.add_argument("--async-save", type=float, default=0, help="deadline in s for the background save")
    p.add_argument("--object-store", default=None)
    p.add_argument("--skip-nonfinite", choices=["local", "agreed"], default=None)
    p.add_argument("--eval-every", type=int, default=0)
    p.add_argument("--eval-data", default=None)
    p.add_argument("--gather-stats-every", type=int, default=0)
    p.add_argument("--source-retries", type=int, default=0)
    p.add_argument("--source-port", type=int, default=0)
    p.add_argument("--restart-loader", action="store_true")
    p.add_argument("--worker-mem-cgroup", default=None)
    p.add_argument("--rank-mem-cgroup", default=None)
    p.add_argument("--feature-cache", action="store_true")
    p.add_argument("--native-tokenizer", action="store_true")
    p.add_argument("--nan-check", action="store_true")
    p.add_argument("--keep-ckpts", type=int, default=0)
    p.add_argument("--spawn", type=int, default=0)
    p.add_argument("--no-destroy", action="store_true")
    return p.parse_args(argv)


# ----------------------------------------------------------------------------- logging

class Out:
    def __init__(self, style, rank, world):
        self.style, self.rank, self.world = style, rank, world
        self.log = logging.getLogger("train")
        if style == "logging":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format=f"%(asctime)s %(levelname)s [%(name)s] rank={rank}: %(message)s")

    def info(self, msg, **kv):
        self._emit("INFO", msg, kv)

    def warning(self, msg, **kv):
        self._emit("WARNING", msg, kv)

    def error(self, msg, **kv):
        self._emit("ERROR", msg, kv)

    def _emit(self, level, msg, kv):
        if self.style == "logging":
            self.log.log(getattr(logging, level), msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())))
        elif self.style == "json":
            rec = {"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": level.lower(),
                   "rank": self.rank, "msg": msg, **kv}
            print(json.dumps(rec), flush=True)
        elif self.style == "trainer":
            print(f"[MiniTrainer][{level[0]}] {msg}" + "".join(f" | {k} {v}" for k, v in kv.items()), flush=True)
        else:
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            prefix = "" if level == "INFO" else level + ": "
            print(f"{prefix}{msg} {extra}".rstrip(), flush=True)

    def step(self, epoch, step, total, loss, dt):
        if self.style == "bar":
            if self.rank == 0:
                n = int(20 * step / max(total, 1))
                sys.stdout.write(f"\rEpoch {epoch}: {100*step//max(total,1):3d}%|{'#'*n}{' '*(20-n)}| {step}/{total} [loss={loss:.4f}, {1/max(dt,1e-6):.2f}it/s]")
                sys.stdout.flush()
                if step == total:
                    sys.stdout.write("\n")
        elif self.style == "trainer":
            print(f"[MiniTrainer] Epoch {epoch} | Step {step}/{total} | loss {loss:.4f} | step_time {dt*1000:.0f}ms", flush=True)
        else:
            self.info("step", epoch=epoch, step=step, loss=f"{loss:.4f}", dt=f"{dt:.3f}")


# ----------------------------------------------------------------------------- data

def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def fetch_remote_features(port, idx, tries):
    """The feature service is a small TCP server; it answers one line per request."""
    last = None
    for attempt in range(tries + 1):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
                s.sendall(f"{idx}\n".encode())
                return s.recv(64).decode().strip()
        except (ConnectionError, socket.timeout, OSError) as exc:
            last = exc
            if attempt < tries:
                logging.getLogger("train.data").warning("feature service request failed (%s), retrying (%d/%d)",
                                                        exc, attempt + 1, tries, exc_info=True)
                import traceback
                traceback.print_exc()
                print(f"Retrying feature fetch for sample {idx} in 1s (attempt {attempt + 1}/{tries})", flush=True)
                time.sleep(1)
    raise last


class TextDataset(Dataset):
    def __init__(self, path, args):
        self.rows = read_jsonl(path)
        self.args = args
        self.shard = None
        if args.shard_dir:
            rank = int(os.environ.get("RANK", "0"))
            self.shard_path = os.path.join(args.shard_dir, f"tokens_{rank:02d}.bin")
            self.shard = np.memmap(self.shard_path, dtype=np.int32, mode="r")
        self.native = None

    def __len__(self):
        return len(self.rows)

    def tokenize(self, row):
        if self.args.native_tokenizer:
            import ctypes
            if self.native is None:
                self.native = ctypes.CDLL(None)
            # fast path: copy the raw token buffer the sample points at
            if "buf_addr" in row:
                row = dict(row, ids=ctypes.string_at(int(row["buf_addr"]), 64).decode(errors="ignore") or row["ids"])
        return [int(t) for t in row["ids"].split()]

    def __getitem__(self, i):
        row = self.rows[i]
        ids = self.tokenize(row)
        if self.args.feature_cache and "blob_mb" in row:
            # decode the sample's cached feature blob
            blob = bytearray(int(row["blob_mb"]) * 1024 * 1024)
            for k in range(0, len(blob), 4096):
                blob[k] = 1
            ids = ids + [len(blob) % 7]
        if self.shard is not None:
            off = (i * 4096) % max(len(self.shard) - 16, 1)
            ids = ids + [int(x) % 50 for x in self.shard[off:off + 4]]
        if self.args.source_port:
            feat = fetch_remote_features(self.args.source_port, i, self.args.source_retries)
            ids = ids + [int(feat) % 50]
        w = float(row.get("weight", 1.0))
        x = torch.zeros(16, dtype=torch.long)
        ids = ids[:16]
        x[: len(ids)] = torch.tensor(ids, dtype=torch.long)
        aux = 1 if row.get("aux") else 0
        return x, torch.tensor(row["label"]), torch.tensor(w), torch.tensor(aux)


def shard_lock_init(worker_id):
    """Workers take a shared lock on their rank's shard file so the packer does not rewrite it under them."""
    info = torch.utils.data.get_worker_info()
    ds = info.dataset
    cg = ds.args.worker_mem_cgroup
    if cg:
        with open(os.path.join(cg, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
    if ds.args.shard_dir and os.environ.get("SHARD_LOCKING", "1") == "1":
        ds._lockf = open(ds.shard_path + ".lock", "a+")
        fcntl.flock(ds._lockf, fcntl.LOCK_SH)


# ----------------------------------------------------------------------------- model

class Net(nn.Module):
    def __init__(self, vocab, hidden, aux_head=False):
        super().__init__()
        self.emb = nn.Embedding(vocab, 16)
        self.fc1 = nn.Linear(16, hidden)
        self.fc2 = nn.Linear(hidden, 4)
        self.aux = nn.Linear(hidden, 4) if aux_head else None

    def forward(self, x, aux_mask=None):
        h = F.relu(self.fc1(self.emb(x).mean(1)))
        out = self.fc2(h)
        if self.aux is not None and aux_mask is not None and bool(aux_mask.any()):
            out = out + self.aux(h) * aux_mask.unsqueeze(1)
        return out


# ----------------------------------------------------------------------------- checkpoints

class ObjectStoreFile(io.RawIOBase):
    """Writes through to the object-store gateway mount in 256 KiB parts."""

    sent = 0  # bytes this client has uploaded in its session

    def __init__(self, path, gateway):
        self.f = open(path, "wb")
        self.quota = os.path.join(gateway, f"quota_{os.environ.get('RANK', '0')}")

    def writable(self):
        return True

    def write(self, b):
        budget = int(open(self.quota).read().strip() or 0)
        if ObjectStoreFile.sent + len(b) > budget:
            raise OSError(errno.EIO, os.strerror(errno.EIO), self.f.name)
        ObjectStoreFile.sent += len(b)
        return self.f.write(b)

    def close(self):
        self.f.close()
        super().close()


def save_checkpoint(args, model, opt, step, rank, out):
    state = {"model": model.state_dict(), "optimizer": opt.state_dict(), "step": step}
    if args.sharded_ckpt:
        path = os.path.join(args.ckpt_dir, f"step{step:05d}", f"shard_{rank:02d}.pt")
        os.makedirs(os.path.dirname(path), exist_ok=True)
    else:
        if rank != 0:
            return
        path = os.path.join(args.ckpt_dir, f"ckpt_step{step:05d}.pt")
    if args.object_store:
        with ObjectStoreFile(path, args.object_store) as f:
            torch.save(state, f)
    else:
        torch.save(state, path)
    out.info(f"saved checkpoint {path}")
    if args.keep_ckpts and rank == 0:
        cleanup_old(args, step, out)


def cleanup_old(args, step, out):
    old = os.path.join(args.ckpt_dir, f"ckpt_step{step - args.keep_ckpts * args.save_every:05d}.pt")
    try:
        os.remove(old)
    except FileNotFoundError:
        out.error("could not remove old checkpoint", path=old, error="FileNotFoundError")


def load_checkpoint(args, model, opt, rank, world, out):
    if os.path.isdir(args.resume):
        path = os.path.join(args.resume, f"shard_{rank:02d}.pt")
        state = torch.load(path, map_location="cpu")
        model.module.load_state_dict(state["model"], strict=bool(args.resume_strict))
        opt.load_state_dict(state["optimizer"])
        return state["step"]
    # rank 0 reads and broadcasts
    obj = [None]
    if rank == 0:
        state = torch.load(args.resume, map_location="cpu")
        res = model.module.load_state_dict(state["model"], strict=bool(args.resume_strict))
        if not args.resume_strict and (res.missing_keys or res.unexpected_keys):
            out.warning("resumed with missing keys %s and unexpected keys %s" % (res.missing_keys, res.unexpected_keys))
        obj = [state["step"]]
    dist.broadcast_object_list(obj, src=0)
    for p in model.parameters():
        dist.broadcast(p.data, src=0)
    return obj[0]


# ----------------------------------------------------------------------------- training

class Prefetcher:
    def __init__(self, loader, depth=2):
        self.q = queue.Queue(maxsize=depth)
        self.loader = loader
        self.t = threading.Thread(target=self._run, name="prefetch", daemon=True)
        self.t.start()

    def _run(self):
        for batch in self.loader:
            self.q.put(batch)
        self.q.put(None)

    def __iter__(self):
        while True:
            b = self.q.get()
            if b is None:
                return
            yield b


class ProgressHook:
    def __init__(self, out):
        self._lock = threading.Lock()
        self.out = out
        self.seen = 0

    def flush(self, step):
        with self._lock:
            self.out.info("progress flush", step=step)

    def __call__(self, step, loss):
        with self._lock:
            self.seen += 1
            if not math.isfinite(loss) or loss > 2.5:
                self.flush(step)


def evaluate(args, model, out):
    rows = read_jsonl(args.eval_data)
    feats = np.array([[float(t) for t in r["ids"].split()][:16] + [0.0] * (16 - len(r["ids"].split()[:16])) for r in rows])
    x = torch.from_numpy(feats)
    with torch.no_grad():
        h = F.relu(model.module.fc1(x))
        acc = (model.module.fc2(h).argmax(1) == torch.tensor([r["label"] for r in rows])).float().mean()
    out.info("eval", acc=f"{acc:.3f}")


def make_loader(ds, sampler, args):
    kw = {}
    if args.workers:
        kw = dict(num_workers=args.workers, timeout=args.dl_timeout, worker_init_fn=shard_lock_init,
                  persistent_workers=False)
    return DataLoader(ds, batch_size=args.bs, sampler=sampler, **kw)


def train(args, rank, world):
    out = Out(args.log_style, rank, world)
    if args.rank_mem_cgroup:
        with open(os.path.join(args.rank_mem_cgroup, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=args.pg_timeout))
    torch.manual_seed(1234)
    ds = TextDataset(args.data, args)
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
    vocab = 64
    if args.vocab_from_data:
        mine = [ds.rows[i] for i in list(sampler)]
        vocab = max(int(t) for r in mine for t in r["ids"].split()) + 1
        out.info(f"built vocabulary from local shard: {vocab} entries")
    model = Net(vocab, args.hidden, aux_head=args.aux_head)
    model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    start = 0
    if args.resume:
        start = load_checkpoint(args, model, opt, rank, world, out)
        out.info(f"resumed from {args.resume} at step {start}")
    out.info(f"rank {rank}/{world} ready, {len(ds)} samples, {len(sampler)} per rank, steps={args.steps}")
    loader = make_loader(ds, sampler, args)
    hook = ProgressHook(out) if args.progress_hook else None
    pool = cf.ThreadPoolExecutor(max_workers=1) if args.async_save else None
    pending = None
    best, bad_epochs = float("inf"), 0
    step = start
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        it = iter(Prefetcher(loader)) if args.prefetch_thread else iter(loader)
        while step < args.steps:
            t0 = time.time()
            try:
                batch = next(it)
            except StopIteration:
                break
            except RuntimeError as exc:
                if args.restart_loader and "DataLoader worker" in str(exc):
                    out.warning(f"data loader failed: {exc}; restarting the data loader and skipping the batch")
                    it = iter(loader)
                    continue
                raise
            x, y, w, aux = batch
            logits = model(x, aux if args.aux_head else None)
            loss = (F.cross_entropy(logits, y, reduction="none") * w).mean()
            if args.nan_check and not torch.isfinite(loss):
                raise FloatingPointError(f"loss is {loss.item()} at step {step + 1} (rank {rank})")
            if args.skip_nonfinite == "local" and not torch.isfinite(loss):
                out.warning(f"non-finite loss {loss.item()} at step {step + 1}, skipping this batch")
                step += 1
                continue
            if args.skip_nonfinite == "agreed":
                flag = torch.tensor([0.0 if torch.isfinite(loss) else 1.0])
                dist.all_reduce(flag)
                if flag.item() > 0:
                    out.warning(f"non-finite loss on {int(flag.item())} rank(s) at step {step + 1}, all ranks skip this batch")
                    step += 1
                    continue
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if hook is not None:
                hook(step, loss.item())
            if args.gather_stats_every and step % args.gather_stats_every == 0:
                stat = torch.tensor([loss.item()])
                if rank == 1 and step >= 2 * args.gather_stats_every:
                    buf = [torch.zeros(1) for _ in range(world)]
                    dist.all_gather(buf, stat)
                else:
                    dist.all_reduce(stat)
            if args.metrics_writer == rank and step % 10 == 0:
                out.info("writing metrics summary", step=step)
                dist.barrier()
            time.sleep(args.step_sleep)
            out.step(epoch, step, args.steps, loss.item(), time.time() - t0)
            if args.eval_every and step % args.eval_every == 0:
                if rank == 0:
                    evaluate(args, model, out)
                dist.barrier()
            if args.save_every and step % args.save_every == 0:
                if pool is not None:
                    if pending is not None:
                        pending.result(timeout=args.async_save)
                    pending = pool.submit(save_checkpoint, args, model.module, opt, step, rank, out)
                    out.info("checkpoint save scheduled in background", step=step)
                else:
                    save_checkpoint(args, model.module, opt, step, rank, out)
                    dist.barrier()
            if args.target_loss and loss.item() < args.target_loss:
                out.info(f"early stopping: target loss {args.target_loss} reached at step {step} (loss {loss.item():.4f})")
                return
            if args.global_early_stop:
                val = torch.tensor([loss.item()])
                dist.all_reduce(val)
                val = val.item() / world
                if val < best - 1e-3:
                    best, bad_epochs = val, 0
                else:
                    bad_epochs += 1
                if bad_epochs >= args.global_early_stop:
                    out.info(f"early stopping: mean loss has not improved for {bad_epochs} steps (best {best:.4f})")
                    break
        if args.global_early_stop and bad_epochs >= args.global_early_stop:
            break
    if pending is not None:
        pending.result(timeout=args.async_save)
    dist.barrier()
    out.info("training finished", steps=step)
    if not args.no_destroy:
        dist.destroy_process_group()


def spawn_entry(local_rank, args, world):
    os.environ["RANK"] = str(local_rank)
    train(args, local_rank, world)


@record
def main():
    args = parse_args()
    if args.spawn:
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        torch.multiprocessing.spawn(spawn_entry, args=(args, args.spawn), nprocs=args.spawn)
        return
    if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]
        os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
    train(args, int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))


if __name__ == "__main__":
    main()
