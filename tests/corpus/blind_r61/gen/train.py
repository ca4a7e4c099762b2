"""Tiny DDP trainer with injectable faults (blind set r61).

Env knobs:
  FAULT   kind of fault (see run_hooks()); empty = healthy
  FRANK   rank that misbehaves (default 1)
  FPHASE  startup | step | eval | save | shutdown   (default step)
  FSTEP   step for phase=step (default 3)
  LOGFMT  prefix | logging | logging_norank | json | plain | tqdm
  STEPS, EVAL_EVERY, SAVE_AT, PG_TIMEOUT, STEP_SLEEP
  SCARY   1 = print harmless but frightening text
"""
import os, sys, time, json, math, signal, logging, datetime, threading, queue, random

import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

FAULT = os.environ.get("FAULT", "")
FRANK = int(os.environ.get("FRANK", "1"))
FPHASE = os.environ.get("FPHASE", "step")
FSTEP = int(os.environ.get("FSTEP", "3"))
LOGFMT = os.environ.get("LOGFMT", "prefix")
STEPS = int(os.environ.get("STEPS", "8"))
EVAL_EVERY = int(os.environ.get("EVAL_EVERY", "4"))
SAVE_AT = int(os.environ.get("SAVE_AT", "6"))
PG_TIMEOUT = int(os.environ.get("PG_TIMEOUT", "15"))
STEP_SLEEP = float(os.environ.get("STEP_SLEEP", "0.2"))
SCARY = os.environ.get("SCARY", "") == "1"
CKPT_DIR = os.environ.get("CKPT_DIR", "/tmp/b61ckpt")
RESTART = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))

RANK = WORLD = LOCAL = 0
log = None
bar = None


def setup_logging():
    global log
    log = logging.getLogger("trainer")
    log.setLevel(logging.INFO)
    h = logging.StreamHandler(sys.stdout)
    if LOGFMT == "logging":
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank {RANK}] %(name)s: %(message)s"))
    else:
        h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(h)
    log.propagate = False


def out(msg, level="info", **kv):
    if LOGFMT == "prefix":
        print(f"[rank{RANK}]: {msg}", flush=True)
    elif LOGFMT in ("logging", "logging_norank"):
        getattr(log, level)(msg)
        sys.stdout.flush()
    elif LOGFMT == "json":
        rec = {"ts": round(time.time(), 3), "level": level.upper(), "rank": RANK, "msg": msg}
        rec.update(kv)
        print(json.dumps(rec), flush=True)
    elif LOGFMT == "tqdm":
        if RANK == 0:
            if bar is not None:
                bar.write(msg)
            else:
                print(msg, flush=True)
    else:  # plain: no rank anywhere
        print(msg, flush=True)


def is_culprit(phase, step=None):
    if os.environ.get("FAULT_ATTEMPT") and int(os.environ["FAULT_ATTEMPT"]) != RESTART:
        return False
    if not FAULT or RANK != FRANK or FPHASE != phase:
        return False
    if phase == "step" and step != FSTEP:
        return False
    return True


# ------------------------------------------------------------------ data
class ToyData(torch.utils.data.Dataset):
    def __init__(self, n, rank):
        g = torch.Generator().manual_seed(rank)
        self.x = torch.randn(n, 16, generator=g)
        self.y = torch.randn(n, 4, generator=g)
        self.rank = rank

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if FAULT == "worker_sigbus" and self.rank == FRANK and i >= 24:
            # simulate a bus error touching a truncated shared-memory mapping
            os.kill(os.getpid(), signal.SIGBUS)
        if FAULT == "bad_sample" and self.rank == FRANK and i == 7 + 8 * FSTEP:
            raise ValueError(f"sample {i}: expected 16 features, record has 15 (corrupt line in shard-{self.rank:05d}.jsonl)")
        return {"x": self.x[i], "y": self.y[i]}


def collate(batch):
    if FAULT == "collate_keyerror" and RANK == FRANK and collate.calls == FSTEP:
        batch[0] = {"input": batch[0]["x"], "y": batch[0]["y"]}
    collate.calls += 1
    return {"x": torch.stack([b["x"] for b in batch]), "y": torch.stack([b["y"] for b in batch])}


