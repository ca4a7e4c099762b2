#!/usr/bin/env python3
"""Small DDP (gloo) training job used to produce every run of set r34.
Behaviour is chosen by env SCEN, FAIL_RANK, FAIL_STEP (see hooks below)."""
import datetime
import json
import logging
import os
import sys
import time
import warnings

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

SCEN = os.environ.get("SCEN", "healthy")
FAIL_RANK = int(os.environ.get("FAIL_RANK", "-1"))
FAIL_STEP = int(os.environ.get("FAIL_STEP", "10"))
STEPS = int(os.environ.get("STEPS", "30"))
PG_TIMEOUT = int(os.environ.get("PG_TIMEOUT", "30"))
CKPT_DIR = os.environ.get("CKPT_DIR", "")
CKPT_EVERY = int(os.environ.get("CKPT_EVERY", "10"))
LR = float(os.environ.get("LR", "0.01"))
DATA_DIR = os.environ.get("DATA_DIR", "")
log = logging.getLogger("train")


class JsonlShards(Dataset):
    """Reads samples from DATA_DIR/shard-XX.jsonl (one shard per rank) when DATA_DIR is set."""

    def __init__(self, rank, n=512):
        self.rank, self.n = rank, n
        g = torch.Generator().manual_seed(1234 + rank)
        self.x = torch.randn(n, 32, generator=g)
        self.w = torch.linspace(-1, 1, 32)
        self.lines = None
        if DATA_DIR:
            path = os.path.join(DATA_DIR, f"shard-{rank:02d}.jsonl")
            with open(path) as f:
                self.lines = f.readlines()
            self.n = len(self.lines)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if SCEN == "worker_kill" and self.rank == FAIL_RANK and i % 64 == 37:
            import signal
            os.kill(os.getpid(), signal.SIGKILL)
        if self.lines is not None:
            rec = json.loads(self.lines[i])
            x = torch.tensor(rec["x"], dtype=torch.float32)
            y = torch.tensor([rec["y"]], dtype=torch.float32)
            return x, y
        x = self.x[i]
        y = (x @ self.w).unsqueeze(0) + 0.1 * torch.sin(x[:1])
        return x, y


def setup():
    if "SLURM_PROCID" in os.environ and "RANK" not in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]
        os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    fmt = os.environ.get("LOGFMT", "rank")
    if fmt == "rank":
        f = f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s"
    elif fmt == "plain":
        f = "%(asctime)s - %(levelname)s - %(message)s"
    else:
        f = "%(message)s"
    logging.basicConfig(level=logging.INFO, format=f, stream=sys.stdout, force=True)
    return rank, world


