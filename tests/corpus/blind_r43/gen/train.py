#!/usr/bin/env python3
"""Tiny CPU/gloo DDP trainer used to make the blind r43 run set.

Everything is configured by environment variables (see CFG below). Failures are real: exceptions really raised,
processes really killed (cgroup OOM or an external watcher), real deadlocks, real ENOSPC/EROFS, real FIFOs that block.
"""
import concurrent.futures
import ctypes
import datetime
import faulthandler
import json
import logging
import math
import os
import queue
import random
import resource
import signal
import sys
import threading
import time
import urllib.request
import warnings

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def E(k, d=None, t=str):
    v = os.environ.get(k)
    return d if v is None or v == "" else t(v)


CFG = dict(
    style=E("STYLE", "plain"), steps=E("STEPS", 1000, int), fail=E("FAIL", "none"), fail_rank=E("FAIL_RANK", -1, int),
    fail_step=E("FAIL_STEP", -1, int), pg_timeout=E("PG_TIMEOUT", 30, int), step_sleep=E("STEP_SLEEP", 0.0, float),
    log_every=E("LOG_EVERY", 20, int), eval_every=E("EVAL_EVERY", 250, int), ckpt_every=E("CKPT_EVERY", 500, int),
    ckpt_dir=E("CKPT_DIR", ""), ckpt_mode=E("CKPT_MODE", "rank0"), data=E("DATA", "synthetic"),
    data_dir=E("DATA_DIR", ""), rank_tag=E("RANK_TAG", 0, int), all_log=E("ALL_LOG", 0, int),
    noise=E("NOISE", 1, int), lr=E("LR", 0.01, float), hidden=E("HIDDEN", 64, int), resume=E("RESUME", ""),
    cgroup=E("CGROUP", ""), hub=E("HUB", ""), ext_dir=E("EXT_DIR", ""), nofile=E("NOFILE", 0, int),
    workers=E("WORKERS", 0, int), deadline=E("CKPT_DEADLINE", 20, int), run_name=E("RUN_NAME", "tiny-mlp"),
)

RANK = 0
WORLD = 1
LOCAL_RANK = 0
T0 = time.time()


# ----------------------------------------------------------------------------------------------- logging styles
class Log:
    def __init__(self, style, rank):
        self.style, self.rank = style, rank
        self.py = logging.getLogger("trainer")
        if style in ("logging", "tqdm"):
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
        elif style == "hf":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format="[%(levelname)s|%(filename)s:%(lineno)d] %(asctime)s >> %(message)s")
        elif style == "lightning":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s: %(message)s")
            self.py = logging.getLogger("lightning.pytorch")
        self.bar_last = 0.0

    def _tag(self, msg):
        return f"[rank {self.rank}] {msg}" if CFG["rank_tag"] else msg

    def emit(self, level, msg, **fields):
        s = self.style
        msg = self._tag(msg)
        if s in ("logging", "tqdm", "hf", "lightning"):
            getattr(self.py, level.lower())(msg)
            return
        now = time.time()
        if s == "plain":
            line = msg if level == "INFO" else f"{level}: {msg}"
        elif s == "tod":
            line = f"[{time.strftime('%H:%M:%S', time.localtime(now))}] {level:<7} {msg}"
        elif s == "iso":
            line = f"{datetime.datetime.fromtimestamp(now, datetime.timezone.utc).isoformat(timespec='milliseconds')} {level} {msg}"
        elif s == "epoch":
            line = f"{now:.3f} {level.lower()} {msg}"
        elif s == "json":
            rec = {"ts": round(now, 3), "level": level.lower(), "rank": self.rank, "msg": msg}
            rec.update(fields)
            line = json.dumps(rec)
        else:
            line = msg
        print(line, flush=True, file=sys.stdout if level == "INFO" else sys.stderr)

    def info(self, msg, **f):
        self.emit("INFO", msg, **f)

    def warning(self, msg, **f):
        self.emit("WARNING", msg, **f)

    def error(self, msg, **f):
        self.emit("ERROR", msg, **f)

    def exception(self, msg):
        import traceback
        self.emit("ERROR", msg + "\n" + traceback.format_exc().rstrip())

    def bar(self, step, total, loss, rate, epoch=0):
        pct = int(100 * step / total)
        fill = int(10 * step / total)
        b = "█" * fill + " " * (10 - fill)
        el = time.time() - T0
        left = (total - step) / max(rate, 1e-6)
        fmt = lambda x: f"{int(x // 60):02d}:{int(x % 60):02d}"
        if self.style == "lightning":
            txt = f"Epoch {epoch}: {pct:3d}%|{b}| {step}/{total} [{fmt(el)}<{fmt(left)}, {rate:.2f}it/s, v_num=0, train_loss={loss:.3f}]"
        else:
            txt = f"train: {pct:3d}%|{b}| {step}/{total} [{fmt(el)}<{fmt(left)}, {rate:.2f}it/s, loss={loss:.4f}]"
        sys.stderr.write("\r" + txt)
        sys.stderr.flush()

    def step(self, step, loss, lr, ms, gnorm, epoch):
        s = self.style
        if s == "hf":
            print({"loss": round(loss, 4), "grad_norm": round(gnorm, 4), "learning_rate": lr, "epoch": round(epoch, 2)},
                  flush=True)
        elif s in ("tqdm", "lightning"):
            self.bar(step, CFG["steps"], loss, 1000.0 / max(ms, 1e-3), int(epoch))
        elif s == "json":
            self.info("train", step=step, loss=round(loss, 5), lr=lr, step_ms=round(ms, 2), grad_norm=round(gnorm, 4))
        else:
            self.info(f"step {step}/{CFG['steps']} | loss {loss:.4f} | lr {lr:.3e} | grad_norm {gnorm:.3f} | {ms:.1f} ms/step")


