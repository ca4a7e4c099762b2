"""Tiny DDP trainer (CPU, gloo) used by every blind r26 run.

Faults are injected with --fault KIND --fault-rank R --fault-step S; everything the
processes print is real.  Ranks come from torchrun (RANK), srun (SLURM_PROCID) or mp.spawn.
"""
import argparse
import collections
import datetime
import faulthandler
import json
import logging
import math
import os
import queue
import signal
import socket
import sys
import threading
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

try:
    from torch.distributed.elastic.multiprocessing.errors import record
except Exception:  # pragma: no cover
    def record(f):
        return f


def get_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--bs", type=int, default=16)
    p.add_argument("--in-dim", type=int, default=16)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--step-sleep", type=float, default=0.05)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--log-style", default="logging", choices=["logging", "print", "hf"])
    p.add_argument("--timeout", type=int, default=60)
    p.add_argument("--ckpt-dir", default=None)
    p.add_argument("--ckpt-every", type=int, default=0)
    p.add_argument("--resume", default=None)
    p.add_argument("--resume-latest", action="store_true")
    p.add_argument("--fault", default="none")
    p.add_argument("--fault-rank", type=int, default=-1)
    p.add_argument("--fault-step", type=int, default=-1)
    p.add_argument("--fault-arg", default="")
    p.add_argument("--pretrained-url", default=None)
    p.add_argument("--config", default=None)
    p.add_argument("--prefetch-thread", action="store_true")
    p.add_argument("--handle-sigterm", action="store_true")
    p.add_argument("--uneven", action="store_true", help="each rank iterates over its whole shard")
    p.add_argument("--no-ddp", action="store_true", help="average gradients by hand instead of DDP")
    p.add_argument("--find-unused", action="store_true")
    p.add_argument("--async-ckpt", action="store_true", help="rank 0 writes checkpoints from a background thread")
    p.add_argument("--async-deadline", type=float, default=30.0)
    p.add_argument("--async-pyopen", action="store_true", help="writer opens the file in Python and streams into it")
    p.add_argument("--lr-ramp-to", type=float, default=None, help="ramp lr linearly to this value over the run")
    return p.parse_args(argv)


class Shard(Dataset):
    """Reads data/shard_<rank>.jsonl (one JSON sample per line)."""

    def __init__(self, path, in_dim, fd_leak=False):
        self.path = path
        with open(path) as f:
            self.lines = f.readlines()
        self.in_dim = in_dim
        self.fd_leak = fd_leak
        self._handles = []

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        if self.fd_leak:
            # per-sample side file opened through a "handle cache" that never closes
            side = os.path.join(os.path.dirname(self.path), "side", f"{i % 500}.bin")
            self._handles.append(open(side, "rb"))
        rec = json.loads(self.lines[i])
        x = torch.tensor(rec["x"], dtype=torch.float32)
        if rec.get("dtype") == "float64":
            x = torch.tensor(rec["x"], dtype=torch.float64)
        return x, torch.tensor(rec["y"], dtype=torch.long)


class Net(nn.Module):
    def __init__(self, in_dim, hidden, n_cls=4):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, n_cls)

    def forward(self, x):
        return self.head(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


def ranks():
    if "RANK" in os.environ:
        return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ.get("LOCAL_RANK", 0))
    if "SLURM_PROCID" in os.environ:
        return int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"]), int(os.environ.get("SLURM_LOCALID", 0))
    return 0, 1, 0


def setup_log(rank, style):
    log = logging.getLogger("train")
    h = logging.StreamHandler(sys.stdout)
    if style == "logging":
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank{rank}] %(message)s"))
    elif style == "hf":
        h.setFormatter(logging.Formatter("[%(levelname)s|%(filename)s:%(lineno)d] %(asctime)s >> %(message)s"))
    else:
        h.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(h)
    log.setLevel(logging.INFO)
    log.propagate = False
    return log


LABEL_REMAP = {0: 0, 1: 1, 2: 2, 3: 3}


class TBStub:
    def add_scalar(self, *a):
        pass