def main(rank=None, world=None):
    if rank is None:
        rank, world = setup()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    log.info("init_process_group backend=gloo world_size=%d master=%s:%s", world,
             os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT"))
    if SCEN == "cgroup_oom" and rank == FAIL_RANK:
        with open(os.environ["OOM_CGROUP"] + "/cgroup.procs", "w") as f:
            f.write(str(os.getpid()))
    if SCEN == "prlimit_oom" and rank == FAIL_RANK:
        import subprocess
        subprocess.run(["prlimit", f"--pid={os.getpid()}", "--as=1500000000"], check=True)
    if SCEN == "emfile" and rank == FAIL_RANK:
        import subprocess
        subprocess.run(["prlimit", f"--pid={os.getpid()}", "--nofile=128"], check=True)
    if SCEN == "warnings":
        warnings.warn("torch.distributed._shard is deprecated and will be removed; use torch.distributed.tensor",
                      FutureWarning)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=PG_TIMEOUT))
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    ddp = model if os.environ.get("NO_DDP") else DDP(model)  # NO_DDP: hand-written gradient all-reduce
    opt = torch.optim.SGD(ddp.parameters(), lr=LR, momentum=0.9)
    start_step = 0
    resume = os.environ.get("RESUME")
    if resume:
        log.info("resuming from %s", resume)
        sd = torch.load(resume, map_location="cpu")
        model.load_state_dict(sd["model"])
        opt.load_state_dict(sd["optim"])
        start_step = sd["step"]
        log.info("resumed at step %d", start_step)
    ds = JsonlShards(rank)
    n = len(ds)
    if SCEN == "early_exit" and rank == FAIL_RANK:
        n = 16 * FAIL_STEP  # this rank's shard is shorter
        ds.n = n
    sampler = DistributedSampler(ds, num_replicas=1, rank=0, shuffle=True, seed=rank)
    workers = int(os.environ.get("WORKERS", "0"))
    dl = DataLoader(ds, batch_size=16, sampler=sampler, num_workers=workers)
    writer = None
    if SCEN in ("thread_exc", "ckpt_hang"):
        from concurrent.futures import ThreadPoolExecutor
        writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ckpt-writer")
    pending = None
    step = start_step
    fds = []
    t0 = time.time()
    attempt = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    done = False
    epoch = 0
    while not done:
        sampler.set_epoch(epoch)
        for x, y in dl:
            step += 1
            hook_before(rank, step, attempt, fds)
            if SCEN == "shape" and rank == FAIL_RANK and step == FAIL_STEP:
                x = torch.cat([x, x[:, :4]], dim=1)
            if SCEN == "dtype" and rank == FAIL_RANK and step == FAIL_STEP:
                x = x.double()
            if SCEN in ("nan",) and rank == FAIL_RANK and step == FAIL_STEP:
                x[0, 0] = float("inf")
            out = ddp(x)
            loss = nn.functional.mse_loss(out, y)
            if SCEN == "spike" and FAIL_STEP <= step < FAIL_STEP + 3:
                loss = loss * (8.0 - 2 * (step - FAIL_STEP))
            opt.zero_grad()
            loss.backward()
            if os.environ.get("NO_DDP"):
                for p in model.parameters():
                    dist.all_reduce(p.grad)
                    p.grad /= world
            if SCEN == "healthy_overflow" and step in (2, 3, 5):
                log.warning("Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to %g", 65536.0 / 2 ** step)
                continue
            gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 5.0 if SCEN != "diverge" else 1e9)
            opt.step()
            lv = loss.item()
            if SCEN == "nan" and not torch.isfinite(torch.tensor(lv)):
                raise FloatingPointError(f"loss is {lv} at step {step} (grad_norm={gn.item()})")
            if step % int(os.environ.get("LOG_EVERY", "1")) == 0:
                log.info("step %d/%d loss %.4f grad_norm %.3f lr %.3g %.2fs/it", step, STEPS, lv, gn.item(), LR,
                         (time.time() - t0) / max(1, step - start_step))
            if SCEN == "mismatch_shape" and step == FAIL_STEP:
                m = torch.tensor([lv, float(len(x))]) if rank != FAIL_RANK else torch.tensor([lv, float(len(x)), gn.item()])
                dist.all_reduce(m)
            if SCEN == "mismatch_op" and step == FAIL_STEP:
                m = torch.tensor([lv])
                if rank == FAIL_RANK:
                    dist.broadcast(m, src=0)
                else:
                    dist.all_reduce(m)
            if SCEN == "callback_caught" and step == FAIL_STEP and rank == FAIL_RANK:
                try:
                    on_log_callback({"loss": lv, "step": step, "grad_norm": gn.item(), "lr": None})
                except Exception:
                    log.exception("callback MetricsLogger.on_log raised; disabling it for the rest of the run")
            if SCEN == "callback" and step == FAIL_STEP and rank == FAIL_RANK:
                on_log_callback({"loss": lv, "step": step, "grad_norm": gn.item(), "lr": None})
            if CKPT_DIR and step % CKPT_EVERY == 0:
                pending = checkpoint(rank, step, model, opt, writer, pending)
            if SCEN == "diverge" and lv > 1e12:
                pass
            if step >= STEPS:
                done = True
                break
            time.sleep(float(os.environ.get("STEP_SLEEP", "0.15")))
        else:
            epoch += 1
            if SCEN == "early_exit" and rank == FAIL_RANK:
                log.info("epoch %d finished: rank data exhausted after %d steps, exiting", epoch, step)
                return
    if pending is not None:
        pending.result()
    dist.barrier()
    log.info("training finished: %d steps in %.1fs", step, time.time() - t0)
    dist.destroy_process_group()


