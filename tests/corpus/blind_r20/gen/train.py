#!/usr/bin/env python
"""Tiny DDP trainer (gloo/CPU) used to generate blind evaluation runs.
Behaviour is driven by env vars; faults are real (real exceptions, signals, hangs)."""
import os, sys, time, json, math, datetime, socket, logging, threading, queue, signal, random

import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

E = os.environ
FAULT = E.get("FAULT", "")
FRANK = int(E.get("FAULT_RANK", "-1"))
FSTEP = int(E.get("FAULT_STEP", "-1"))
NSTEPS = int(E.get("NSTEPS", "30"))
FMT = E.get("FMT", "plain")
STEP_SLEEP = float(E.get("STEP_SLEEP", "0.15"))
TIMEOUT = int(E.get("PG_TIMEOUT", "25"))
LOG_ALL = E.get("LOG_ALL", "1") == "1"
DATA = E.get("DATA_DIR", "")
CKPT = E.get("CKPT_DIR", "")
CKPT_EVERY = int(E.get("CKPT_EVERY", "0"))
CKPT_RANK = int(E.get("CKPT_RANK", "0"))
RESUME = E.get("RESUME", "")
HID = int(E.get("HIDDEN", "32"))
LR = float(E.get("LR", "0.05"))

rank = int(E.get("RANK", E.get("SLURM_PROCID", "0")))
world = int(E.get("WORLD_SIZE", E.get("SLURM_NTASKS", "1")))
local_rank = int(E.get("LOCAL_RANK", E.get("SLURM_LOCALID", "0")))
E.setdefault("RANK", str(rank)); E.setdefault("WORLD_SIZE", str(world))
E.setdefault("MASTER_ADDR", "127.0.0.1")

log = logging.getLogger("trainer")
h = logging.StreamHandler(sys.stdout)
if FMT == "plain":
    h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s"))
elif FMT == "tail":  # rank at the end of the line
    h.setFormatter(logging.Formatter(f"[%(asctime)s.%(msecs)03d] %(message)s  (host={socket.gethostname()} pid={os.getpid()} r={rank}/{world})", "%H:%M:%S"))
elif FMT == "norank":
    h.setFormatter(logging.Formatter("%(asctime)s | %(levelname)-7s | %(message)s"))
else:  # json lines
    class J(logging.Formatter):
        def format(self, rec):
            d = {"ts": datetime.datetime.utcnow().isoformat(timespec="milliseconds") + "Z", "level": rec.levelname,
                 "rank": rank, "world_size": world, "logger": rec.name, "msg": rec.getMessage()}
            d.update(getattr(rec, "extra_fields", {}))
            if rec.exc_info:
                d["exc"] = self.formatException(rec.exc_info)
            return json.dumps(d)
    h.setFormatter(J())
log.addHandler(h); log.setLevel(logging.INFO); log.propagate = False
if not LOG_ALL and rank != 0:
    log.setLevel(logging.WARNING)


def info(msg, **kw):
    log.info(msg, extra={"extra_fields": kw})


class Model(nn.Module):
    def __init__(self, d=16, hid=HID):
        super().__init__()
        self.emb = nn.Linear(d, hid)
        self.act = nn.GELU()
        self.head = nn.Linear(hid, 1)

    def forward(self, x):
        return self.head(self.act(self.emb(x)))


def batch_for(step, g):
    x = torch.randn(8, 16, generator=g)
    y = x[:, :3].sum(1, keepdim=True) * 0.5
    return x, y


def save_ckpt(model, opt, step):
    os.makedirs(CKPT, exist_ok=True)
    path = os.path.join(CKPT, f"step_{step:06d}", f"shard_{rank:02d}.pt")
    info(f"saving checkpoint shard to {path}")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    state = {"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step,
             "pad": torch.randn(int(E.get("CKPT_PAD", "1000")))}
    with open(path, "wb") as f:
        torch.save(state, f)
    info(f"checkpoint shard saved ({os.path.getsize(path)/1e6:.2f} MB)")


