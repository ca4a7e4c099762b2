"""Tiny DDP training worker used by all r59 scenarios.
Config via env: SCEN (failure kind), FAIL_RANK, FAIL_STEP, STEPS, LOGFMT, PG_TIMEOUT, STEP_SLEEP, ...
"""
import os, sys, time, json, datetime, logging, signal, threading, queue

import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

E = os.environ
SCEN = E.get("SCEN", "none")
FAIL_RANK = int(E.get("FAIL_RANK", "-1"))
FAIL_STEP = int(E.get("FAIL_STEP", "3"))
STEPS = int(E.get("STEPS", "8"))
LOGFMT = E.get("LOGFMT", "prefix")
PG_TIMEOUT = float(E.get("PG_TIMEOUT", "20"))
STEP_SLEEP = float(E.get("STEP_SLEEP", "0.2"))
CKPT_DIR = E.get("CKPT_DIR", "/tmp/r59ckpt")


def get_rank_world(spawn_rank=None):
    if spawn_rank is not None:
        return spawn_rank, int(E["WORLD_SIZE"])
    if "RANK" in E:
        return int(E["RANK"]), int(E["WORLD_SIZE"])
    return int(E["SLURM_PROCID"]), int(E["SLURM_NTASKS"])


class Log:
    def __init__(self, rank, world):
        self.rank, self.world = rank, world
        if LOGFMT in ("logging", "logging_norank"):
            fmt = ("%(asctime)s %(levelname)s [rank " + str(rank) + "] %(name)s: %(message)s"
                   if LOGFMT == "logging" else "%(asctime)s %(levelname)s %(name)s: %(message)s")
            logging.basicConfig(level=logging.INFO, format=fmt, stream=sys.stdout, force=True)
            self.lg = logging.getLogger("train")

    def __call__(self, msg, level="INFO", **kv):
        if LOGFMT == "prefix":
            print(f"[rank{self.rank}]: {msg}", flush=True)
        elif LOGFMT == "prefix2":
            print(f"{self.rank}/{self.world} | {msg}", flush=True)
        elif LOGFMT == "plain":
            print(msg, flush=True)
        elif LOGFMT == "rank0":
            if self.rank == 0 or level != "INFO":
                print(msg, flush=True)
        elif LOGFMT == "json":
            d = {"ts": round(time.time(), 3), "level": level, "rank": self.rank, "msg": msg}
            d.update(kv)
            print(json.dumps(d), flush=True)
        else:
            getattr(self.lg, level.lower())(msg)


class DS(torch.utils.data.Dataset):
    def __init__(self, rank, n):
        self.rank, self.n = rank, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(1000 * self.rank + i)
        if SCEN == "bad_sample" and self.rank == FAIL_RANK and i == FAIL_STEP * 4 + 2:
            raw = "3.14,2.71,NaN?,1.0"
            vals = [float(v) for v in raw.split(",")]  # ValueError
        if SCEN == "dl_worker_kill" and self.rank == FAIL_RANK and i >= FAIL_STEP * 4:
            os.kill(os.getpid(), signal.SIGKILL)
        x = torch.randn(16, generator=g)
        y = x.sum(0, keepdim=True) * 0.5
        return {"input_ids": x, "labels": y}


def collate(batch):
    if SCEN == "collate_keyerror" and batch_is_bad(batch):
        batch[1] = {"input": batch[1]["input_ids"], "labels": batch[1]["labels"]}
    return {"input_ids": torch.stack([b["input_ids"] for b in batch]),
            "labels": torch.stack([b["labels"] for b in batch])}


_COLLATE_CALLS = {"n": 0}


def batch_is_bad(batch):
    _COLLATE_CALLS["n"] += 1
    return MYRANK == FAIL_RANK and _COLLATE_CALLS["n"] == FAIL_STEP + 1


MYRANK = -1


def bg_prefetch(q, rank):
    # background thread producing "shards"; on the failing rank it dies with an uncaught exception
    for i in range(1000):
        if SCEN == "thread_exc" and rank == FAIL_RANK and i == FAIL_STEP:
            meta = {"shard": i, "path": f"/data/shards/train-{i:05d}.bin"}
            size = meta["num_tokens"] // 2048  # KeyError in thread
        q.put(i)
        time.sleep(0.01)