def on_log_callback(logs):
    # e.g. a metrics-logger callback formatting a field that may be None
    msg = "step={step} loss={loss:.4f} lr={lr:.2e}".format(**logs)
    log.info(msg)


def hook_before(rank, step, attempt, fds):
    if rank != FAIL_RANK or step != FAIL_STEP:
        if SCEN == "emfile" and rank == FAIL_RANK and step > 2:
            pass
        else:
            return
    if SCEN == "exc_value":
        metrics = {"tokens_per_sec": "n/a"}
        float(metrics["tokens_per_sec"])
    elif SCEN == "exc_index":
        schedule = [0.1 * i for i in range(FAIL_STEP - 1)]
        _ = schedule[step - 1]
    elif SCEN == "transient" and attempt == 0:
        raise RuntimeError("transient failure on attempt 0 (simulated flaky host read)")
    elif SCEN == "sleep":
        log.info("dumping debug state...")
        time.sleep(3600)
    elif SCEN == "fifo_read":
        with open(os.environ["FIFO_PATH"]) as f:  # no writer: open() blocks forever
            f.read()
    elif SCEN == "deadlock":
        import threading
        lock = threading.Lock()
        with lock:
            log.info("flushing metrics buffer")
            with lock:  # non-reentrant: blocks forever
                pass
    elif SCEN == "abort":
        os.abort()
    elif SCEN == "segv":
        import ctypes
        import faulthandler
        faulthandler.enable()
        ctypes.string_at(0)
    elif SCEN == "cgroup_oom" or SCEN == "prlimit_oom":
        cache = []
        log.info("building activation cache")
        for _ in range(200):
            cache.append(torch.ones(64, 1024, 1024))  # 256 MiB each
    elif SCEN == "emfile":
        for i in range(64):
            fds.append(open(os.devnull))
    elif SCEN == "retry":
        import socket
        for attempt_no in range(1, 4):
            try:
                log.info("fetching eval shard from http://127.0.0.1:40999/shards/eval-000.jsonl")
                socket.create_connection(("127.0.0.1", 40999), timeout=2).close()
                break
            except OSError:
                log.warning("eval shard fetch failed, retrying (%d/3) in 1s", attempt_no, exc_info=True)
                time.sleep(1)
                if attempt_no == 2:
                    log.info("falling back to local eval shard cache")
                    break


def checkpoint(rank, step, model, opt, writer, pending):
    path = os.path.join(CKPT_DIR, f"step{step:05d}", f"shard{rank}.pt")
    if SCEN == "ckpt_rank0" and rank != 0:
        dist.barrier()
        return pending
    log.info("saving checkpoint to %s", path)
    sd = {"model": model.state_dict(), "optim": opt.state_dict(), "step": step,
          "pad": torch.zeros(int(os.environ.get("CKPT_PAD", "1000")))}
    if writer is not None:
        if pending is not None:
            pending.result()

        def write():
            if SCEN == "thread_exc" and rank == FAIL_RANK and step >= FAIL_STEP:
                meta = {"step": step, "saved_at": datetime.datetime.now()}
                json.dumps(meta)
            if SCEN == "ckpt_hang" and rank == FAIL_RANK and step >= FAIL_STEP:
                with open(os.environ["FIFO_PATH"], "wb") as f:  # nothing reads it: blocks
                    f.write(b"x")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            torch.save(sd, path)
        pending = writer.submit(write)
        dist.barrier()
        return pending
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save(sd, path)
    log.info("checkpoint saved: %s", path)
    dist.barrier()
    return pending


def spawn_entry(rank, world):
    os.environ["RANK"] = str(rank)
    os.environ["WORLD_SIZE"] = str(world)
    os.environ["LOCAL_RANK"] = str(rank)
    setup()
    main(rank, world)


if __name__ == "__main__":
    if os.environ.get("SPAWN"):
        import torch.multiprocessing as mp
        w = int(os.environ["SPAWN"])
        mp.spawn(spawn_entry, args=(w,), nprocs=w, join=True)
    else:
        main()