collate.calls = 0


# ------------------------------------------------------------------ faults
def oom_now():
    out("allocating activation buffer for long-context batch")
    bufs = []
    while True:
        t = torch.empty(64 * 1024 * 1024, dtype=torch.float32)
        t.fill_(1.0)
        bufs.append(t)


def run_hooks(phase, step=None, model=None):
    if not is_culprit(phase, step):
        return
    f = FAULT
    if f == "assert":
        assert step is None or step % 2 == 0 or False, f"grad accumulation counter out of sync at step {step}"
        assert False, "invariant violated: tokens_seen does not match world batch"
    if f == "shape":
        x = torch.randn(8, 16)
        w = torch.randn(12, 4)
        return x @ w
    if f == "dtype":
        x = torch.randn(8, 16)
        return x @ torch.randn(16, 4, dtype=torch.float64)
    if f == "device":
        x = torch.randn(8, 16, device="meta")
        return x + torch.randn(8, 16)
    if f in ("oom", "oom_as"):
        oom_now()
    if f == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    if f == "sigsegv":
        import ctypes
        ctypes.string_at(0)
    if f == "sigabrt":
        os.abort()
    if f == "hang":
        out("waiting for data shard lock") if os.environ.get("HANG_MSG") else None
        time.sleep(3600)
    if f == "spin":
        x = 0
        while True:
            x += 1
    if f == "deadlock":
        lk = threading.Lock()
        lk.acquire()
        lk.acquire()
    if f == "blocked_read":
        r, w = os.pipe()
        os.read(r, 1)
    if f == "exit0":
        out("data exhausted, finishing")
        sys.exit(0)
    if f == "ckpt_missing":
        torch.load(os.path.join(CKPT_DIR, "resume", f"step_000400_rank{RANK}.pt"))
    if f == "emfile":
        fds = []
        for i in range(100000):
            fds.append(open(__file__))
    if f == "import_ext":
        import importlib
        sys.path.insert(0, os.environ["EXT_DIR"])
        importlib.import_module("fused_adam_cuda")
    if f == "hub":
        from huggingface_hub import hf_hub_download
        hf_hub_download("org/tiny-lm", "tokenizer.json", cache_dir="/tmp/b61hub")
    if f == "valueerr":
        raise ValueError(f"unsupported lr schedule 'cosine_restart' for step {step}")
    if f == "keyerr":
        cfg = {"lr": 1e-3}
        return cfg["warmup_steps"]
    if f == "zerodiv":
        return 1 / 0