LOG = None


# ----------------------------------------------------------------------------------------------- model and data
class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Linear(32, hidden)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


W_TRUE = torch.randn(32, 1, generator=torch.Generator().manual_seed(0))


class Synthetic:
    def __init__(self, rank):
        self.g = torch.Generator().manual_seed(1000 + rank)

    def __iter__(self):
        while True:
            x = torch.randn(16, 32, generator=self.g)
            yield x, x @ W_TRUE + 0.05 * torch.randn(16, 1, generator=self.g)


class JsonlShard:
    """Each line of shard-XXXXX.jsonl is one batch: {"x": [[32 floats] x B], "y": [B floats]}."""

    def __init__(self, data_dir, rank, epochs=100):
        self.path = os.path.join(data_dir, f"shard-{rank:05d}.jsonl")
        self.epochs = epochs

    def __iter__(self):
        for _ in range(self.epochs):
            with open(self.path) as f:
                for lineno, line in enumerate(f, 1):
                    rec = json.loads(line)
                    x = torch.tensor(rec["x"], dtype=torch.float32)
                    y = torch.tensor(rec["y"], dtype=torch.float32).view(-1, 1)
                    yield x, y


class NpyShards:
    """data_dir/rankR/part-K.npy arrays (B*n, 33): 32 features + target; read part after part."""

    def __init__(self, data_dir, rank):
        self.dir = os.path.join(data_dir, f"part-r{rank}")

    def __iter__(self):
        for name in sorted(os.listdir(self.dir)):
            arr = torch.from_numpy(np.load(os.path.join(self.dir, name)))
            for i in range(0, arr.shape[0] - 15, 16):
                b = arr[i:i + 16]
                yield b[:, :32], b[:, 32:33]


class ChunkFiles:
    """data_dir/chunks-rR/chunk-K.jsonl, one batch per line; keeps a handle cache (never closed: the bug)."""

    def __init__(self, data_dir, rank):
        self.dir = os.path.join(data_dir, f"chunks-r{rank}")
        self.handles = {}

    def __iter__(self):
        while True:
            for name in sorted(os.listdir(self.dir)):
                p = os.path.join(self.dir, name)
                if p not in self.handles:
                    self.handles[p] = open(p)
                f = self.handles[p]
                f.seek(0)
                for line in f:
                    rec = json.loads(line)
                    yield torch.tensor(rec["x"]), torch.tensor(rec["y"]).view(-1, 1)


class Prefetcher:
    """Background thread parsing the jsonl shard into a queue (a thread that dies leaves the queue empty)."""

    def __init__(self, src, rank):
        self.q = queue.Queue(maxsize=8)
        self.src = src
        self.t = threading.Thread(target=self._run, name="batch-prefetch", daemon=True)
        self.t.start()

    def _run(self):
        for item in self.src:
            self.q.put(item)

    def __iter__(self):
        while True:
            yield self.q.get()


