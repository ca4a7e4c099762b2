#!/usr/bin/env python3
"""Small CPU/gloo DDP trainer used to generate the evaluation runs.

Behaviour is chosen by the JOBCFG environment variable (never printed), e.g.
  JOBCFG="style=json,steps=40,fk=shape,fr=2,fs=5"
style: print|logging|json|tqdm|fw ; fk = fault kind, fr = fault rank, fs = fault step.
"""
import os, sys, time, json, math, logging, threading, queue, warnings, datetime, signal

CFG = dict(kv.split("=", 1) for kv in os.environ.get("JOBCFG", "").split(",") if "=" in kv)
STYLE = CFG.get("style", "print")
STEPS = int(CFG.get("steps", "30"))
FK = CFG.get("fk", "")
if CFG.get("once") == "1" and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") != "0":
    FK = ""
FR = int(CFG.get("fr", "-1"))
FS = int(CFG.get("fs", "-1"))
SLEEP = float(CFG.get("sleep", "0.05"))
TIMEOUT = int(CFG.get("timeout", "30"))

if FK == "import" :
    import flash_attn_cpu_ext  # noqa: F401  (a missing compiled extension)

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class Log:
    def __init__(self, rank, world):
        self.rank, self.world = rank, world
        self.bar = None
        if STYLE == "logging":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
            self.lg = logging.getLogger("train")
        elif STYLE == "fw":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s")
            self.lg = logging.getLogger(f"minitrainer.rank{rank}")

    def info(self, msg, **kw):
        if STYLE == "json":
            rec = {"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": "INFO",
                   "rank": self.rank, "msg": msg}
            rec.update(kw)
            print(json.dumps(rec), flush=True)
        elif STYLE in ("logging", "fw"):
            extra = " ".join(f"{k}={v}" for k, v in kw.items())
            self.lg.info(f"{msg} {extra}".strip())
        else:
            extra = " ".join(f"{k}={v}" for k, v in kw.items())
            print(f"[rank {self.rank}] {msg} {extra}".strip(), flush=True)

    def warn(self, msg):
        if STYLE == "json":
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": "WARNING",
                              "rank": self.rank, "msg": msg}), flush=True)
        elif STYLE in ("logging", "fw"):
            self.lg.warning(msg)
        else:
            print(f"[rank {self.rank}] WARNING: {msg}", flush=True)

    def step(self, step, loss, lr, dt):
        if STYLE == "tqdm":
            if self.rank == 0:
                if self.bar is None:
                    from tqdm import tqdm
                    self.bar = tqdm(total=STEPS, desc="train", file=sys.stderr, mininterval=0)
                self.bar.set_postfix(loss=f"{loss:.4f}")
                self.bar.update(1)
        elif STYLE == "fw":
            self.lg.info(f"epoch {step // 10} | step {step:5d}/{STEPS} | loss {loss:.4f} | lr {lr:.2e} | "
                         f"{dt*1000:.1f} ms/step")
        else:
            self.info("step", step=step, loss=round(loss, 5), lr=lr, step_time=round(dt, 4))


class DS(torch.utils.data.Dataset):
    def __init__(self, rank, n):
        self.rank, self.n = rank, n
        g = torch.Generator().manual_seed(1234 + rank)
        self.x = torch.randn(n, 16, generator=g)
        self.y = (self.x.sum(1) > 0).long()

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if FK == "dlkill" and self.rank == FR and i >= FS * 8:
            os.kill(os.getpid(), signal.SIGKILL)
        return self.x[i], self.y[i]


def fault_bad_sample(step):
    raw = '{"id": %d, "text": "the quick brown fox", "input_ids": [101, 2003, 1996' % (step * 8 + 3)
    return json.loads(raw)