# ------------------------------------------------------------------ main
@record
def main(spawn_rank=None, spawn_world=None):
    global RANK, WORLD, LOCAL, bar
    if spawn_rank is not None:
        RANK, WORLD = spawn_rank, spawn_world
        os.environ["RANK"] = str(RANK)
    elif "RANK" in os.environ:
        RANK, WORLD = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    else:
        RANK, WORLD = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    setup_logging()
    if os.environ.get("SIGTERM_HANDLER"):
        def _term(sig, frm):
            out(f"received signal {sig} (SIGTERM), requesting graceful stop", level="warning")
            sys.stdout.flush()
            os._exit(143)
        signal.signal(signal.SIGTERM, _term)
    torch.manual_seed(0)
    torch.set_num_threads(1)

    if FAULT == "emfile" and RANK == FRANK:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    if FAULT == "oom_as" and RANK == FRANK:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, 3 * 1024 ** 3))

    if os.environ.get("OOM_CGROUP") and RANK == FRANK:
        with open(os.path.join(os.environ["OOM_CGROUP"], "tasks"), "w") as f:
            f.write(str(os.getpid()))
    out(f"starting worker pid={os.getpid()} world={WORLD} restart={RESTART}")
    if SCARY and RANK == 0:
        scary_startup()
    run_hooks("startup")

    init_method = os.environ.get("INIT_METHOD", "env://")
    dist.init_process_group("gloo", init_method=init_method, rank=RANK, world_size=WORLD,
                            timeout=datetime.timedelta(seconds=PG_TIMEOUT))
    out("process group initialised (gloo)")

    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("LR", "0.05")))
    if os.environ.get("RESUME_DIR"):
        p = os.path.join(os.environ["RESUME_DIR"], f"rank{RANK}.pt")
        out(f"resuming from {p}")
        sd = torch.load(p, weights_only=True)
        model.load_state_dict(sd["model"])
        opt.load_state_dict(sd["opt"])
        out(f"resumed at step {sd['step']}")

    n = 8 * (STEPS + 2)
    if FAULT == "uneven" and RANK == FRANK:
        n = 8 * FSTEP
    ds = ToyData(n, RANK)
    nw = int(os.environ.get("WORKERS", "0"))
    dl = torch.utils.data.DataLoader(ds, batch_size=8, collate_fn=collate, num_workers=nw)

    if FAULT == "bgthread" and RANK == FRANK:
        pass
    q = None
    if FAULT == "bgthread":
        q = queue.Queue(maxsize=4)

        def prefetch():
            for i in range(STEPS + 2):
                if RANK == FRANK and i == FSTEP:
                    open(f"/data/shards/part-{RANK:03d}-{i:04d}.bin", "rb")
                q.put(i)

        threading.Thread(target=prefetch, daemon=True, name="prefetcher").start()

    if LOGFMT == "tqdm" and RANK == 0:
        from tqdm import tqdm
        bar = tqdm(total=STEPS, desc="train", file=sys.stderr, mininterval=0, ascii=True)

    scale = 65536.0
    step = 0
    losses = []
    for batch in dl:
        step += 1
        if step > STEPS:
            break
        if q is not None:
            q.get(timeout=3600)
        run_hooks("step", step, model)
        x, y = batch["x"], batch["y"]
        if FAULT == "nan" and RANK == FRANK and step >= FSTEP:
            x = x.clone(); x[0, 0] = float("inf")
        if FAULT == "diverge":
            ddp.module[0].weight.data.mul_(1.0 + 0.9 * max(0, step - FSTEP + 1))
        loss = nn.functional.mse_loss(ddp(x), y)
        if FAULT == "mismatch" and step == FSTEP:
            t = torch.ones(7 if RANK == FRANK else 5)
            dist.all_reduce(t)
        if FAULT == "mismatch_op" and step == FSTEP:
            t = torch.ones(4)
            if RANK == FRANK:
                dist.broadcast(t, src=0)
            else:
                dist.all_reduce(t)
        if FAULT == "nan" and not torch.isfinite(loss):
            raise FloatingPointError(f"loss is {loss.item()} at step {step} (rank {RANK}); aborting")
        if FAULT == "fp16" and RANK == FRANK and step >= FSTEP:
            scale /= 2.0 ** 8
            print(f"[deepspeed] OVERFLOW! Rank {RANK} Skipping step. Attempted loss scale: {scale*256:.1f}, reducing to {scale}", flush=True)
            if scale < 1.0:
                raise RuntimeError(f"Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.")
        opt.zero_grad()
        loss.backward()
        opt.step()
        l = loss.detach().clone()
        dist.all_reduce(l)
        l = l.item() / WORLD
        losses.append(l)
        if FAULT == "diverge" and len(losses) > 3 and l > 50 * min(losses):
            if RANK == 0:
                raise RuntimeError(f"loss diverged: {l:.2f} > 50x best {min(losses):.3f} at step {step}")
        out(f"step {step}/{STEPS} loss={l:.4f} lr={opt.param_groups[0]['lr']}", step=step, loss=round(l, 4))
        if SCARY and step == 2:
            scary_midrun()
        if bar is not None:
            bar.update(1)
            bar.set_postfix(loss=f"{l:.3f}")
        time.sleep(STEP_SLEEP)
        if EVAL_EVERY and step % EVAL_EVERY == 0:
            evaluate(ddp, step)
        if step == SAVE_AT:
            save(ddp, opt, step)
    if bar is not None:
        bar.close()
    run_hooks("shutdown")
    if FAULT == "shutdown_hang" and RANK == FRANK:
        time.sleep(3600)
    dist.barrier()
    out("training finished; destroying process group")
    dist.destroy_process_group()


