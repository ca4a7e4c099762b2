#!/usr/bin/env python3
"""Tiny DDP trainer (gloo/CPU) with switchable real failures.

Env: MODE (fault), CULPRIT (global rank), FSTEP (step at which to fail), STEPS, STYLE (print|log|json|tqdm),
GLOO_TIMEOUT (seconds for the process group), CKPT (path), DATA (dir).
"""
import datetime, json, logging, os, signal, sys, time

import torch
import torch.distributed as dist
import torch.nn as nn

MODE = os.environ.get("MODE", "none")
CUL = int(os.environ.get("CULPRIT", "-1"))
FSTEP = int(os.environ.get("FSTEP", "5"))
STEPS = int(os.environ.get("STEPS", "20"))
STYLE = os.environ.get("STYLE", "print")
TMO = float(os.environ.get("GLOO_TIMEOUT", "30"))
SLEEP = float(os.environ.get("STEP_SLEEP", "0.05"))


def rank_env():
    for k in ("RANK", "SLURM_PROCID"):
        if k in os.environ:
            return int(os.environ[k])
    return 0


def world_env():
    for k in ("WORLD_SIZE", "SLURM_NTASKS"):
        if k in os.environ:
            return int(os.environ[k])
    return 1


RANK, WORLD = rank_env(), world_env()
log = logging.getLogger("train")
if STYLE == "log":
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [rank{RANK}] %(levelname)s %(name)s: %(message)s")
else:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")


def say(msg, **kw):
    if STYLE == "json":
        print(json.dumps({"ts": time.time(), "rank": RANK, "msg": msg, **kw}), flush=True)
    elif STYLE == "log":
        log.info(msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())))
    else:
        print(msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())), flush=True)


def me():
    return RANK == CUL


def main():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", os.environ.get("PORT", "29611"))
    if me() and MODE == "init_exc":
        import importlib
        importlib.import_module("fused_adam_ext")  # not installed on this host
    if os.environ.get("ATTEMPT_PREFIX"):
        # namespace the store keys by restart attempt so a restarted group does not read stale gloo addresses
        base = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), WORLD, False,
                             timeout=datetime.timedelta(seconds=TMO))
        store = dist.PrefixStore("attempt" + os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"), base)
        dist.init_process_group("gloo", store=store, rank=RANK, world_size=WORLD, timeout=datetime.timedelta(seconds=TMO))
    else:
        dist.init_process_group("gloo", rank=RANK, world_size=WORLD, timeout=datetime.timedelta(seconds=TMO))
    say("process group ready", world=WORLD)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    ck = os.environ.get("CKPT")
    if MODE in ("ckpt_corrupt", "ckpt_mismatch") and ck:
        path = ck if not me() else os.environ.get("BADCKPT", ck)
        say("loading checkpoint", path=path)
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd)
    rc = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
    if MODE == "restart_ckpt" and rc != "0":
        path = os.environ["BADCKPT"] if me() else os.environ["CKPT"]
        say("resuming from checkpoint", path=path, attempt=rc)
        model.load_state_dict(torch.load(path, map_location="cpu"))
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("LR", "0.01")))
    g = torch.Generator().manual_seed(RANK)
    it = range(STEPS)
    if MODE == "dlkill":
        class DS(torch.utils.data.Dataset):
            def __len__(self):
                return 16 * STEPS
            def __getitem__(self, i):
                if RANK == CUL and i == 16 * FSTEP + 3:
                    os.kill(os.getpid(), signal.SIGKILL)
                return torch.randn(32), torch.randn(1)
        dl = iter(torch.utils.data.DataLoader(DS(), batch_size=16, num_workers=2))
    if STYLE == "tqdm":
        from tqdm import tqdm
        it = tqdm(it, desc=f"rank{RANK}", file=sys.stderr, mininterval=0)
    for step in it:
        x = torch.randn(16, 32, generator=g)
        y = torch.randn(16, 1, generator=g)
        if MODE == "dlkill":
            x, y = next(dl)
        if step == FSTEP and me():
            if MODE == "exc":
                raise RuntimeError(f"unexpected value in batch statistics at step {step}: running_var went negative")
            if MODE == "exc_wait":
                try:
                    _ = {"lr": 0.01}["warmup_steps"]
                except KeyError:
                    log.exception("step %d failed on rank %d; holding process for debugger attach (set DEBUG_HOLD=0 to disable)", step, RANK)
                    while True:
                        time.sleep(5)
            if MODE == "keyerror":
                cfg = {"lr": 0.01}
                _ = cfg["warmup_steps"]
            if MODE == "shape":
                x = torch.randn(16, 30, generator=g)
            if MODE == "nan":
                x = x * float("inf")
            if MODE == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
            if MODE == "sigsegv":
                import ctypes
                ctypes.string_at(0)
            if MODE == "sigabrt":
                os.abort()
            if MODE == "exit0":
                say("rank done early, leaving")
                sys.exit(0)
            if MODE == "hang_fifo":
                say("reading control fifo", path=os.environ["FIFO"])
                open(os.environ["FIFO"]).read()
            if MODE == "deadlock":
                import threading
                lk = threading.Lock()
                lk.acquire()
                lk.acquire()
            if MODE == "mismatch":
                t = torch.zeros(4)
                dist.broadcast(t, src=0)
            if MODE == "wrongpg":
                sub = dist.new_group([CUL])  # only one side creates it -> store wait
            if MODE == "emfile":
                fs = []
                while True:
                    fs.append(open(__file__))
            if MODE == "oom":
                with open("/sys/fs/cgroup/memory/r53oom/tasks", "w") as f:
                    f.write(str(os.getpid()))
                say("loading shard cache into memory")
                hog = []
                while True:
                    hog.append(torch.ones(32 * 1024 * 1024 // 4))
            if MODE == "restart_ckpt" and False:
                pass
            if MODE == "transient" and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
                raise ConnectionResetError(104, "Connection reset by peer while fetching batch from feature store")
        if MODE == "restart_ckpt" and step == FSTEP and RANK == int(os.environ.get("TRANSIENT_RANK", "-1")) and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
            raise ConnectionResetError(104, "Connection reset by peer while fetching batch from feature store")
        if MODE == "data" and step == FSTEP:
            with open(os.path.join(os.environ.get("DATA", "/tmp/r53data"), f"shard-{RANK:05d}.jsonl")) as f:
                f.read()
        if MODE == "grow" and me() and step >= FSTEP:
            hog = globals().setdefault("HOG", [])
            hog.append(torch.ones(150 * 1024 * 1024 // 4))
        if MODE == "mismatch_shape" and step == FSTEP:
            t = torch.ones(5 if me() else 4)
            dist.all_reduce(t)
        if MODE == "handled" and step == FSTEP and RANK == 0:
            try:
                json.loads("{bad json")
            except Exception:
                log.exception("could not parse metrics sidecar, skipping this report")
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"rank {RANK}: loss is {loss.item()} at step {step}")
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0 or step == STEPS - 1:
            say(f"step {step}", loss=round(loss.item(), 4))
        time.sleep(SLEEP)
    if MODE in ("save_full", "save_ro") and RANK == 0:
        p = os.environ["SAVE_DIR"] + "/model_final.pt"
        say("saving checkpoint", path=p)
        big = {"model": model.state_dict(), "pad": torch.zeros(4 * 1024 * 1024)}
        torch.save(big, p)
    dist.barrier()
    say("training complete")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
