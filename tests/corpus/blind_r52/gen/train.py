#!/usr/bin/env python3
"""Tiny DDP (gloo) trainer used to generate the r52 runs. Behaviour is chosen by env vars:
MODE, FAIL_RANK, FAIL_STEP, STEPS, STEP_SLEEP, LOGSTYLE (print|logging|json|tqdm|framework), PG_TIMEOUT.
Every failure below is real: raised by Python/torch, killed by a signal, or hung until a timeout."""
import datetime
import json
import logging
import os
import queue
import signal
import sys
import threading
import time

import torch
import torch.distributed as dist
import torch.nn as nn

MODE = os.environ.get("MODE", "ok")
FAIL_RANK = int(os.environ.get("FAIL_RANK", "1"))
FAIL_STEP = int(os.environ.get("FAIL_STEP", "5"))
STEPS = int(os.environ.get("STEPS", "20"))
STEP_SLEEP = float(os.environ.get("STEP_SLEEP", "0.2"))
STYLE = os.environ.get("LOGSTYLE", "print")
PG_TIMEOUT = int(os.environ.get("PG_TIMEOUT", "30"))
CKPT_DIR = os.environ.get("CKPT_DIR", "/tmp/r52_ckpt")


class Log:
    def __init__(self, rank, world):
        self.rank, self.world = rank, world
        if STYLE == "logging":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format=f"%(asctime)s %(levelname)s [Rank {rank}] %(name)s: %(message)s")
            self.lg = logging.getLogger("trainer")
        self.bar = None

    def info(self, msg, **kv):
        if STYLE == "logging":
            self.lg.info(msg + "".join(f" {k}={v}" for k, v in kv.items()))
        elif STYLE == "json":
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": "info",
                              "rank": self.rank, "msg": msg, **kv}), flush=True)
        elif STYLE == "framework":
            print(f"| {time.strftime('%Y-%m-%d %H:%M:%S')} | INFO | trainer | {msg}"
                  + "".join(f" | {k} {v}" for k, v in kv.items()), flush=True)
        else:
            print(f"[rank{self.rank}] {msg}" + "".join(f" {k}={v}" for k, v in kv.items()), flush=True)

    def warn(self, msg):
        if STYLE == "logging":
            self.lg.warning(msg)
        elif STYLE == "json":
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": "warning",
                              "rank": self.rank, "msg": msg}), flush=True)
        else:
            print(f"WARNING rank {self.rank}: {msg}", flush=True)

    def step(self, step, loss, dt):
        if STYLE == "tqdm":
            if self.bar is None:
                from tqdm import tqdm
                self.bar = tqdm(total=STEPS, desc=f"rank {self.rank} train", file=sys.stderr, mininterval=0)
            self.bar.update(1)
            self.bar.set_postfix(loss=f"{loss:.4f}")
            if step % 5 == 0:
                print(f"rank {self.rank} step {step} loss {loss:.4f}", flush=True)
        elif STYLE == "framework":
            print(f"| {time.strftime('%Y-%m-%d %H:%M:%S')} | INFO | trainer | epoch 1 | step {step}/{STEPS} "
                  f"| loss {loss:.4f} | lr 1.000e-03 | step_time {dt:.3f}s", flush=True)
        else:
            self.info("train step", step=step, loss=f"{loss:.4f}", step_time=f"{dt:.3f}")


class DS(torch.utils.data.Dataset):
    def __init__(self, rank, n=256):
        self.rank, self.n = rank, n
        self.open_handles = []

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i * 7 + self.rank)
        x = torch.randn(16, generator=g)
        if MODE == "bad_sample" and self.rank == FAIL_RANK and i == 37:
            rec = '{"text": "the quick brown fox", "label": 3'  # truncated record in the shard
            json.loads(rec)
        if MODE == "worker_kill" and self.rank == FAIL_RANK and i >= 40:
            os.kill(os.getpid(), signal.SIGKILL)
        if MODE == "emfile" and self.rank == FAIL_RANK:
            self.open_handles.append(open(f"/tmp/r52_shards/shard_{i % 8}.bin", "rb"))  # leaked handle bug
        if MODE == "nan" and self.rank == FAIL_RANK and i >= 64:
            x[3] = float("inf")
        return x, x.sum().unsqueeze(0)


def main():
    if "RANK" in os.environ:
        rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    else:
        rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    run(rank, world)