class MapDS(torch.utils.data.Dataset):
    def __init__(self, rank, n=100000):
        self.rank, self.n = rank, n
        self.leak = []

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i * 131 + self.rank)
        x = torch.randn(32, generator=g)
        wi = torch.utils.data.get_worker_info()
        if CFG["fail"] == "dl_worker_oom" and self.rank == CFG["fail_rank"] and wi is not None and wi.id == 1 \
                and i >= CFG["fail_step"] * 16:
            self.leak.append(torch.ones(4 * 1024 * 1024))
        return x, x @ W_TRUE[:, 0].unsqueeze(-1)


def join_cgroup(pid=None):
    d = CFG["cgroup"]
    if not d:
        return
    with open(os.path.join(d, "cgroup.procs"), "w") as f:
        f.write(str(pid or os.getpid()))


def worker_init(wid):
    if CFG["fail"] == "dl_worker_oom" and RANK == CFG["fail_rank"] and wid == 1:
        join_cgroup()


def make_loader(rank):
    d = CFG["data"]
    if d == "jsonl":
        return JsonlShard(CFG["data_dir"], rank, epochs=1 if CFG["fail"] == "early_exit" else 100)
    if d == "jsonl_prefetch":
        return Prefetcher(JsonlShard(CFG["data_dir"], rank), rank)
    if d == "npy":
        return NpyShards(CFG["data_dir"], rank)
    if d == "chunks":
        return ChunkFiles(CFG["data_dir"], rank)
    if d == "dataloader":
        dl = torch.utils.data.DataLoader(MapDS(rank), batch_size=16, num_workers=CFG["workers"],
                                         worker_init_fn=worker_init, persistent_workers=CFG["workers"] > 0)
        return (b for _ in range(100) for b in dl)
    return Synthetic(rank)


class ManualDP(nn.Module):
    """data parallel by hand: one all_reduce per parameter gradient after backward"""

    def __init__(self, m):
        super().__init__()
        self.module = m
        for p in m.parameters():
            dist.broadcast(p.data, 0)

    def forward(self, x):
        return self.module(x)

    def sync_grads(self):
        for p in self.module.parameters():
            dist.all_reduce(p.grad)
            p.grad /= WORLD


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


# ----------------------------------------------------------------------------------------------- checkpoints
def ckpt_path(step, rank=None):
    d = os.path.join(CFG["ckpt_dir"], f"step_{step:06d}")
    if CFG["ckpt_mode"] == "sharded":
        d = os.path.join(CFG["ckpt_dir"], f"local-r{rank}", f"step_{step:06d}")
    return d


def save_checkpoint(model, opt, step):
    if not CFG["ckpt_dir"]:
        return
    t = time.time()
    state = {"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step,
             "pad": torch.zeros(64 * 1024)}
    if CFG["ckpt_mode"] == "sharded" or RANK == 0:
        d = ckpt_path(step, RANK)
        if RANK == 0 or CFG["ckpt_mode"] == "sharded":
            LOG.info(f"Saving checkpoint for step {step} to {d}")
        os.makedirs(d, exist_ok=True)
        fname = os.path.join(d, f"shard_{RANK:03d}.pt" if CFG["ckpt_mode"] == "sharded" else "model.pt")
        if CFG["fail"] in ("async_timeout", "writer_hang") and RANK == CFG["fail_rank"] and step == CFG["fail_step"]:
            fname = os.path.join(d, "model.pt.partial")
            if not os.path.exists(fname):
                os.mkfifo(fname)
            ex = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ckpt-writer")
            fut = ex.submit(_write_file, state, fname)
            LOG.info(f"async checkpoint save of step {step} started (writer thread ckpt-writer_0)")
            if CFG["fail"] == "async_timeout":
                try:
                    fut.result(timeout=CFG["deadline"])
                except concurrent.futures.TimeoutError:
                    raise TimeoutError(f"async checkpoint save of step {step} to {d} did not finish within "
                                       f"{CFG['deadline']}s (writer thread still busy)")
            else:
                fut.result()
        else:
            if CFG["fail"] == "ckpt_retry" and RANK == 0:
                for attempt in range(3):
                    try:
                        torch.save(state, fname)
                        break
                    except (OSError, RuntimeError):
                        LOG.exception(f"checkpoint save attempt {attempt + 1} failed; pruning old checkpoints and retrying")
                        prune_old(keep=0, current=d)
            else:
                torch.save(state, fname)
        if RANK == 0 or CFG["ckpt_mode"] == "sharded":
            LOG.info(f"Checkpoint step {step} saved in {time.time() - t:.2f}s")
    dist.barrier()


