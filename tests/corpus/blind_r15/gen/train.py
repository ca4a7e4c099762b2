#!/usr/bin/env python3
"""Small DDP trainer (CPU / gloo) used for the blind evaluation runs.

Faults are never injected here directly: they come from the data, the
environment, the launcher or the configuration each run is given.
"""
import argparse
import ctypes
import datetime
import faulthandler
import glob
import json
import logging
import os
import queue
import signal
import socket
import sys
import threading
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

log = logging.getLogger("train")


def parse(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--features", type=int, default=32)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--classes", type=int, default=10)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--step-sleep", type=float, default=0.0)
    p.add_argument("--pg-timeout", type=int, default=30)
    p.add_argument("--max-steps", type=int, default=0)
    p.add_argument("--ckpt-dir")
    p.add_argument("--ckpt-fallback-dir")
    p.add_argument("--ckpt-every", type=int, default=0)
    p.add_argument("--resume")
    p.add_argument("--val-file")
    p.add_argument("--eval-every", type=int, default=20)
    p.add_argument("--prefetch", action="store_true")
    p.add_argument("--num-workers", type=int, default=0)
    p.add_argument("--records", action="store_true")
    p.add_argument("--sample-files", action="store_true")
    p.add_argument("--manifest")
    p.add_argument("--per-class-metrics", action="store_true")
    p.add_argument("--max-nonfinite", type=int, default=0)
    p.add_argument("--native-gather")
    p.add_argument("--ext-cache")
    p.add_argument("--staging-flag")
    p.add_argument("--emb-bank", action="store_true", help="keep embeddings for the kNN monitor")
    p.add_argument("--metrics-endpoint")
    p.add_argument("--step-timer-rank", type=int, default=-1)
    p.add_argument("--recover-loader", action="store_true")
    p.add_argument("--skip-bad-records", action="store_true")
    p.add_argument("--manual-allreduce", action="store_true", help="average grads by hand instead of DDP")
    p.add_argument("--log-style", default="logging", choices=["logging", "print"])
    return p.parse_args(argv)


# --------------------------------------------------------------------------
# logging
# --------------------------------------------------------------------------
class Out:
    def __init__(self, rank, style):
        self.rank = rank
        self.style = style
        if style == "logging":
            logging.basicConfig(
                level=logging.INFO,
                format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s",
                stream=sys.stdout,
            )

    def info(self, msg, *a):
        if self.style == "logging":
            log.info(msg, *a)
        else:
            print(f"[rank{self.rank}] " + (msg % a if a else msg), flush=True)

    def warning(self, msg, *a):
        if self.style == "logging":
            log.warning(msg, *a)
        else:
            print(f"[rank{self.rank}] WARNING: " + (msg % a if a else msg), flush=True)

    def exception(self, msg, *a):
        if self.style == "logging":
            log.exception(msg, *a)
        else:
            import traceback
            print(f"[rank{self.rank}] ERROR: " + (msg % a if a else msg), flush=True)
            traceback.print_exc(file=sys.stdout)
            sys.stdout.flush()


# --------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------
def chunk_files(args, rank):
    if args.manifest:
        with open(args.manifest) as f:
            man = json.load(f)
        return [os.path.join(args.data_dir, p) for p in man[f"rank{rank}"]]
    d = os.path.join(args.data_dir, f"rank{rank}")
    pat = "chunk_*.bin" if args.prefetch else "chunk_*.npy"
    return sorted(glob.glob(os.path.join(d, pat)))


def batches_from_array(arr, bs):
    for i in range(0, len(arr) - bs + 1, bs):
        yield arr[i:i + bs]


def iter_chunks(args, rank, out, lib=None):
    for path in chunk_files(args, rank):
        arr = np.load(path)
        out.info("loaded %s (%d rows)", os.path.basename(path), len(arr))
        if lib is not None:
            # apply the precomputed shuffle with the native gather kernel
            perm = np.load(path.replace("chunk_", "perm_"))
            arr = native_gather(lib, arr, perm[: len(arr)])
        yield from batches_from_array(arr, args.batch_size)


class Prefetcher:
    """Background thread that reads raw float32 chunks and slices batches."""

    def __init__(self, args, rank, out):
        self.q = queue.Queue(maxsize=8)
        self.args = args
        self.files = chunk_files(args, rank)
        self.out = out
        self.t = threading.Thread(target=self._run, name="prefetch", daemon=True)
        self.t.start()

    def _run(self):
        width = self.args.features + 1
        for path in self.files:
            raw = np.fromfile(path, dtype=np.float32)
            t = torch.from_numpy(raw).view(-1, width)
            for i in range(0, t.shape[0] - self.args.batch_size + 1, self.args.batch_size):
                self.q.put(t[i:i + self.args.batch_size].numpy())
        self.q.put(None)

    def __iter__(self):
        while True:
            item = self.q.get()
            if item is None:
                return
            yield item