def train(args, rank=None, world=None, local_rank=None):
    if rank is None:
        rank, world, local_rank = ranks()
    log = setup_log(rank, args.log_style)
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # `kill -USR1` dumps every thread's stack
    cfg = {"grad_clip": 1.0, "warmup_steps": 5}
    if args.config:
        with open(args.config) as f:
            cfg = json.load(f)
    log.info(f"starting rank {rank}/{world} local_rank {local_rank} pid {os.getpid()} host {socket.gethostname()}")
    if args.fault == "import_ext":
        sys.path.insert(0, args.fault_arg)
        import fastops  # noqa: F401  (node-local compiled extension)
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=args.timeout))
    log.info(f"process group ready: backend=gloo world_size={dist.get_world_size()}")
    torch.manual_seed(0)
    model = Net(args.in_dim, args.hidden)
    if args.pretrained_url and rank == 0:
        log.info(f"downloading pretrained weights from {args.pretrained_url}")
        sd = torch.hub.load_state_dict_from_url(args.pretrained_url, progress=False)
        model.load_state_dict(sd)
    dist.barrier()
    start_step = 0
    resume = args.resume
    if args.resume_latest and args.ckpt_dir and os.path.isdir(args.ckpt_dir):
        cks = sorted(f for f in os.listdir(args.ckpt_dir) if f.endswith(".pt"))
        resume = os.path.join(args.ckpt_dir, cks[-1]) if cks else None
    if resume:
        if args.fault == "ckpt_rank0_load":
            obj = [None]
            if rank == 0:
                log.info(f"loading checkpoint {resume}")
                obj[0] = torch.load(resume, map_location="cpu")
            dist.broadcast_object_list(obj, src=0)
            ck = obj[0]
        else:
            log.info(f"resuming from {resume}")
            ck = torch.load(resume, map_location="cpu")
        model.load_state_dict(ck["model"])
        start_step = ck["step"]
        log.info(f"resumed at step {start_step}")
    ddp = model if args.no_ddp else DDP(model, find_unused_parameters=args.find_unused)
    opt = torch.optim.SGD(ddp.parameters(), lr=args.lr, momentum=0.9)
    ds = Shard(os.path.join(args.data, f"shard_{rank}.jsonl"), args.in_dim,
               fd_leak=(args.fault == "fd_leak"))
    dl = DataLoader(ds, batch_size=args.bs, shuffle=False, num_workers=args.workers, drop_last=True,
                    persistent_workers=args.workers > 0)
    tb = TBStub() if rank == 0 else None
    if args.fault == "logger_none" and rank == args.fault_rank:
        tb = None
    lossf = nn.CrossEntropyLoss()
    if args.handle_sigterm:
        def on_term(signum, frame):
            log.warning(f"received signal {signum} at step {step}; saving emergency checkpoint and exiting")
            if rank == 0 and args.ckpt_dir:
                torch.save({"model": model.state_dict(), "step": step}, os.path.join(args.ckpt_dir, f"emergency_{step:06d}.pt"))
                log.warning("emergency checkpoint written")
            sys.exit(143)
        signal.signal(signal.SIGTERM, on_term)

    def batches():
        while True:
            for b in dl:
                yield b
            if args.uneven:
                return

    it = batches()
    if args.prefetch_thread:
        q = queue.Queue(maxsize=4)

        def prefetch():
            for b in batches():
                x, y = b
                # map raw label ids of the v2 dataset onto the model's 4 classes
                y = torch.tensor([LABEL_REMAP[int(v)] for v in y])
                q.put((x, y))
                prefetch.n += 1
        prefetch.n = 0
        threading.Thread(target=prefetch, name="prefetch", daemon=True).start()

        def qiter():
            while True:
                yield q.get()
        it = qiter()

    lock = threading.Lock()
    step = start_step
    t0 = time.time()
    best = float("inf")
    recent = collections.deque(maxlen=20)
    while step < args.steps:
        try:
            x, y = next(it)
        except StopIteration:
            log.info(f"data exhausted after {step} steps; training finished")
            dist.destroy_process_group()
            log.info("done")
            return
        step += 1
        if rank == args.fault_rank and step == args.fault_step:
            on_step(args, log, rank, step, lock)
        if args.fault == "shape_cfg":
            x = x[:, : args.in_dim - 4]
        if args.fault == "nan_data" and rank == args.fault_rank and step == args.fault_step:
            x = x.clone()
            x[0, 0] = float("inf")
        if args.fault == "spike_batch" and args.fault_step <= step < args.fault_step + 3:
            x = x * 6.0  # a few mis-normalised batches from one source
            y = (y + 1) % 4
        out = ddp(x)
        loss = lossf(out, y)
        opt.zero_grad()
        loss.backward()
        if args.no_ddp:
            for p_ in model.parameters():
                dist.all_reduce(p_.grad)
                p_.grad /= world
        if args.fault == "metric_mismatch" and step == args.fault_step:
            n = 5 if rank == args.fault_rank else 4
            stats = torch.tensor([loss.item()] + [float(step)] * (n - 1))
            dist.all_reduce(stats)
        if args.lr_ramp_to is not None:
            cur_lr = args.lr + (args.lr_ramp_to - args.lr) * step / args.steps
            for g in opt.param_groups:
                g["lr"] = cur_lr
        opt.step()
        if args.step_sleep:
            time.sleep(args.step_sleep)
        lv = loss.item()
        if step % args.log_every == 0 or not math.isfinite(lv):
            dt = (time.time() - t0) / max(1, step - start_step)
            if args.log_style == "print":
                print(f"rank {rank} | step {step:5d} | loss {lv:.4f} | {dt*1000:.0f} ms/step", flush=True)
            else:
                log.info(f"step {step} loss {lv:.4f} lr {opt.param_groups[0]['lr']:.4g} step_time {dt:.3f}s")
            if tb is not None or (args.fault == "logger_none" and rank == args.fault_rank):
                tb.add_scalar("loss", lv, step)
        if args.fault == "nan_data" and step % args.log_every == 0:
            t = torch.tensor([lv])
            dist.all_reduce(t)
            if not torch.isfinite(t).all():
                raise FloatingPointError(f"Loss is {t.item()} at step {step}, stopping training")
        if len(recent) >= 10 and lv > 5 * (sum(recent) / len(recent)):
            log.warning(f"loss spike at step {step}: {lv:.4f} vs moving average {sum(recent) / len(recent):.4f}; continuing")
        recent.append(lv)
        if len(recent) == recent.maxlen:
            avg = sum(recent) / len(recent)
            if args.fault == "diverge" and avg > 8 * best:
                log.error(f"20-step mean loss {avg:.4f} is > 8x the best mean {best:.4f}; aborting (divergence guard)")
                raise RuntimeError(f"training diverged: mean loss {avg:.4f} at step {step} (best {best:.4f})")
            best = min(best, avg)
        if args.ckpt_dir and args.ckpt_every and step % args.ckpt_every == 0:
            save(args, log, rank, step, model)
    log.info(f"finished {step} steps in {time.time()-t0:.1f}s")
    dist.barrier()
    dist.destroy_process_group()
    log.info("done")