def _write_file(state, fname):
    with open(fname, "wb") as f:
        torch.save(state, f)


def prune_old(keep, current):
    import shutil
    root = CFG["ckpt_dir"]
    for n in sorted(os.listdir(root)):
        p = os.path.join(root, n)
        if p != current:
            shutil.rmtree(p, ignore_errors=True)
            LOG.info(f"removed old checkpoint {p}")


def load_resume(model, opt):
    if not CFG["resume"]:
        return 0
    step = torch.zeros(1)
    if RANK == 0:
        LOG.info(f"Resuming from checkpoint {CFG['resume']}")
        sd = torch.load(CFG["resume"], map_location="cpu", weights_only=True)
        model.module.load_state_dict(sd["model"])
        step[0] = sd["step"]
    for p in model.module.parameters():
        dist.broadcast(p.data, 0)
    dist.broadcast(step, 0)
    LOG.info(f"Resumed at step {int(step.item())}")
    return int(step.item()) + 1


# ----------------------------------------------------------------------------------------------- failure hooks
_LOCK = threading.Lock()


def _flush_metrics(buf):
    with _LOCK:
        buf.clear()


def update_metrics(buf, v):
    with _LOCK:
        buf.append(v)
        if len(buf) > 64:
            _flush_metrics(buf)


def fused_rowsum_op():
    lib = ctypes.CDLL(os.path.join(CFG["ext_dir"], "libfused_ops.so"))
    lib.fused_rowsum.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib.fused_rowsum(None, 4096)


def fetch_from_hub():
    url = f"{CFG['hub']}/api/models/acme/tiny-mlp/resolve/main/config.json"
    for attempt in range(1, 4):
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return json.loads(r.read())
        except Exception as e:
            LOG.warning(f"Download of {url} failed (attempt {attempt}/3): {e!r}; retrying in 2s")
            time.sleep(2)
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def metrics_uploader():
    time.sleep(3)
    import socket
    s = socket.create_connection(("127.0.0.1", 52999), timeout=5)
    s.sendall(b"x")