class RecordDataset(Dataset):
    """records.bin: repeated [int64 n][n float32]; records.idx: int64 offsets."""

    def __init__(self, d, skip_bad=False):
        self.skip_bad = skip_bad
        self.path = os.path.join(d, "records.bin")
        self.offsets = np.fromfile(os.path.join(d, "records.idx"), dtype=np.int64)

    def __len__(self):
        return len(self.offsets)

    def _read(self, i):
        with open(self.path, "rb") as f:
            f.seek(int(self.offsets[i]))
            n = int(np.frombuffer(f.read(8), dtype=np.int64)[0])
            buf = bytearray(n * 4)
            f.readinto(buf)
        rec = np.frombuffer(buf, dtype=np.float32)
        if len(rec) < 33:
            raise ValueError(f"record {i}: expected 33 values, got {len(rec)}")
        return torch.from_numpy(rec[: 33].copy())

    def __getitem__(self, i):
        try:
            return self._read(i)
        except ValueError:
            if not self.skip_bad:
                raise
            logging.getLogger("data").warning("skipping corrupt record %d in %s", i, self.path, exc_info=True)
            return self._read((i + 1) % len(self))


class SampleFileDataset(Dataset):
    """One .npy per sample; keeps file handles around for fast re-reads."""

    def __init__(self, d):
        self.files = sorted(glob.glob(os.path.join(d, "samples", "*.npy")))
        self._handles = {}

    def __len__(self):
        return len(self.files)

    def _fh(self, path):
        fh = self._handles.get(path)
        if fh is None:
            fh = open(path, "rb")
            self._handles[path] = fh
        fh.seek(0)
        return fh

    def __getitem__(self, i):
        arr = np.load(self._fh(self.files[i]))
        return torch.from_numpy(arr.astype(np.float32))


def make_batches(args, rank, out, lib=None):
    d = os.path.join(args.data_dir, f"rank{rank}")
    if args.records:
        ds = RecordDataset(d, args.skip_bad_records)
        out.info("record dataset: %d records, num_workers=%d", len(ds), args.num_workers)
        dl = DataLoader(ds, batch_size=args.batch_size, num_workers=args.num_workers, drop_last=True)
        return dl
    if args.sample_files:
        ds = SampleFileDataset(d)
        out.info("sample-file dataset: %d samples", len(ds))
        return DataLoader(ds, batch_size=args.batch_size, num_workers=0, drop_last=True)
    if args.prefetch:
        return Prefetcher(args, rank, out)
    return iter_chunks(args, rank, out, lib)


# --------------------------------------------------------------------------
# model
# --------------------------------------------------------------------------
class Net(nn.Module):
    def __init__(self, features, hidden, classes):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, classes)

    def features(self, x):
        return F.gelu(self.fc2(F.gelu(self.fc1(x))))

    def forward(self, x):
        x = F.gelu(self.fc1(x))
        x = F.gelu(self.fc2(x))
        return self.head(x)