def main():
    t0 = time.time()
    info(f"starting trainer host={socket.gethostname()} pid={os.getpid()} rank={rank} local_rank={local_rank} world_size={world}")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=TIMEOUT))
    info(f"process group initialised backend=gloo in {time.time()-t0:.2f}s")
    torch.manual_seed(0)
    model = DDP(Model())
    opt = torch.optim.AdamW(model.parameters(), lr=LR)
    start = 0
    if RESUME:
        p = os.path.join(RESUME, f"shard_{rank:02d}.pt")
        info(f"resuming from {p}")
        sd = torch.load(p, map_location="cpu", weights_only=False)
        model.module.load_state_dict(sd["model"])
        opt.load_state_dict(sd["optim"])
        start = sd["step"]
        info(f"resumed at step {start}")
    g = torch.Generator().manual_seed(1234 + rank)
    if E.get("WARN") == "1":
        import warnings
        _ = torch.tensor(torch.ones(3))  # UserWarning: To copy construct from a tensor...
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning)
        log.warning("dataloader: 2 of 48 shards are smaller than the sequence length; they will be padded")
    n_local = NSTEPS
    if FAULT == "short" and rank == FRANK:
        n_local = FSTEP  # this rank's shard has fewer batches
    # data pipeline
    fifo_src = None
    prefetch_q = None
    if FAULT == "thread":
        prefetch_q = queue.Queue(maxsize=4)
        def prefetch():
            shard = os.path.join(DATA, f"part-{rank:05d}.txt")
            with open(shard, "rb") as f:
                for i, raw in enumerate(f):
                    text = raw.decode("utf-8")
                    ids = [ord(c) % 97 for c in text.strip()]
                    prefetch_q.put(ids)
        threading.Thread(target=prefetch, name="prefetch-0", daemon=True).start()
    if FAULT == "files":
        opened = []
        listing = os.path.join(DATA, f"rank{rank}.list")
        for line in open(listing):
            opened.append(open(line.strip(), "rb"))  # memory-mapped style shard readers stay open
        info(f"opened {len(opened)} shard files")
    if FAULT == "jsonl":
        import json as _j
        shard = os.path.join(DATA, f"train-{rank:03d}.jsonl")
        samples = []
        with open(shard) as f:
            for ln in f:
                samples.append(_j.loads(ln)["text"])
        info(f"loaded {len(samples)} samples from {shard}")
    if FAULT == "fetch":
        import urllib.request
        url = E["VOCAB_URL_RANK%d" % rank] if ("VOCAB_URL_RANK%d" % rank) in E else E["VOCAB_URL"]
        info(f"fetching vocab from {url}")
        with urllib.request.urlopen(url, timeout=8) as r:
            vocab = r.read()
    if FAULT == "import" and rank == FRANK:
        info("this rank runs periodic evaluation; loading metric backend")
        import rouge_score.rouge_scorer  # noqa
    loader = None
    if FAULT == "segv":
        from torch.utils.data import DataLoader, Dataset
        class DS(Dataset):
            def __len__(self):
                return 10000
            def __getitem__(self, i):
                if rank == FRANK and i == FSTEP * 8 + 3:
                    import ctypes
                    ctypes.string_at(0)  # native decoder bug: null deref
                return torch.randn(16), torch.randn(1)
        loader = iter(DataLoader(DS(), batch_size=8, num_workers=1, multiprocessing_context="fork"))
    ema = None
    last = time.time()
    signal_state = {"term": False}
    if E.get("HANDLE_TERM") == "1":
        def onterm(sig, frm):
            log.warning(f"received signal {signal.Signals(sig).name}; will checkpoint and exit at next step boundary")
            signal_state["term"] = True
        signal.signal(signal.SIGTERM, onterm)
    for step in range(start + 1, start + n_local + 1):
        if loader is not None:
            x, y = next(loader)
        else:
            x, y = batch_for(step, g)
        if prefetch_q is not None:
            ids = prefetch_q.get()  # blocks if prefetcher died
        if rank == FRANK and step == FSTEP:
            if FAULT == "nan":
                x[3, 5] = float("inf"); x[3, 6] = -float("inf")
            elif FAULT == "shape":
                x = torch.randn(8, 17, generator=g)  # mis-bucketed batch with an extra feature column
            elif FAULT == "fifo":
                with open(E["FIFO_PATH"], "rb") as f:  # next shard arrives over a pipe from the preprocessor
                    x = torch.frombuffer(bytearray(f.read(8 * 16 * 4)), dtype=torch.float32).view(8, 16)
            elif FAULT == "oomkill":
                with open(E["CGROUP_TASKS"], "w") as f:
                    f.write(str(os.getpid()))
                cache = []
                for _ in range(200):  # build an in-memory feature cache
                    cache.append(torch.ones(25_000_000 // 4))
            elif FAULT == "collmismatch":
                pass
        if FAULT == "spike" and rank == FRANK and step >= FSTEP:
            x = x * (10 ** ((step - FSTEP + 1) / 2))
            y = y * (10 ** ((step - FSTEP + 1) / 2))
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        lv = loss.item()
        if not math.isfinite(lv):
            log.error(f"non-finite loss {lv} at step {step}")
            raise FloatingPointError(f"Loss is {lv} at step {step}; aborting (grad scaler disabled, fp32)")
        if FAULT == "spike" and ema is not None and step > 10 and lv > 20 * ema:
            log.warning(f"loss spike: loss={lv:.4g} vs running mean {ema:.4g}")
            if lv > 1e5:
                raise RuntimeError(f"training diverged at step {step}: loss {lv:.4g} did not recover; stopping")
        if FAULT != "spike" or ema is None or lv < 20 * ema:
            ema = lv if ema is None else 0.9 * ema + 0.1 * lv
        opt.zero_grad(set_to_none=True)
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9).item()
        opt.step()
        if FAULT == "collmismatch" and step == FSTEP:
            n_cls = 4 if rank != FRANK else 5  # per-rank confusion matrix for eval metrics
            cm = torch.ones(n_cls, n_cls)
            info(f"eval: confusion matrix over {n_cls} classes seen in local shard")
            dist.all_reduce(cm)
        if step % int(E.get("LOG_EVERY", "1")) == 0:
            dt = time.time() - last; last = time.time()
            info(f"step {step}/{start+NSTEPS} loss {lv:.4f} grad_norm {gn:.3f} lr {LR:.2e} step_time {dt*1000:.0f}ms",
                 step=step, loss=round(lv, 5), grad_norm=round(gn, 4))
        if CKPT and CKPT_EVERY and step % CKPT_EVERY == 0 and (rank == CKPT_RANK or CKPT_RANK < 0):
            save_ckpt(model, opt, step)
        if CKPT and CKPT_EVERY and step % CKPT_EVERY == 0:
            dist.barrier()
        if signal_state["term"]:
            log.warning("exiting after SIGTERM at step %d", step)
            sys.exit(143)
        if E.get("WARN") == "1" and step == NSTEPS // 2:
            log.warning(f"transient error fetching metrics endpoint (ConnectionResetError: [Errno 104] Connection reset by peer); retry 1/5 in 1s")
        time.sleep(STEP_SLEEP)
    if FAULT == "short" and rank == FRANK:
        info(f"data exhausted after {n_local} batches; epoch complete")
        return
    dist.barrier()
    info(f"training finished: {step} steps in {time.time()-t0:.1f}s")
    dist.destroy_process_group()


_hist = []
def ema_hist_min(e):
    _hist.append(e)
    return min(_hist[:-1] or _hist)


if __name__ == "__main__":
    main()
