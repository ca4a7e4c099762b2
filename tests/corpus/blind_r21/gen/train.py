#!/usr/bin/env python3
"""Tiny CPU/gloo trainer with fault injection (evaluator-owned, never copied into run dirs)."""
import os, sys, time, json, math, signal, threading, queue, datetime, random, socket, faulthandler

MODE = os.environ.get("FMODE", "none")
FRANK = int(os.environ.get("FRANK", "-1"))
FSTEP = int(os.environ.get("FSTEP", "10"))
STEPS = int(os.environ.get("STEPS", "30"))
SLEEP = float(os.environ.get("STEP_SLEEP", "0.2"))
LOGFMT = os.environ.get("LOGFMT", "plain")
PGTIMEOUT = float(os.environ.get("PG_TIMEOUT", "30"))
WORK = os.environ.get("WORKDIR", "/work/blind/r21/work/scratch")

# rank discovery
if "RANK" in os.environ:
    RANK = int(os.environ["RANK"]); WORLD = int(os.environ["WORLD_SIZE"])
elif "SLURM_PROCID" in os.environ:
    RANK = int(os.environ["SLURM_PROCID"]); WORLD = int(os.environ["SLURM_NTASKS"])
    os.environ["RANK"] = str(RANK); os.environ["WORLD_SIZE"] = str(WORLD)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
else:
    RANK = int(sys.argv[1]); WORLD = int(sys.argv[2])
    os.environ["RANK"] = str(RANK); os.environ["WORLD_SIZE"] = str(WORLD)
LOCAL = int(os.environ.get("LOCAL_RANK", os.environ.get("SLURM_LOCALID", RANK)))
HOST = socket.gethostname()

if os.environ.get("FAULTHANDLER_SIGTERM"):
    faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
faulthandler.enable()


def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]