class LocalModel(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module
        for p in module.parameters():
            dist.broadcast(p.data, 0)

    def forward(self, x):
        return self.module(x)


def native_gather(lib, src, idx):
    out = np.empty((len(idx), src.shape[1]), dtype=np.float32)
    src = np.ascontiguousarray(src, dtype=np.float32)
    idx = np.ascontiguousarray(idx, dtype=np.int64)
    lib.gather_rows(
        src.ctypes.data_as(ctypes.c_void_p),
        idx.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_long(len(idx)),
        ctypes.c_long(src.shape[1]),
        out.ctypes.data_as(ctypes.c_void_p),
    )
    return out


class StepTimer:
    def __init__(self):
        self.start = None

    def begin(self):
        self.start = time.perf_counter_ns()

    def elapsed_ms(self):
        return (time.perf_counter_ns() - self.start) / 1e6


def push_metrics(endpoint, payload, out, attempts=3):
    host, port = endpoint.rsplit(":", 1)
    for a in range(1, attempts + 1):
        try:
            with socket.create_connection((host, int(port)), timeout=1) as s:
                s.sendall(json.dumps(payload).encode())
            return True
        except OSError:
            out.exception("metrics push failed (attempt %d/%d), will retry", a, attempts)
            time.sleep(0.2)
    out.warning("giving up on metrics push; continuing without metrics")
    return False


def save_checkpoint(args, model, opt, step, out):
    state = {"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step}
    path = os.path.join(args.ckpt_dir, f"ckpt_step{step:05d}.pt")
    t0 = time.time()
    try:
        torch.save(state, path)
    except (OSError, RuntimeError):
        if not args.ckpt_fallback_dir:
            raise
        out.exception("checkpoint save to %s failed; falling back to %s", path, args.ckpt_fallback_dir)
        os.makedirs(args.ckpt_fallback_dir, exist_ok=True)
        path = os.path.join(args.ckpt_fallback_dir, f"ckpt_step{step:05d}.pt")
        torch.save(state, path)
    out.info("saved checkpoint %s (%.1f MB, %.2fs)", path, os.path.getsize(path) / 2**20, time.time() - t0)


# --------------------------------------------------------------------------
def main(argv=None, rank=None, world=None):
    args = parse(argv)
    faulthandler.enable()
    if rank is None:
        rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", 0)))
        world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", 1)))
    out = Out(rank, args.log_style)
    out.info("starting on %s pid=%d world_size=%d torch=%s", socket.gethostname(), os.getpid(), world, torch.__version__)

    if args.ext_cache:
        ext_dir = os.path.join(args.ext_cache, f"rank{rank}", "fused_ops")
        sys.path.insert(0, ext_dir)
        import fused_ops  # noqa: F401  (built per rank into the extension cache)
        out.info("loaded fused_ops from %s", ext_dir)

    if args.staging_flag:
        flag = args.staging_flag.format(rank=rank)
        waited = 0
        while not os.path.exists(flag):
            if waited % 10 == 0:
                out.info("waiting for dataset staging to finish (%s)", flag)
            time.sleep(1)
            waited += 1

    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=args.pg_timeout))
    out.info("process group ready (backend=%s)", dist.get_backend())

    torch.manual_seed(0)
    model = Net(args.features, args.hidden, args.classes)
    if args.resume and rank == 0:
        out.info("resuming from %s", args.resume)
        state = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(state["model"])
        out.info("restored model from step %d", state["step"])
    model = LocalModel(model) if args.manual_allreduce else DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)

    val = None
    if args.val_file and rank == 0:
        val = np.load(args.val_file)
        out.info("validation set: %d rows", len(val))

    lib = None
    if args.native_gather:
        lib = ctypes.CDLL(args.native_gather)

    timer = StepTimer() if rank == args.step_timer_rank else None
    history = []
    nonfinite = 0
    step = 0
    for epoch in range(args.epochs):
        batches = make_batches(args, rank, out, lib)
        it = iter(batches)
        while True:
            try:
                batch = next(it)
            except StopIteration:
                break
            except RuntimeError as e:
                if args.recover_loader and "DataLoader worker" in str(e):
                    out.warning("%s -- recreating the DataLoader and continuing", e)
                    it = iter(make_batches(args, rank, out, lib))
                    continue
                raise
            if isinstance(batch, torch.Tensor):
                batch = batch.numpy()
            x = torch.from_numpy(np.ascontiguousarray(batch[:, :-1], dtype=np.float32))
            y = torch.from_numpy(batch[:, -1].astype(np.int64) % args.classes)
            if timer is not None and step % 10 == 0 and step > 0:
                out.info("step timer: %.1f ms", timer.elapsed_ms())
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            if args.manual_allreduce:
                for p in model.parameters():
                    dist.all_reduce(p.grad)
                    p.grad.div_(world)
            opt.step()
            if timer is not None and step % 25 == 0 and step > 0:
                timer.begin()  # start of the profiling window
            if args.emb_bank:
                with torch.no_grad():
                    history.append(model.module.features(x))  # kNN monitor bank
            lv = loss.item()
            if not np.isfinite(lv):
                nonfinite += 1
                out.warning("non-finite loss %s at step %d", lv, step)
                if args.max_nonfinite and nonfinite >= args.max_nonfinite:
                    raise FloatingPointError(f"loss is {lv} for {nonfinite} consecutive steps (step {step})")
            else:
                nonfinite = 0
            if step % args.log_every == 0:
                out.info("epoch %d step %d loss %.4f", epoch, step, lv)
            if args.per_class_metrics and step % 10 == 0:
                counts = torch.bincount(y)
                dist.all_reduce(counts)
                if rank == 0:
                    out.info("class counts so far: %s", counts.tolist())
            if args.metrics_endpoint and rank == 0 and step == 5:
                push_metrics(args.metrics_endpoint, {"step": step, "loss": lv}, out)
            if val is not None and step > 0 and step % args.eval_every == 0:
                with torch.no_grad():
                    vx = torch.from_numpy(val[:, :-1])
                    vy = torch.from_numpy(val[:, -1].astype(np.int64) % args.classes)
                    acc = (model.module(vx).argmax(1) == vy).float().mean().item()
                out.info("eval step %d acc %.3f", step, acc)
            if args.ckpt_dir and args.ckpt_every and rank == 0 and step > 0 and step % args.ckpt_every == 0:
                save_checkpoint(args, model, opt, step, out)
            if args.step_sleep:
                time.sleep(args.step_sleep)
            step += 1
            if args.max_steps and step >= args.max_steps:
                break
        if args.max_steps and step >= args.max_steps:
            break
    out.info("training finished after %d steps", step)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
