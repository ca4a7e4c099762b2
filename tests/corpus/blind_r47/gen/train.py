"""Tiny DDP trainer (CPU, gloo) used to make the r47 runs.
Behaviour is picked by opaque env codes so nothing in the logs names the scenario:
  R47_CASE (code), R47_BAD (the rank that misbehaves), R47_AT (step), R47_LOG (logging style),
  R47_STEPS, R47_TIMEOUT (seconds for the process group), R47_CKPT (checkpoint dir), R47_EVERY.
"""
import ctypes
import faulthandler
import json
import logging
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

CASE = os.environ.get("R47_CASE", "")
BAD = int(os.environ.get("R47_BAD", "-1"))
AT = int(os.environ.get("R47_AT", "10"))
STYLE = os.environ.get("R47_LOG", "print")
STEPS = int(os.environ.get("R47_STEPS", "40"))
TIMEOUT = int(os.environ.get("R47_TIMEOUT", "30"))
CKPT = os.environ.get("R47_CKPT", "")
EVERY = int(os.environ.get("R47_EVERY", "10"))
SLEEP = float(os.environ.get("R47_SLEEP", "0.05"))
HID = int(os.environ.get("R47_HID", "64"))

if os.environ.get("R47_FH"):
    faulthandler.enable()
    faulthandler.dump_traceback_later(int(os.environ["R47_FH"]), exit=False)


class Log:
    """One logger whatever the style."""

    def __init__(self, rank, world):
        self.rank, self.world = rank, world
        self.bar = None
        if STYLE == "logging":
            logging.basicConfig(
                level=logging.INFO,
                format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s",
                stream=sys.stdout,
            )
            self.lg = logging.getLogger("train")
        elif STYLE == "trainer":
            logging.basicConfig(
                level=logging.INFO,
                format="%(asctime)s | %(levelname)s | %(name)s | %(message)s",
                datefmt="%Y-%m-%d %H:%M:%S",
                stream=sys.stdout,
            )
            self.lg = logging.getLogger("minitrainer.trainer")

    def info(self, msg, **kv):
        if STYLE == "json":
            rec = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S") + f".{int(time.time()*1000)%1000:03d}Z",
                   "level": "INFO", "rank": self.rank, "msg": msg, **kv}
            print(json.dumps(rec), flush=True)
        elif STYLE in ("logging", "trainer"):
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            self.lg.info(f"{msg} {extra}".strip())
        else:
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            print(f"[r{self.rank}] {msg} {extra}".strip(), flush=True)

    def warn(self, msg):
        if STYLE == "json":
            print(json.dumps({"ts": time.strftime("%Y-%m-%dT%H:%M:%S"), "level": "WARNING", "rank": self.rank,
                              "msg": msg}), flush=True)
        elif STYLE in ("logging", "trainer"):
            self.lg.warning(msg)
        else:
            print(f"[r{self.rank}] WARNING: {msg}", flush=True)

    def step(self, step, loss, dt):
        if STYLE == "tqdm":
            if self.rank == 0:
                if self.bar is None:
                    from tqdm import tqdm
                    self.bar = tqdm(total=STEPS, desc="train", file=sys.stderr, mininterval=0.5)
                self.bar.update(1)
                self.bar.set_postfix(loss=f"{loss:.4f}")
                if step % 10 == 0:
                    self.bar.write(f"step {step} loss {loss:.4f}")
            return
        if STYLE == "trainer":
            if self.rank == 0:
                self.lg.info(f"| epoch 001 | step {step:05d} / {STEPS:05d} | loss {loss:.4f} | lr 1.0e-03 | "
                             f"ms/step {dt*1000:.1f} | world {self.world}")
            return
        self.info("step", step=step, loss=f"{loss:.4f}", step_ms=f"{dt*1000:.1f}")


# ---------------------------------------------------------------- helpers a real code base has
_stats_lock = threading.Lock()
_stats = {}


def _merge_stats(d):
    with _stats_lock:
        _stats.update(d)


def refresh_stats(step):
    with _stats_lock:
        _merge_stats({"step": step})


def read_next_manifest(path):
    with open(path) as f:  # the manifest is produced by another service
        return f.read()


def sync_with_remote_store(step):
    deadline = time.time() + 3600
    while time.time() < deadline:
        time.sleep(5)


def release_shard_handles():
    os._exit(3)


def fetch_native_buffer(addr):
    return ctypes.string_at(addr, 64)


class ShardDataset(torch.utils.data.Dataset):
    def __init__(self, rank, n, feat=32):
        g = torch.Generator().manual_seed(1234 + rank)
        self.x = torch.randn(n, feat, generator=g)
        self.y = self.x.sum(1, keepdim=True) * 0.1
        self.rank = rank

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if CASE == "w5" and self.rank == BAD and i == AT:
            _decode_record(i)
        return self.x[i], self.y[i]


def _decode_record(i):
    os.kill(os.getpid(), signal.SIGKILL)


class Prefetcher:
    def __init__(self, rank, world):
        self.q = queue.Queue(maxsize=4)
        self.rank = rank
        self.t = threading.Thread(target=self._run, name="prefetch", daemon=True)
        self.t.start()

    def _run(self):
        i = 0
        while True:
            rec = '{"x": [0.1, 0.2], "len": 2}' if not (CASE == "t3" and self.rank == BAD and i == AT) else '{"x": [0.1, 0.2'
            sample = self._parse(rec, i)
            self.q.put(sample)
            i += 1

    def _parse(self, rec, i):
        try:
            return json.loads(rec)
        except json.JSONDecodeError as e:
            raise ValueError(f"corrupt sample #{i} in shard train-{self.rank:05d}.jsonl: {e}") from e

    def get(self):
        return self.q.get()