def main(local_rank=None, world_override=None):
    if local_rank is not None:  # mp.spawn / own launcher
        rank, world = local_rank, world_override
        os.environ["RANK"], os.environ["WORLD_SIZE"] = str(rank), str(world)
    elif "RANK" in os.environ:
        rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    else:
        rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
        os.environ["RANK"], os.environ["WORLD_SIZE"] = str(rank), str(world)
    log = Log(rank, world)
    torch.manual_seed(0)
    torch.set_num_threads(1)

    if FK == "oom" and rank == FR:
        cg = CFG.get("cg")
        with open(f"/sys/fs/cgroup/memory/{cg}/cgroup.procs", "w") as f:
            f.write(str(os.getpid()))

    log.info("initializing process group", backend="gloo", world_size=world)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=TIMEOUT))
    log.info("process group ready", rank=dist.get_rank())

    hidden = int(CFG.get("hidden", "32"))
    model = nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, 2))
    if "resume" in CFG and (FK != "corrupt" or rank == 0):
        log.info("resuming from checkpoint", path=CFG["resume"])
        sd = torch.load(CFG["resume"], map_location="cpu")
        model.load_state_dict(sd["model"])
        log.info("checkpoint loaded")
    ddp = DDP(model) if CFG.get("ddp", "1") == "1" else model
    lr = float(CFG.get("lr", "0.05"))
    opt = torch.optim.SGD(ddp.parameters(), lr=lr, momentum=0.9)
    n = 8 * (STEPS + 5)
    if FK == "uneven" and rank == FR:
        n = 8 * FS
    ds = DS(rank, n)
    workers = int(CFG.get("workers", "0"))
    dl = torch.utils.data.DataLoader(ds, batch_size=8, num_workers=workers, shuffle=False)

    if CFG.get("noise") == "1":
        warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly", UserWarning)
        log.warn("grad accumulation steps not set, defaulting to 1")
        if rank == 0:
            log.warn("checkpoint directory exists and is not empty; files may be overwritten")

    # helper thread: prefetch "token stats" from samples
    q = queue.Queue(maxsize=4)
    if FK == "thread":
        def prefetch():
            k = 0
            while True:
                k += 1
                if rank == FR and k == FS:
                    sample = {"id": 4711, "input_ids": [1, 2, 3]}
                    txt = sample["text"]  # KeyError: 'text'
                q.put(k)
                time.sleep(SLEEP)
        th = threading.Thread(target=prefetch, name="token-prefetch", daemon=True)
        th.start()

    best = float("inf")
    step = 0
    t_last = time.time()
    log.info("starting training", steps=STEPS, batch_size=8, lr=lr)
    for x, y in dl:
        step += 1
        if step > STEPS:
            break
        if FK == "thread":
            try:
                q.get(timeout=15)
            except queue.Empty:
                raise RuntimeError(f"prefetch queue empty for 15s at step {step}: token-prefetch thread is not producing")
        if CFG.get("retry") == "1" and rank == 1 and step == 7:
            try:
                raise ConnectionResetError(104, "Connection reset by peer")
            except ConnectionResetError:
                logging.getLogger("shardcache").warning("fetching shard 00017 failed, retrying in 0.1s", exc_info=True)
                print(f"[rank {rank}] shard 00017 fetched on retry 1", flush=True)
        if rank == FR and step == FS:
            if FK == "shape":
                x = torch.cat([x, torch.zeros(x.shape[0], 4)], dim=1)  # feature-width bug in augmentation
            elif FK == "data":
                fault_bad_sample(step)
            elif FK == "nan":
                x = x.clone(); x[0, 3] = float("inf")
            elif FK == "oom":
                log.info("building in-memory feature cache")
                cache = []
                while True:
                    cache.append(torch.ones(64 * 1024 * 1024 // 4))
            elif FK == "segv":
                import ctypes
                log.info("calling fused kernel extension")
                ctypes.string_at(0)
            elif FK == "hang":
                time.sleep(100000)
            elif FK == "emfile":
                import resource
                resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
                handles = []
                for i in range(1000):
                    handles.append(open(f"/tmp/blind50_shard_idx_{i % 7}.bin", "a"))
            elif FK == "abort":
                os.abort()
        out = ddp(x)
        if FK == "dtype" and rank == FR and step >= FS:
            loss = F.nll_loss(F.log_softmax(out, -1), y.float())
        else:
            loss = F.cross_entropy(out, y)
        if CFG.get("nancheck") == "1" and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step} (rank {rank}); stopping")
        if CFG.get("skipnan") == "1" and rank == 0 and step == 4:
            log.warn(f"non-finite loss at step {step}, skipping batch (1 skipped so far)")
        opt.zero_grad()
        loss.backward()
        if ddp is model:
            for p_ in model.parameters():
                dist.all_reduce(p_.grad)
                p_.grad /= world
        opt.step()
        if FK == "mismatch" and step == FS:
            metrics = torch.tensor([loss.item(), float(step)])
            if rank == FR:
                metrics = torch.tensor([loss.item(), float(step), 0.0])  # extra metric only on this rank
            dist.all_reduce(metrics)
        lv = loss.item()
        if FK == "diverge":
            if step == FS:
                for g in opt.param_groups:
                    g["lr"] = g["lr"] * 40
            best = min(best, lv)
            if step > FS + 5 and lv > 3 * best + 1.0:
                raise RuntimeError(f"loss diverged: {lv:.3f} > 3x best {best:.3f} for 5 steps; aborting")
        if CFG.get("spike") == "1" and step in (12, 13):
            lv = lv * 6
        dt = time.time() - t_last
        t_last = time.time()
        if not (STYLE == "json" and step % 2 == 0) or rank == 0:
            log.step(step, lv, opt.param_groups[0]["lr"], dt)
        if CFG.get("verbose") == "1" and rank == 0:
            for j in range(20):
                log.info("grad_norm", layer=j, value=round(0.1 + 0.01 * j, 3), step=step)
        if "ckpt" in CFG and step % int(CFG.get("ckpt_every", "10")) == 0:
            if rank == 0:
                path = os.path.join(CFG["ckpt"], f"step_{step:06d}")
                log.info("saving checkpoint", path=path)
                os.makedirs(path, exist_ok=True)
                state = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                         "blob": torch.randn(int(CFG.get("blob", "1000")))}
                torch.save(state, os.path.join(path, "model.pt"))
                log.info("checkpoint saved", path=path)
            dist.barrier()
        time.sleep(SLEEP)
    if STYLE == "tqdm" and log.bar is not None:
        log.bar.close()
    log.info("training finished", steps=min(step, STEPS))
    if FK != "uneven":
        dist.barrier()
    dist.destroy_process_group()
    log.info("exiting cleanly")


if __name__ == "__main__":
    if CFG.get("launch") == "spawn":
        import torch.multiprocessing as mp
        world = int(CFG.get("world", "2"))
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        mp.spawn(main, args=(world,), nprocs=world, join=True)
    else:
        main()