def main(spawn_rank=None):
    global MYRANK
    rank, world = get_rank_world(spawn_rank)
    MYRANK = rank
    log = Log(rank, world)
    if E.get("SIGTERM_HANDLER"):
        def _h(sig, frm):
            log(f"received signal {sig} (SIGTERM): preemption notice, flushing logs and exiting", level="WARNING")
            sys.stdout.flush()
            os._exit(143)
        signal.signal(signal.SIGTERM, _h)
    if E.get("RESTART_FAIL_ONLY_FIRST") and E.get("TORCHELASTIC_RESTART_COUNT", "0") != "0":
        globals()["FAIL_RANK"] = -1
    if SCEN == "nofile" and rank == FAIL_RANK:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    init = E.get("INIT_METHOD")
    if init:
        dist.init_process_group("gloo", init_method=init, rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=PG_TIMEOUT))
    else:
        dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=PG_TIMEOUT))
    log(f"initialized process group: backend=gloo world_size={world} pid={os.getpid()}")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    if SCEN == "ckpt_load_mismatch" and rank == FAIL_RANK:
        path = os.path.join(CKPT_DIR, "model_step1000.pt")
        log(f"resuming from {path}")
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd["model"])
    if SCEN == "ckpt_corrupt" and rank == FAIL_RANK:
        path = os.path.join(CKPT_DIR, f"shard_rank{rank:02d}.pt")
        log(f"loading optimizer shard {path}")
        torch.load(path, map_location="cpu")
    if SCEN == "ckpt_missing" and rank == FAIL_RANK:
        path = os.path.join(CKPT_DIR, f"shard_rank{rank:02d}.pt")
        log(f"loading optimizer shard {path}")
        torch.load(path, map_location="cpu")
    if E.get("NO_DDP"):
        ddp = model
        for p_ in model.parameters():
            dist.broadcast(p_.data, src=0)
    else:
        ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(E.get("LR", "0.01")))
    nsteps = STEPS
    if SCEN == "exit0" and rank == FAIL_RANK:
        nsteps = FAIL_STEP  # uneven shard: fewer batches on this rank
    ds = DS(rank, nsteps * 4)
    nw = int(E.get("NUM_WORKERS", "0"))
    dl = torch.utils.data.DataLoader(ds, batch_size=4, collate_fn=collate, num_workers=nw)
    q = queue.Queue()
    if SCEN == "thread_exc" or E.get("PREFETCH"):
        threading.Thread(target=bg_prefetch, args=(q, rank), daemon=True, name="prefetch").start()
    fds = []
    t0 = time.time()
    for step, batch in enumerate(dl):
        if SCEN == "thread_exc" or E.get("PREFETCH"):
            q.get()  # blocks forever if the prefetch thread died
        if rank == FAIL_RANK and step == FAIL_STEP:
            fail_now(rank, world, log, ddp, step)
        x, y = batch["input_ids"], batch["labels"]
        if SCEN == "nan" and rank == FAIL_RANK and step >= FAIL_STEP:
            x = x.clone(); x[0, 3] = float("inf")
        if SCEN == "mismatch_size" and step == FAIL_STEP:
            n = 17 if rank == FAIL_RANK else 16
            dist.all_reduce(torch.ones(n))
        if SCEN == "mismatch_op" and step == FAIL_STEP:
            if rank == FAIL_RANK:
                dist.broadcast(torch.ones(4), src=0)
            else:
                dist.all_reduce(torch.ones(4))
        if SCEN == "mismatch_dtype" and step == FAIL_STEP:
            t = torch.ones(8, dtype=torch.float64 if rank == FAIL_RANK else torch.float32)
            dist.all_reduce(t)
        out = ddp(x)
        loss = ((out - y) ** 2).mean()
        if SCEN == "nan" and rank == FAIL_RANK and step >= FAIL_STEP:
            log(f"step {step} local_loss={loss.item()}", level="WARNING")
        loss.backward()
        if E.get("NO_DDP"):
            for p_ in model.parameters():
                dist.all_reduce(p_.grad)
                p_.grad /= world
        gl = loss.detach().clone()
        dist.all_reduce(gl)
        gl /= world
        if SCEN == "divergence":
            if step == 0:
                INIT_LOSS[0] = gl.item()
            elif gl.item() > 50 * INIT_LOSS[0]:
                raise RuntimeError(f"Training diverged: loss {gl.item():.3e} > 50x initial loss {INIT_LOSS[0]:.3f} at step {step}")
        if SCEN == "nan" and not torch.isfinite(gl):
            raise FloatingPointError(f"Loss is {gl.item()} at step {step}; aborting (check data / lr)")
        opt.step(); opt.zero_grad()
        extra = E.get("EXTRA_MSG")
        if extra and step == 2:
            for line in extra.split("||"):
                log(line, level="WARNING")
        log(f"step {step}/{nsteps} loss={gl.item():.4f} lr={opt.param_groups[0]['lr']:.4f} "
            f"elapsed={time.time()-t0:.1f}s", step=step, loss=round(gl.item(), 4))
        if SCEN == "divergence" and step >= 2:
            for g in opt.param_groups:
                g["lr"] *= 3.0
        time.sleep(STEP_SLEEP)
    if E.get("SAVE_CKPT"):
        if rank == 0 or E.get("SAVE_ALL"):
            path = os.path.join(CKPT_DIR, f"model_rank{rank}_final.pt" if E.get("SAVE_ALL") else "model_final.pt")
            log(f"saving checkpoint to {path}")
            os.makedirs(CKPT_DIR, exist_ok=True)
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                        "pad": torch.zeros(int(E.get("CKPT_PAD", "0")))}, path)
            log("checkpoint saved")
        dist.barrier()
    log("training finished")
    dist.destroy_process_group()