def evaluate(ddp, step):
    out(f"running evaluation at step {step}")
    ddp.eval()
    with torch.no_grad():
        correct = torch.tensor([0.0])
        for i in range(3):
            x = torch.randn(8, 16)
            pred = ddp.module(x)
            if is_culprit("eval") and FAULT == "eval_index":
                labels = torch.tensor([0, 1, 2, 3, 4, 5, 6, 7])
                pred = pred.gather(1, labels[:, None])
            if is_culprit("eval") and FAULT == "eval_shape":
                pred = pred.view(4, 16) @ torch.randn(8, 2)
            correct += (pred.argmax(-1) == 0).sum()
        run_hooks("eval", step)
        dist.all_reduce(correct)
    out(f"eval step {step}: acc={correct.item() / (24 * WORLD):.3f} eval_error_rate={1 - correct.item() / (24 * WORLD):.3f}",
        step=step)
    ddp.train()


def save(ddp, opt, step):
    d = os.environ.get("SAVE_DIR", CKPT_DIR).replace("{rank}", str(RANK))
    per_rank = os.environ.get("SAVE_PER_RANK", "") == "1"
    if FAULT == "ckpt_hang" and RANK == FRANK:
        out(f"saving checkpoint step {step} (async writer)")
        done = threading.Event()

        def writer():
            lk = threading.Lock(); lk.acquire(); lk.acquire()  # writer wedges on its own lock
        threading.Thread(target=writer, daemon=True, name="ckpt-writer").start()
        done.wait()
    if FAULT == "ckpt_timeout" and RANK == FRANK:
        import concurrent.futures as cf
        out(f"saving checkpoint step {step} (async writer, deadline 5s)")
        ex = cf.ThreadPoolExecutor(1)
        fut = ex.submit(time.sleep, 60)
        try:
            fut.result(timeout=5)
        except cf.TimeoutError:
            raise TimeoutError(f"async checkpoint save for step {step} did not finish within 5s deadline (rank {RANK} shard writer still running)")
    if per_rank or RANK == 0:
        path = os.path.join(d, f"step_{step:06d}", f"rank{RANK}.pt" if per_rank else "model.pt")
        out(f"saving checkpoint to {path}")
        run_hooks("save", step)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        sd = {"model": ddp.module.state_dict(), "opt": opt.state_dict(), "step": step}
        if os.environ.get("CKPT_PAD"):
            sd["pad"] = torch.zeros(int(os.environ["CKPT_PAD"]))
        torch.save(sd, path)
        out(f"checkpoint saved: {path}")
    else:
        run_hooks("save", step)
    dist.barrier()


def scary_startup():
    import warnings
    warnings.warn("torch.distributed: TORCH_NCCL_BLOCKING_WAIT is deprecated; NCCL is not available, falling back to gloo", UserWarning)
    out("NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>  (ignored: backend=gloo)")
    out("WARNING: could not reach metrics server, retrying (attempt 1/3): ConnectionRefusedError: [Errno 111] Connection refused")
    out("metrics server reachable after retry")
    try:
        json.loads("{bad json")
    except Exception:
        import traceback
        print("Non-fatal: failed to parse optional config overrides, using defaults:", file=sys.stderr)
        traceback.print_exc()


def scary_midrun():
    out("WARN grad_norm_error=0.000 nan_count=0 inf_count=0 loss_scale_overflow=False")
    print("UserWarning: Detected call of `lr_scheduler.step()` before `optimizer.step()`. Failure to do this will result in PyTorch skipping the first value of the learning rate schedule.", file=sys.stderr, flush=True)


def _entry(r, w):
    os.environ["WORLD_SIZE"] = str(w)
    main(r, w)


if __name__ == "__main__":
    if os.environ.get("LAUNCH") == "spawn":
        import torch.multiprocessing as mp
        w = int(os.environ.get("NPROC", "2"))

        mp.spawn(_entry, args=(w,), nprocs=w, join=True)
    else:
        main()