def save_checkpoint(model, opt, step):
    os.makedirs(CKPT, exist_ok=True)
    path = os.path.join(CKPT, f"step_{step:06d}.pt")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, path)
    return path


# ---------------------------------------------------------------- main
def main(rank=None, world=None):
    if rank is None:
        if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
            os.environ["RANK"] = os.environ["SLURM_PROCID"]
            os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
            os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
        rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    else:
        os.environ["RANK"], os.environ["WORLD_SIZE"] = str(rank), str(world)
    torch.set_num_threads(1)
    log = Log(rank, world)
    log.info("starting", pid=os.getpid(), host=os.uname().nodename, world_size=world)
    dist.init_process_group("gloo", timeout=timedelta(seconds=TIMEOUT))
    log.info("process group ready", backend="gloo")

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, HID), nn.ReLU(), nn.Linear(HID, 1))
    if CKPT and os.environ.get("R47_RESUME"):
        sd = torch.load(os.environ["R47_RESUME"], map_location="cpu")
        model.load_state_dict(sd["model"])
        log.info("resumed", path=os.environ["R47_RESUME"])
    manual = bool(os.environ.get("R47_NODDP"))
    ddp = model if manual else DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("R47_LR", "0.01")))
    n = STEPS * 8
    if CASE == "e4" and rank == BAD:
        n = AT * 8  # this rank's shard is shorter
    ds = ShardDataset(rank, n)
    nw = 1 if CASE == "w5" else 0
    dl = torch.utils.data.DataLoader(ds, batch_size=8, num_workers=nw)
    pre = Prefetcher(rank, world) if CASE == "t3" else None
    if os.environ.get("R47_NOISE"):
        log.warn("grad_accum=1 with small batch: throughput may be low")
        if rank == 0:
            import warnings
            warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly",
                          UserWarning)

    step = 0
    t0 = time.time()
    for x, y in dl:
        step += 1
        ts = time.time()
        if pre is not None:
            pre.get()
        if rank == BAD and step == AT:
            if CASE == "s1":
                read_next_manifest(os.environ["R47_FIFO"])
            elif CASE == "l2":
                refresh_stats(step)
            elif CASE == "z3":
                sync_with_remote_store(step)
            elif CASE == "x7":
                fetch_native_buffer(0x8)
            elif CASE == "q3":
                release_shard_handles()
            elif CASE == "d9":
                open(f"/tmp/r47data/shard-{rank:05d}-of-{world:05d}.bin", "rb")
            elif CASE == "h2":
                x = torch.cat([x, x[:, :1]], dim=1)  # extra column from the new feature set
            elif CASE == "n6":
                x = x.clone()
                x[3, 5] = float("inf")
            elif CASE == "g8":
                x = torch.from_numpy(x.numpy().astype("float64"))
        if CASE == "m1" and step == AT:
            metrics = torch.zeros(3 if rank != BAD else 2)
            dist.all_reduce(metrics)
        if CASE == "m2" and step == AT:
            t = torch.ones(4)
            if rank == BAD:
                dist.broadcast(t, src=0)
            else:
                dist.all_reduce(t)
        if CASE == "mem" and rank == BAD and step >= AT:
            globals().setdefault("_keep", []).append(torch.ones(64 * 1024 * 1024 // 4))  # activations cache
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step} (rank {rank}); stopping training")
        opt.zero_grad()
        loss.backward()
        if manual:
            for prm in model.parameters():
                dist.all_reduce(prm.grad)
                prm.grad /= world
        opt.step()
        if SLEEP:
            time.sleep(SLEEP)
        log.step(step, loss.item(), time.time() - ts)
        if CKPT and rank == 0 and step % EVERY == 0 and not os.environ.get("R47_RESUME"):
            p = save_checkpoint(model, opt, step)
            log.info("saved checkpoint", path=p)
        if os.environ.get("R47_SKIPERR") and step == AT and rank == 1:
            try:
                json.loads('{"bad": ')
            except Exception:
                logging.getLogger("data").exception("skipping malformed record at step %d", step)
                print(f"[r{rank}] skipping malformed record at step {step}", flush=True)
        if os.environ.get("R47_OVF") and rank == 0 and step in (1, 2, 3):
            log.warn(f"Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to {65536 >> step}")
    log.info("training finished", steps=step, seconds=f"{time.time()-t0:.1f}")
    if CASE == "e4" and rank == BAD:
        log.info("epoch complete, exiting")
        sys.exit(0)
    dist.barrier()
    dist.destroy_process_group()
    log.info("done")


if __name__ == "__main__":
    try:
        main()
    except Exception:
        if os.environ.get("TORCH_FR_DUMP_TEMP_FILE"):
            try:
                tr = torch._C._distributed_c10d._dump_fr_trace()
                with open(os.environ["TORCH_FR_DUMP_TEMP_FILE"] + os.environ["RANK"], "wb") as f:
                    f.write(tr)
            except Exception as e:  # noqa
                print(f"flight recorder dump failed: {e}", file=sys.stderr)
        raise
