"""Small DDP regression trainer used to produce real failing / healthy runs (gloo, CPU).

Faults are switched on with --fault NAME --fault-rank R --fault-step S.
"""
import argparse
import logging
import math
import os
import queue
import signal
import sys
import threading
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=60)
p.add_argument("--epochs", type=int, default=1)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--lr", type=float, default=0.01)
p.add_argument("--optim", default="sgd")
p.add_argument("--workers", type=int, default=0)
p.add_argument("--fault", default="none")
p.add_argument("--fault-rank", type=int, default=-1)
p.add_argument("--fault-step", type=int, default=-1)
p.add_argument("--pg-timeout", type=float, default=30)
p.add_argument("--logfmt", default="logging")  # print | logging | logging_rank | plain
p.add_argument("--log-every", type=int, default=5)
p.add_argument("--step-sleep", type=float, default=0.05)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--resume", default="")
p.add_argument("--pretrained-url", default="")
p.add_argument("--heartbeat", type=float, default=0)
p.add_argument("--logfile", default="")
p.add_argument("--amp-fp16", action="store_true")
p.add_argument("--ext", default="")
p.add_argument("--device", default="cpu")
p.add_argument("--check-finite", action="store_true")
p.add_argument("--aux-kb", type=int, default=0)
p.add_argument("--record", action="store_true")
p.add_argument("--warmup", type=int, default=0)
p.add_argument("--attempt-store", action="store_true")
p.add_argument("--save-retry", action="store_true")
p.add_argument("--lr-gamma", type=float, default=1.0)
p.add_argument("--save-fileobj", action="store_true")
p.add_argument("--aux-rank", type=int, default=-1)
args = p.parse_args()

RANK = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", 0)))
WORLD = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", 1)))
LOCAL_RANK = int(os.environ.get("LOCAL_RANK", os.environ.get("SLURM_LOCALID", 0)))
os.environ.setdefault("RANK", str(RANK))
os.environ.setdefault("WORLD_SIZE", str(WORLD))


class RankFilter(logging.Filter):
    def filter(self, record):
        record.rank = RANK
        return True


def setup_logging():
    fmts = {
        "logging": "%(asctime)s %(levelname)s [%(name)s] %(message)s",
        "logging_rank": "%(asctime)s [RANK %(rank)s] %(levelname)s: %(message)s",
        "short": "[%(asctime)s] %(levelname)s - %(message)s",
        "plain": "%(message)s",
    }
    fmt = fmts.get(args.logfmt, fmts["logging"])
    handlers = [logging.StreamHandler(sys.stdout)]
    if args.logfile:
        handlers.append(logging.FileHandler(args.logfile.format(rank=RANK)))
    for h in handlers:
        h.addFilter(RankFilter())
    logging.basicConfig(level=logging.INFO, format=fmt, handlers=handlers, force=True)


setup_logging()
log = logging.getLogger("trainer")


def say(msg):
    if args.logfmt == "print":
        print(msg, flush=True)
    else:
        log.info(msg)
        for h in logging.getLogger().handlers:
            h.flush()


class SyntheticShards(Dataset):
    """Regression samples; each sample is a 32-dim feature vector and a scalar target."""

    def __init__(self, n, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 32, generator=g)
        w = torch.randn(32, 1, generator=g)
        self.y = self.x @ w + 0.01 * torch.randn(n, 1, generator=g)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if args.fault == "worker_die" and RANK == args.fault_rank:
            wi = torch.utils.data.get_worker_info()
            self.served = getattr(self, "served", 0) + 1
            if wi is not None and wi.id == 1 and self.served >= args.fault_step:
                os.kill(os.getpid(), signal.SIGKILL)
        if args.aux_kb and (args.aux_rank < 0 or RANK == args.aux_rank):
            # high-resolution view attached to the sample (used by the aux head)
            aux = torch.full((args.aux_kb * 256,), float(i))
            return self.x[i], self.y[i], aux
        return self.x[i], self.y[i], torch.zeros(1)


class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Linear(32, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.act(self.fc2(self.act(self.fc1(x)))))


_metrics_lock = threading.Lock()


def flush_metrics(step, loss):
    with _metrics_lock:
        if args.fault == "deadlock" and RANK == args.fault_rank and step >= args.fault_step:
            # bug: re-enters the non-reentrant lock through the summary writer
            write_summary(step, loss)


def write_summary(step, loss):
    with _metrics_lock:
        pass


def save_checkpoint(model, opt, step):
    path = os.path.join(args.ckpt_dir, f"step_{step:06d}.pt")
    say(f"saving checkpoint to {path}")
    t0 = time.time()
    state = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step}
    if args.save_fileobj:
        with open(path, "wb") as f:
            torch.save(state, f)
    else:
        torch.save(state, path)
    with open(os.path.join(args.ckpt_dir, "latest.txt"), "w") as f:
        f.write(path + "\n")
    say(f"checkpoint saved in {time.time() - t0:.2f}s ({os.path.getsize(path) / 1e6:.1f} MB)")