# ----------------------------------------------------------------------------------------------- main
def main(rank=None, world=None):
    global RANK, WORLD, LOCAL_RANK, LOG
    if rank is not None:  # mp.spawn
        RANK, WORLD, LOCAL_RANK = rank, world, rank
    elif "RANK" in os.environ:
        RANK, WORLD, LOCAL_RANK = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ["LOCAL_RANK"])
    elif "SLURM_PROCID" in os.environ:
        RANK, WORLD, LOCAL_RANK = (int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"]),
                                   int(os.environ.get("SLURM_LOCALID", 0)))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    faulthandler.enable()
    LOG = Log(CFG["style"], RANK)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    fail, frank, fstep = CFG["fail"], CFG["fail_rank"], CFG["fail_step"]
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))

    if fail == "sigterm":
        def _on_term(signum, frame):
            LOG.warning(f"Received signal {signal.Signals(signum).name}: saving emergency state and exiting")
            sys.stdout.flush()
            os._exit(143)
        signal.signal(signal.SIGTERM, _on_term)
    if CFG["nofile"]:
        resource.setrlimit(resource.RLIMIT_NOFILE, (CFG["nofile"], resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    if fail == "oom_cgroup" and RANK == frank:
        join_cgroup()
    if fail == "abi":
        sys.path.insert(0, CFG["ext_dir"])
        import fused_adam_ext  # noqa: F401
    if fail == "config_err" and RANK == 0:
        with open(os.path.join(CFG["data_dir"], "train.json")) as f:
            tc = json.load(f)
        LOG.info(f"optimizer: {tc['optimizer']['name']} lr={tc['optimizer']['lr']}")

    if RANK == 0 or CFG["all_log"]:
        LOG.info(f"Initializing process group: backend=gloo world_size={WORLD} master={os.environ['MASTER_ADDR']}:"
                 f"{os.environ.get('MASTER_PORT')}")
    dist.init_process_group("gloo", rank=RANK, world_size=WORLD,
                            timeout=datetime.timedelta(seconds=CFG["pg_timeout"]))
    if fail == "hub" and RANK == 0:
        cfg = fetch_from_hub()
        LOG.info(f"loaded config {cfg}")
    dist.barrier()

    if os.environ.get("NO_DDP"):
        model = ManualDP(Net(CFG["hidden"]))
    else:
        model = DDP(Net(CFG["hidden"]))
    opt = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=0.9)
    start = load_resume(model, opt)
    loader = iter(make_loader(RANK))
    if fail == "bg_benign" and RANK == 0:
        threading.Thread(target=metrics_uploader, name="metrics-uploader", daemon=True).start()

    if CFG["style"] == "hf" and RANK == 0:
        LOG.info("***** Running training *****")
        LOG.info(f"  Num examples = {CFG['steps'] * 16 * WORLD:,}")
        LOG.info("  Num Epochs = 3")
        LOG.info(f"  Instantaneous batch size per device = 16")
        LOG.info(f"  Total optimization steps = {CFG['steps']:,}")
    elif RANK == 0 or CFG["all_log"]:
        LOG.info(f"run {CFG['run_name']}: world_size={WORLD} steps={CFG['steps']} params="
                 f"{sum(p.numel() for p in model.parameters())}")

    if CFG["noise"] and RANK == 0:
        warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
                      "use_reentrant=True will be deprecated in a future release.", UserWarning)
    metrics_buf = []
    best = float("inf")
    scale = 2.0 ** 20
    high_for = 0
    lr = CFG["lr"]
    t_last = time.time()
    step = start
    epoch_len = max(CFG["steps"] // 3, 1)
    # -------------------------------------------------------------------------------------------- loop
    for step in range(start, CFG["steps"]):
        if fail == "crash_restart" and restart == 0 and RANK == frank and step == fstep:
            raise RuntimeError(f"Unexpected key(s) in batch: 'attention_mask' (step {step})")
        try:
            x, y = next(loader)
        except StopIteration:
            LOG.info(f"data loader exhausted after {step} steps: epoch finished, leaving training loop")
            break
        if fail == "oom_cgroup" and RANK == frank and step >= fstep:
            metrics_buf.append(torch.ones(4 * 1024 * 1024))
        if fail == "oom_watch" and RANK == frank and step >= fstep:
            metrics_buf.append(torch.ones(8 * 1024 * 1024))
        if fail == "deadlock" and RANK == frank and step == fstep:
            for _ in range(70):
                update_metrics(metrics_buf, 1.0)
        if fail == "segv" and RANK == frank and step == fstep:
            fused_rowsum_op()
        if fail == "diverge" and step >= fstep:
            lr = lr * 1.03
            for g in opt.param_groups:
                g["lr"] = lr
        if fail == "nan_skip" and not torch.isfinite(x).all():
            LOG.warning(f"non-finite values in input batch at step {step} on rank {RANK}; zeroing them and continuing")
            x = torch.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0)
            if os.environ.get("SANITIZE_TARGETS"):
                y = torch.nan_to_num(y, nan=0.0, posinf=0.0, neginf=0.0)
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        if not math.isfinite(loss.item()):
            if fail == "nan_skip":
                LOG.warning(f"non-finite loss {loss.item()} at step {step} on rank {RANK}; skipping batch")
                loss = loss.nan_to_num(0.0) * 0.0
            else:
                raise FloatingPointError(f"Loss is {loss.item()} at step {step}; aborting (check the data and the "
                                         f"learning rate)")
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if isinstance(model, ManualDP):
            model.sync_grads()
        gnorm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9))
        if fail == "overflow_warmup":
            flag = torch.tensor([0.0 if all(torch.isfinite((p.grad * scale).half()).all() for p in model.parameters())
                                 else 1.0])
            dist.all_reduce(flag)
            if flag.item() > 0:
                scale /= 2
                if RANK == 0:
                    LOG.warning(f"Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to {scale}")
                continue
        opt.step()
        if fail == "exc_key" and RANK == frank and step == fstep:
            counts = {"positive": 0, "negative": 0}
            label = "neutral"
            counts[label] += 1
        if step % CFG["log_every"] == 0:
            lt = loss.detach().clone()
            dist.all_reduce(lt)
            lt /= WORLD
            lv = lt.item()
            ms = (time.time() - t_last) * 1000 / CFG["log_every"]
            t_last = time.time()
            if RANK == 0 or CFG["all_log"]:
                LOG.step(step, lv, lr, ms, gnorm, step / epoch_len)
            if CFG["style"] == "lightning" and step and step % epoch_len == 0 and RANK == 0:
                sys.stderr.write("\n")
            if fail == "diverge":
                best = min(best, lv)
                high_for = high_for + 1 if lv > 10 * best else 0
                if high_for >= 3:
                    raise RuntimeError(f"Training diverged: loss {lv:.3f} has stayed above 10x its best ({best:.4f}) "
                                       f"for {high_for} log intervals")
            if fail in ("oom_cgroup", "oom_watch") and (RANK == frank or RANK == 0):
                LOG.info(f"host memory: rss={rss_mb():.0f}MB step={step}")
        if step and step % CFG["eval_every"] == 0:
            m = torch.tensor([loss.item(), 1.0, float(step)])
            if fail == "mismatch" and RANK == frank and step == fstep:
                m = torch.tensor([loss.item(), 1.0, float(step), 0.0])
            dist.all_reduce(m)
            if RANK == 0:
                if CFG["style"] == "hf":
                    LOG.info("***** Running Evaluation *****")
                    LOG.info(f"  Num examples = {256 * WORLD}")
                    print({"eval_loss": round(m[0].item() / WORLD, 4), "eval_runtime": 0.41,
                           "eval_samples_per_second": 1244.2, "epoch": round(step / epoch_len, 2)}, flush=True)
                elif CFG["style"] == "lightning":
                    sys.stderr.write("\n")
                    LOG.info(f"Epoch {step // epoch_len}, global step {step}: 'val_loss' reached "
                             f"{m[0].item() / WORLD:.5f} (best {m[0].item() / WORLD:.5f}), saving model to "
                             f"'{CFG['ckpt_dir'] or 'lightning_logs/version_0/checkpoints'}/epoch={step // epoch_len}-step={step}.ckpt' as top 1")
                else:
                    LOG.info(f"eval @ step {step}: val_loss={m[0].item() / WORLD:.4f} n={int(m[1].item())}")
            if CFG["noise"] and RANK == (WORLD - 1):
                warnings.warn(f"eval: {3 + step % 5} samples had empty targets and were skipped", RuntimeWarning)
        if fail == "exc_key" and step == fstep:
            pass
        if step and step % CFG["ckpt_every"] == 0:
            save_checkpoint(model, opt, step)
        if fail == "slow_barrier" and RANK == frank and step == fstep:
            LOG.info(f"rank {RANK}: compacting local cache before the next epoch (this can take a while)")
            time.sleep(8)
        if CFG["step_sleep"]:
            time.sleep(CFG["step_sleep"])
    # -------------------------------------------------------------------------------------------- end
    if fail == "early_exit" and RANK == frank:
        LOG.info(f"rank {RANK}: training loop done at step {step}; destroying process group")
        dist.destroy_process_group()
        return
    t = time.time()
    dist.barrier()
    if fail == "slow_barrier":
        LOG.info(f"final barrier took {time.time() - t:.1f}s on rank {RANK}")
    if CFG["style"] in ("tqdm", "lightning") and RANK == 0:
        sys.stderr.write("\n")
    if RANK == 0:
        if CFG["style"] == "hf":
            LOG.info("Training completed. Do not forget to share your model on huggingface.co/models =)")
            print({"train_runtime": round(time.time() - T0, 2), "train_samples_per_second": 812.3,
                   "train_loss": round(loss.item(), 4), "epoch": 3.0}, flush=True)
        elif CFG["style"] == "lightning":
            LOG.info(f"`Trainer.fit` stopped: `max_steps={CFG['steps']}` reached.")
        else:
            LOG.info(f"training finished: {CFG['steps']} steps in {time.time() - T0:.1f}s, final loss {loss.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    if os.environ.get("LAUNCH") == "spawn":
        import torch.multiprocessing as mp
        ws = int(os.environ["SPAWN_WORLD"])
        mp.spawn(main, args=(ws,), nprocs=ws, join=True)
    else:
        main()