def log(msg, level="INFO", **kv):
    if LOGFMT == "json":
        d = {"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "lvl": level.lower(), "rank": RANK, "msg": msg}
        d.update(kv)
        print(json.dumps(d), flush=True)
    elif LOGFMT == "custom":
        extra = " ".join(f"{k}={v}" for k, v in kv.items())
        print(f"{now()} | {level:<5} | {HOST}:{LOCAL}/{WORLD} | {msg} {extra}".rstrip(), flush=True)
    elif LOGFMT == "tqdm":
        extra = ", ".join(f"{k}={v}" for k, v in kv.items())
        print(f"[{now()}][worker{RANK}] {msg}" + (f" ({extra})" if extra else ""), flush=True)
    elif LOGFMT == "bare":
        extra = " ".join(f"{k}={v}" for k, v in kv.items())
        print(f"{now()} {level} trainer: {msg} {extra}".rstrip(), flush=True)
    else:
        extra = " ".join(f"{k}={v}" for k, v in kv.items())
        print(f"{now()} - {level} - train.py - [rank{RANK}] {msg} {extra}".rstrip(), flush=True)


import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

torch.manual_seed(0)
torch.set_num_threads(1)
log(f"starting on {HOST} pid={os.getpid()} world_size={WORLD} local_rank={LOCAL} torch={torch.__version__}")

# ---- pre-init failure modes
if MODE == "hub" and RANK == FRANK:
    import urllib.request
    url = os.environ.get("HUB_URL", "http://10.255.255.1:26080/tok/vocab.json")
    log(f"tokenizer cache miss at {WORK}/hf_cache/tok-32k, downloading {url}")
    with urllib.request.urlopen(url, timeout=8) as r:
        vocab = json.loads(r.read())

if os.environ.get("CKPT_DIR") and os.environ.get("RESUME"):
    _sh = os.path.join(os.environ["CKPT_DIR"], f"shard{RANK}", "model.pt")
    if os.path.exists(_sh):
        log(f"found checkpoint shard {_sh} ({os.path.getsize(_sh)} bytes), reading metadata")
        _meta = torch.load(_sh, map_location="cpu")
        log(f"checkpoint step={_meta['step']}")
timeout = datetime.timedelta(seconds=PGTIMEOUT)
dist.init_process_group("gloo", timeout=timeout)
log("process group initialised", backend="gloo")

DIM = int(os.environ.get("DIM", "32"))
HID = int(os.environ.get("HID", "64"))
model = nn.Sequential(nn.Linear(DIM, HID), nn.ReLU(), nn.Linear(HID, 1))
use_ddp = MODE not in ("order",)
if use_ddp:
    model = DDP(model, find_unused_parameters=bool(os.environ.get("FIND_UNUSED")))
opt = torch.optim.SGD(model.parameters(), lr=float(os.environ.get("LR", "0.05")))
gen = torch.Generator().manual_seed(1234 + RANK)
W_true = torch.randn(DIM, 1, generator=torch.Generator().manual_seed(7))

# ---- checkpoint resume
CKPT = os.environ.get("CKPT_DIR")
start = 0
if CKPT and os.environ.get("RESUME"):
    shard = os.path.join(CKPT, f"shard{RANK}", "model.pt")
    if os.path.exists(shard):
        log(f"resuming from {shard}")
        sd = torch.load(shard, map_location="cpu")
        model.load_state_dict(sd["model"]); start = sd["step"]
        log(f"resumed at step {start}")
    else:
        log("no checkpoint found, starting fresh")

# ---- background prefetch for thread mode
q = None
if MODE == "thread":
    shard_path = os.path.join(WORK, f"shard-{RANK:05d}.jsonl")

    def prefetch():
        with open(shard_path) as f:
            for line in f:
                rec = json.loads(line)
                ids = [hash(t) % 997 for t in rec["text"].split()]
                q.put(ids)
    q = queue.Queue(maxsize=4)
    log(f"prefetch thread reading {shard_path}")
    threading.Thread(target=prefetch, name="prefetch", daemon=True).start()

leak = []
STOP = {"sig": None}
if os.environ.get("PREEMPT_HANDLER"):
    def _on_term(signum, frame):
        STOP["sig"] = signum
        log(f"received signal {signal.Signals(signum).name}; will checkpoint and stop after this step", level="WARNING")
    signal.signal(signal.SIGTERM, _on_term)
fds = []
lock_a, lock_b = threading.Lock(), threading.Lock()
t0 = time.time()
nbatches = STEPS
if MODE == "exit0":
    n_samples = 8 * STEPS - (8 * (STEPS - FSTEP) if RANK == FRANK else 0)
    nbatches = n_samples // 8
    log(f"dataset shard {RANK}: {n_samples} samples, {nbatches} batches")

for step in range(start, nbatches):
    if q is not None:
        ids = q.get()
    x = torch.randn(8, DIM, generator=gen)
    y = x @ W_true + 0.01 * torch.randn(8, 1, generator=gen)
    if MODE == "nan" and RANK == FRANK and step == FSTEP:
        x[3, 5] = float(os.environ.get("BADVAL", "3e38")) * 10
    if MODE == "shape" and RANK == FRANK and step == FSTEP:
        x = torch.randn(8, DIM + 1, generator=gen)
    if MODE == "fifo" and RANK == FRANK and step == FSTEP:
        p = os.path.join(WORK, "prefetch.pipe")
        log(f"switching to streamed shard via {p}")
        with open(p, "rb") as f:  # blocks: no writer
            f.read(4096)
    if MODE == "segv" and RANK == FRANK and step == FSTEP:
        import ctypes
        log("using fused_rmsnorm fast path")
        ctypes.string_at(0)
    if MODE == "oomleak" and RANK == FRANK and step >= FSTEP:
        leak.append(torch.ones(64 * 1024 * 1024 // 4 * 6))  # ~384MB per step
    if MODE == "deadlock" and RANK == FRANK and step == FSTEP:
        def flusher():
            with lock_b:
                time.sleep(0.2)
                with lock_a:
                    pass
        threading.Thread(target=flusher, name="metrics-flush", daemon=True).start()
        with lock_a:
            time.sleep(0.2)
            with lock_b:
                pass
    if MODE == "emfile" and RANK == FRANK:
        os.makedirs(os.path.join(WORK, "metrics"), exist_ok=True)
        for j in range(6):
            fds.append(open(os.path.join(WORK, "metrics", f"r{RANK}_s{step:05d}_{j}.json"), "w"))

    if os.environ.get("HARMLESS") and step == 3:
        log("shard read slow, retrying (attempt 1/3): Read timed out after 5.0s", level="WARNING")
        log("shard read ok on retry", level="INFO")
    if os.environ.get("HARMLESS") and step == 5 and RANK == 0:
        log("grad norm 41.2 exceeds clip 1.0, clipping (this is expected in warm-up)", level="WARNING")
    out = model(x)
    loss = nn.functional.mse_loss(out, y)
    if MODE == "nan" and not math.isfinite(loss.item()):
        raise FloatingPointError(f"Loss is {loss.item()} at step {step}; aborting (check data / lr)")
    opt.zero_grad()
    loss.backward()
    if MODE == "order":
        for p_ in model.parameters():
            dist.all_reduce(p_.grad); p_.grad /= WORLD
        lr_t = torch.tensor([0.05])
        if step == FSTEP and RANK == FRANK:
            # rank-local eval trigger sends stats first
            stats = torch.tensor([loss.item(), 1.0])
            dist.all_reduce(stats)
            dist.broadcast(lr_t, src=0)
        else:
            dist.broadcast(lr_t, src=0)
            stats = torch.tensor([loss.item(), 1.0])
            dist.all_reduce(stats)
    if MODE == "size" and step == FSTEP:
        n = 40 if RANK == FRANK else 32
        log(f"syncing token histogram across ranks, buckets={n}")
        hist = torch.ones(n)
        dist.all_reduce(hist)
    opt.step()
    lval = loss.item()
    if LOGFMT == "tqdm":
        el = time.time() - t0
        it = (step + 1 - start) / max(el, 1e-6)
        bar = "#" * int(20 * (step + 1) / nbatches)
        print(f"train [rank {RANK}]: {100*(step+1)//nbatches:3d}%|{bar:<20}| {step+1}/{nbatches} [{int(el)//60:02d}:{int(el)%60:02d}, {it:.2f}it/s, loss={lval:.4f}]", flush=True)
    elif step % int(os.environ.get("LOG_EVERY", "1")) == 0:
        kv = dict(step=step, loss=f"{lval:.4f}", lr=0.05)
        if MODE == "oomleak" and RANK == FRANK:
            import resource
            kv["host_rss_mb"] = int(open("/proc/self/statm").read().split()[1]) * 4096 // 2**20
        log("train", **kv)
    if CKPT and (step + 1) % int(os.environ.get("CKPT_EVERY", "10")) == 0:
        d = os.path.join(CKPT, f"shard{RANK}")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "model.pt")
        log(f"saving checkpoint shard to {path}")
        torch.save({"model": model.state_dict(), "step": step + 1, "blob": torch.randn(int(os.environ.get("BLOB", "1000")))}, path)
        log("checkpoint shard saved")
    if STOP["sig"] is not None:
        d = os.path.join(CKPT or WORK, f"emergency_shard{RANK}"); os.makedirs(d, exist_ok=True)
        torch.save({"model": model.state_dict(), "step": step + 1}, os.path.join(d, "model.pt"))
        log(f"emergency checkpoint written at step {step+1}, exiting with 143", level="WARNING")
        sys.exit(143)
    time.sleep(SLEEP)

if MODE == "exit0" and RANK == FRANK:
    log(f"epoch finished after {nbatches} batches, exiting")
    sys.exit(0)
dist.barrier()
log(f"training complete, {nbatches} steps in {time.time()-t0:.1f}s")
dist.destroy_process_group()