def load_pretrained(url):
    from torch.hub import load_state_dict_from_url
    return load_state_dict_from_url(url, model_dir="/tmp/r27_hub_cache", progress=False)


def main():
    if args.ext:
        __import__(args.ext)
    if args.device != "cpu":
        torch.cuda.set_device(LOCAL_RANK)
    if args.attempt_store:
        # fresh key namespace per elastic attempt so a restarted group does not read stale peer addresses
        attempt = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
        base = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), WORLD, False,
                             timeout=timedelta(seconds=args.pg_timeout))
        store = dist.PrefixStore(f"attempt{attempt}", base)
        dist.init_process_group("gloo", store=store, rank=RANK, world_size=WORLD,
                                timeout=timedelta(seconds=args.pg_timeout))
        say(f"elastic attempt {attempt} (max restarts {os.environ.get('TORCHELASTIC_MAX_RESTARTS')})")
    else:
        dist.init_process_group("gloo", timeout=timedelta(seconds=args.pg_timeout))
    say(f"initialized process group: rank {RANK}/{WORLD} local_rank {LOCAL_RANK} host {os.uname().nodename} pid {os.getpid()}")
    torch.manual_seed(0)
    model = Net(args.hidden)
    if args.pretrained_url:
        if RANK == 0:
            say(f"downloading pretrained weights from {args.pretrained_url}")
            sd = load_pretrained(args.pretrained_url)
            model.load_state_dict(sd, strict=False)
        dist.barrier()
    start_step = 0
    if args.resume:
        if args.fault == "resume_rank0_bcast":
            objs = [None]
            if RANK == 0:
                say(f"resuming from {args.resume}")
                ck = torch.load(args.resume, map_location="cpu")
                model.load_state_dict(ck["model"])
                objs = [ck["step"]]
            dist.broadcast_object_list(objs, src=0)
            for prm in model.parameters():
                dist.broadcast(prm.data, src=0)
            start_step = objs[0]
        else:
            say(f"resuming from {args.resume}")
            ck = torch.load(args.resume, map_location="cpu")
            model.load_state_dict(ck["model"])
            start_step = ck["step"]
    ddp = DDP(model)
    if args.optim == "adam":
        opt = torch.optim.Adam(ddp.parameters(), lr=args.lr)
    else:
        opt = torch.optim.SGD(ddp.parameters(), lr=args.lr, momentum=0.9)
    scaler = torch.amp.GradScaler("cpu") if args.amp_fp16 else None
    n = args.steps * args.batch * WORLD
    if args.fault == "short_shard" and RANK == args.fault_rank:
        n_local = args.fault_step * args.batch
    else:
        n_local = None
    ds = SyntheticShards(n)
    sampler = DistributedSampler(ds, num_replicas=WORLD, rank=RANK, shuffle=True, seed=1)
    dl = DataLoader(ds, batch_size=args.batch, sampler=sampler, num_workers=args.workers,
                    persistent_workers=args.workers > 0)
    say(f"dataset: {len(ds)} samples, {len(dl)} batches per rank, workers={args.workers}")

    progress = {"step": start_step, "t": time.time()}
    if args.heartbeat:
        def hb():
            while True:
                time.sleep(args.heartbeat)
                idle = time.time() - progress["t"]
                say(f"heartbeat: step={progress['step']} last_step_age={idle:.0f}s")
        threading.Thread(target=hb, daemon=True, name="heartbeat").start()

    prefetch_q = None
    if args.fault == "prefetch_emfile":
        prefetch_q = queue.Queue(maxsize=4)
        shard_dir = f"/tmp/r27_shards/rank{RANK}"
        os.makedirs(shard_dir, exist_ok=True)
        nshards = 4000 if RANK == args.fault_rank else 8

        def prefetch():
            handles = []
            for k in range(nshards):
                fn = os.path.join(shard_dir, f"shard_{k:05d}.idx")
                if not os.path.exists(fn):
                    with open(fn, "w") as f:
                        f.write(str(k))
                handles.append(open(fn))  # index handles kept open for random access
                if k % 50 == 0:
                    prefetch_q.put(k)
            while True:
                prefetch_q.put(-1)

        threading.Thread(target=prefetch, name="shard-prefetch").start()

    step = start_step
    t_start = time.time()
    done = False
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for bi, (x, y, aux) in enumerate(dl):
            if n_local is not None and bi >= args.fault_step:
                say(f"rank {RANK}: shard exhausted after {bi} batches, leaving epoch loop")
                done = True
                break
            if step >= args.steps:
                done = True
                break
            if prefetch_q is not None:
                prefetch_q.get(timeout=None)
            if args.fault == "nan_batch" and RANK == args.fault_rank and step == args.fault_step:
                x = x.clone()
                x[3, 7] = float("nan")  # corrupt record in this rank's shard
            if args.fault == "alloc" and RANK == args.fault_rank and step == args.fault_step:
                # buggy augmentation: mixes batch with a "memory bank" sized by dataset length squared
                bank = torch.empty(len(ds) * len(ds) * 4096, dtype=torch.float32)
                x = x + bank[: x.numel()].view_as(x) * 0
            if args.fault == "cgroup_oom" and RANK == args.fault_rank and step == args.fault_step:
                cg = os.environ["R27_CGROUP"]
                with open(f"{cg}/cgroup.procs", "w") as f:
                    f.write(str(os.getpid()))
                say("building evaluation cache")
                cache = []
                for _ in range(400):
                    cache.append(torch.ones(4 * 1024 * 1024))  # 16 MB each
            if args.fault == "segv" and RANK == args.fault_rank and step == args.fault_step:
                import ctypes
                ctypes.string_at(0)  # native augmentation lib dereferences a NULL buffer
            if args.fault == "exit0" and RANK == args.fault_rank and step == args.fault_step:
                say("early stopping criterion met on this rank, exiting")
                sys.exit(0)
            if args.lr_gamma != 1.0 and step > 0:
                for gparam in opt.param_groups:
                    gparam["lr"] = gparam["lr"] * args.lr_gamma
            if args.warmup:
                for gparam in opt.param_groups:
                    gparam["lr"] = args.lr * min(1.0, (step + 1) / args.warmup)
            opt.zero_grad(set_to_none=True)
            if scaler is not None:
                with torch.autocast("cpu", dtype=torch.float16):
                    out = ddp(x)
                    loss = nn.functional.mse_loss(out.float(), y) * (1e6 if args.fault == "fp16_overflow" and step >= args.fault_step else 1.0)
                scaler.scale(loss).backward()
                scale_before = scaler.get_scale()
                scaler.step(opt)
                scaler.update()
                if scaler.get_scale() < scale_before:
                    log.warning(f"step {step}: gradient overflow, skipping step; loss scale {scale_before:g} -> {scaler.get_scale():g}")
            else:
                out = ddp(x)
                loss = nn.functional.mse_loss(out, y)
                if args.check_finite and not torch.isfinite(loss):
                    raise FloatingPointError(f"loss is {loss.item()} at step {step} (rank {RANK})")
                loss.backward()
                if args.fault == "mismatch_shape" and RANK == args.fault_rank and step == args.fault_step:
                    gn = torch.zeros(3)
                else:
                    gn = torch.zeros(2)
                if args.fault == "mismatch_shape":
                    dist.all_reduce(gn)
                opt.step()
            step += 1
            progress["step"], progress["t"] = step, time.time()
            flush_metrics(step, loss.item())
            if step % args.log_every == 0 or step == 1:
                lt = torch.tensor([loss.item()])
                dist.all_reduce(lt)
                msg = f"epoch {epoch} step {step}/{args.steps} loss {loss.item():.4f} avg_loss {lt.item() / WORLD:.4f} lr {opt.param_groups[0]['lr']:.4g} elapsed {time.time() - t_start:.1f}s"
                if args.logfmt == "print":
                    say(f"[rank {RANK}] " + msg)
                else:
                    say(msg)
            if args.ckpt_every and step % args.ckpt_every == 0:
                if RANK == 0 and args.save_retry:
                    try:
                        save_checkpoint(model, opt, step)
                    except (OSError, RuntimeError):
                        log.exception(f"checkpoint save at step {step} failed; pruning old checkpoints and retrying")
                        keep = os.path.join(args.ckpt_dir, f"step_{step:06d}.pt")
                        for fn in sorted(os.listdir(args.ckpt_dir)):
                            full = os.path.join(args.ckpt_dir, fn)
                            if fn.endswith(".pt") and full != keep:
                                os.remove(full)
                                log.warning(f"removed old checkpoint {full}")
                        save_checkpoint(model, opt, step)
                        log.info("retry succeeded")
                elif RANK == 0:
                    save_checkpoint(model, opt, step)
                dist.barrier()
            if args.fault == "sleep_forever" and RANK == args.fault_rank and step == args.fault_step:
                threading.Event().wait()
            time.sleep(args.step_sleep)
        if done:
            break
    say(f"training finished: {step} steps in {time.time() - t_start:.1f}s")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.record:
        from torch.distributed.elastic.multiprocessing.errors import record
        main = record(main)
    main()