def fail_now(rank, world, log, ddp, step):
    import ctypes
    s = SCEN
    if s == "value_error":
        raise ValueError(f"label id 7 out of range for num_labels=5 in batch {step}")
    if s == "assert":
        assert step < FAIL_STEP, f"expected sequence length 128, got 131 (step {step})"
    if s == "shape":
        w = torch.randn(24, 8)
        torch.randn(4, 16) @ w
    if s == "dtype":
        torch.mm(torch.randn(4, 16), torch.randn(16, 2, dtype=torch.float64))
    if s == "runtime_other":
        raise RuntimeError("unexpected optimizer state: step counter went backwards")
    if s == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    if s == "segv":
        ctypes.string_at(0)
    if s == "abort":
        os.abort()
    if s == "sigbus":
        os.kill(os.getpid(), signal.SIGBUS)
    if s == "sleep":
        time.sleep(10 ** 6)
    if s == "deadlock":
        lk = threading.Lock(); lk.acquire(); lk.acquire()
    if s == "spin":
        while True:
            time.sleep(0.05)
            sum(range(1000))
    if s == "blocked_read":
        r, w = os.pipe()
        os.read(r, 1)
    if s == "oom_rlimit":
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, 3 * 1024 ** 3))
        acts = [torch.empty(512 * 1024 * 1024 // 4) for _ in range(12)]
    if s == "oom_cgroup":
        cg = E["OOM_CGROUP"]
        with open(os.path.join(cg, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
        bufs = []
        for i in range(100):
            bufs.append(torch.ones(64 * 1024 * 1024 // 4))
    if s == "nofile":
        for i in range(200):
            fds.append(open(f"/tmp/r59_shard_cache_{i % 7}.idx", "a"))
    if s == "ckpt_write":
        path = os.path.join(CKPT_DIR, f"ckpt_step{step}_rank{rank}.pt")
        log(f"saving checkpoint to {path}")
        with open(path, "wb") as f:
            torch.save({"model": ddp.module.state_dict(), "pad": torch.zeros(int(E.get("CKPT_PAD", "0")))}, f)
            f.flush(); os.fsync(f.fileno())
    if s == "exit_code":
        log("fatal: corrupted index detected, exiting", level="ERROR")
        sys.exit(3)


fds = []
INIT_LOSS = [0.0]

if __name__ == "__main__":
    main()