def run(rank, world):
    log = Log(rank, world)
    if os.environ.get("PIDFILE_DIR"):
        with open(os.path.join(os.environ["PIDFILE_DIR"], f"pid{rank}"), "w") as f:
            f.write(str(os.getpid()))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    if MODE == "segv" and rank == FAIL_RANK:
        pass
    log.info("initializing process group", backend="gloo", world_size=world)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=PG_TIMEOUT))
    log.info("process group ready")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    if MODE == "load_mismatch":
        os.makedirs(CKPT_DIR, exist_ok=True)
        path = os.path.join(CKPT_DIR, "step_1000.pt")
        if rank == 0 and not os.path.exists(path):
            old = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
            torch.save({"model": old.state_dict(), "step": 1000}, path)
        dist.barrier()
        log.info("resuming from checkpoint", path=path)
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd["model"])
    if MODE == "corrupt":
        path = os.path.join(CKPT_DIR, "latest.pt")
        if rank == 0:
            log.info("loading checkpoint", path=path)
            sd = torch.load(path, map_location="cpu")
            model.load_state_dict(sd["model"])
        dist.barrier()
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("LR", "0.01")))
    ds = DS(rank)
    nw = 2 if MODE in ("worker_kill", "bad_sample") else 0
    dl = torch.utils.data.DataLoader(ds, batch_size=8, num_workers=nw)
    it = iter(dl)
    q = queue.Queue(maxsize=4)
    if MODE == "bgthread" and rank == FAIL_RANK:
        def prefetch():
            stats = None
            for s in range(10**6):
                if s == FAIL_STEP:
                    stats.update(step=s)  # bug: stats never initialised
                q.put(s)
        threading.Thread(target=prefetch, name="prefetch", daemon=True).start()
    if MODE == "data_missing" and rank == FAIL_RANK:
        shard = f"/tmp/r52_data/train-0000{rank}-of-0000{world}.jsonl"
        log.info("opening shard", path=shard)
        open(shard).read()
    if MODE == "oom_alloc":
        hog = []
    if MODE == "warn":
        import warnings
        warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) instead.", FutureWarning)
        log.warn("NCCL_ASYNC_ERROR_HANDLING is deprecated; using TORCH_NCCL_ASYNC_ERROR_HANDLING")
    t0 = time.time()
    for step in range(1, STEPS + 1):
        ts = time.time()
        try:
            x, y = next(it)
        except StopIteration:
            it = iter(dl)
            x, y = next(it)
        if rank == FAIL_RANK and step == FAIL_STEP:
            if MODE == "hang_io":
                log.info("reading next shard index from pipe", path="/tmp/r52_fifo")
                open("/tmp/r52_fifo").read()  # FIFO with no writer: blocks forever
            elif MODE == "shape":
                proj = torch.randn(24, 8)
                x = x @ proj  # 8x16 @ 24x8
            elif MODE == "dtype":
                x = torch.mm(x.double(), model[0].weight.t())
            elif MODE == "runtime":
                raise RuntimeError(f"grad accumulation buffer not initialised for micro-batch {step % 4}")
            elif MODE == "early_exit":
                log.info("no more samples for this rank, exiting")
                sys.exit(0)
            elif MODE == "segv":
                import ctypes
                log.info("calling native augmentation kernel")
                ctypes.string_at(0)
            elif MODE == "mismatch":
                pass
            elif MODE == "abort":
                os.abort()
        if MODE == "bgthread" and rank == FAIL_RANK:
            q.get()
        if MODE == "mismatch" and step == FAIL_STEP:
            n_tok = torch.tensor([float(x.numel())] * (7 if rank == FAIL_RANK else 5))  # bug: per-rank metric length
            log.info("all-reducing token counts")
            dist.all_reduce(n_tok)
        if MODE == "oom_alloc" and rank == FAIL_RANK and step >= FAIL_STEP:
            log.info("caching activations for replay buffer")
            for _ in range(200):
                hog.append(torch.ones(64 * 1024 * 1024 // 4))  # 64 MiB each
                time.sleep(0.02)
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if MODE == "nan" and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}; stopping (rank {rank})")
        opt.zero_grad()
        loss.backward()
        opt.step()
        if MODE == "swallow" and step == FAIL_STEP and rank == 0:
            try:
                raise ConnectionError("HTTPSConnectionPool(host='metrics.internal', port=443): Max retries exceeded")
            except ConnectionError:
                logging.basicConfig()
                logging.getLogger("metrics").exception("metrics push failed, will retry next interval")
        time.sleep(STEP_SLEEP)
        log.step(step, loss.item(), time.time() - ts)
        if MODE in ("ckpt_full", "ckpt_ro") and step == FAIL_STEP and rank == 0:
            path = os.path.join(CKPT_DIR, f"step_{step}.pt")
            log.info("saving checkpoint", path=path)
            big = {"model": model.state_dict(), "opt": opt.state_dict(), "buf": torch.zeros(4 * 1024 * 1024)}
            torch.save(big, path)
            log.info("checkpoint saved", path=path)
        if MODE == "ok_ckpt" and step % 10 == 0 and rank == 0:
            os.makedirs(CKPT_DIR, exist_ok=True)
            torch.save({"model": model.state_dict()}, os.path.join(CKPT_DIR, f"step_{step}.pt"))
            log.info("checkpoint saved", step=step)
    dist.barrier()
    log.info("training complete", steps=STEPS, seconds=f"{time.time() - t0:.1f}")
    dist.destroy_process_group()


def _spawn_entry(r, w):
    os.environ["RANK"], os.environ["WORLD_SIZE"] = str(r), str(w)
    run(r, w)


if __name__ == "__main__":
    if os.environ.get("LAUNCH") == "spawn":
        import torch.multiprocessing as mp

        mp.spawn(_spawn_entry, args=(int(os.environ["NPROCS"]),), nprocs=int(os.environ["NPROCS"]))
    else:
        main()