_POOL = None
_PENDING = None


def save_async(args, log, rank, step, model):
    global _POOL, _PENDING
    if rank != 0:
        return
    import concurrent.futures
    if _POOL is None:
        _POOL = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ckpt-writer")
    if _PENDING is not None:
        name, fut = _PENDING
        log.info(f"waiting for previous async checkpoint {name} (deadline {args.async_deadline:.0f}s)")
        try:
            fut.result(timeout=args.async_deadline)
        except concurrent.futures.TimeoutError:
            log.error(f"async checkpoint {name} did not finish within {args.async_deadline:.0f}s")
            raise
    path = os.path.join(args.ckpt_dir, f"step_{step:06d}.pt")
    sd = {k: v.clone() for k, v in model.state_dict().items()}
    log.info(f"async checkpoint: queued {path}")
    if args.async_pyopen:
        def write(obj, p):
            with open(p, "wb") as f:
                torch.save(obj, f)
        _PENDING = (path, _POOL.submit(write, {"model": sd, "step": step}, path))
    else:
        _PENDING = (path, _POOL.submit(torch.save, {"model": sd, "step": step}, path))


def save(args, log, rank, step, model):
    if args.async_ckpt:
        return save_async(args, log, rank, step, model)
    if rank == 0:
        path = os.path.join(args.ckpt_dir, f"step_{step:06d}")
        log.info(f"saving checkpoint to {path}.pt")
        t = time.time()
        if args.fault == "ckpt_ro":
            os.makedirs(path + ".tmp", exist_ok=True)
        torch.save({"model": model.state_dict(), "step": step,
                    "opt_pad": torch.zeros(args.hidden * 1024)}, path + ".pt")
        log.info(f"checkpoint saved in {time.time()-t:.2f}s")
    dist.barrier()


def on_step(args, log, rank, step, lock):
    k = args.fault
    if k == "hang_read":
        # read the next data index from a named pipe whose writer never shows up
        with open(args.fault_arg) as f:
            f.read()
    elif k == "host_leak":
        keep = []
        while True:  # activation cache that is never freed
            keep.append(torch.ones(64 * 1024 * 1024 // 4))
            time.sleep(0.02)
    elif k == "deadlock":
        def flusher():
            lock.acquire()  # metrics flusher takes the lock and blocks on a full pipe
            with open(args.fault_arg, "w") as f:
                f.write("x")
        threading.Thread(target=flusher, name="metrics-flusher", daemon=True).start()
        time.sleep(0.5)
        with lock:
            pass
    elif k == "dtype":
        pass
    elif k == "bad_attr":
        pass


@record
def main():
    args = get_args()
    train(args)


if __name__ == "__main__":
    main()
