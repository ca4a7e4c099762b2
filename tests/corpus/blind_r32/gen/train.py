"""Tiny DDP trainer with switchable real behaviours. MODE env selects the scenario."""
import os, sys, time, math, json, random, socket, traceback, warnings, resource, signal
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

MODE = os.environ.get("MODE", "plain")
STEPS = int(os.environ.get("STEPS", "60"))
LOG_ALL = os.environ.get("LOG_ALL", "1") == "1"
TIMEOUT = int(os.environ.get("PG_TIMEOUT", "25"))
CKPT = os.environ.get("CKPT", "")
HID = int(os.environ.get("HID", "64"))
torch.set_num_threads(1)


def log(rank, msg, force=False):
    if LOG_ALL or rank == 0 or force:
        print(f"[{time.strftime('%H:%M:%S')}] rank={rank} {msg}", flush=True)


def make_data(rank, n, noise=0.0, hard=False, seed=0):
    g = torch.Generator().manual_seed(seed * 100 + rank)
    x = torch.randn(n, 16, generator=g)
    w = torch.randn(16, 4, generator=torch.Generator().manual_seed(7))
    y = (x @ w).argmax(1)
    if hard:
        y = torch.randint(0, 4, (n,), generator=g)
    if noise > 0:
        flip = torch.rand(n, generator=g) < noise
        y[flip] = torch.randint(0, 4, (int(flip.sum()),), generator=g)
    return x, y


class DS(torch.utils.data.Dataset):
    def __init__(self, x, y, bad_idx=None, fds=False):
        self.x, self.y, self.bad, self.fds, self.keep = x, y, bad_idx, fds, []
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        if self.bad is not None and i == self.bad:
            rec = json.loads('{"text": "sample %d", "label": ' % i)  # truncated record in the shard
        if self.fds:
            self.keep.append(open(__file__))  # leaked handle per sample
        time.sleep(0.002)
        return self.x[i], self.y[i]


def main():
    rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))
    world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))
    os.environ.setdefault("RANK", str(rank)); os.environ.setdefault("WORLD_SIZE", str(world))
    run_worker(rank, world)


def run_worker(rank, world):
    torch.manual_seed(0)
    if rank == 0:
        cfg = {"mode": MODE if MODE not in () else MODE, "steps": STEPS, "world": world, "pg_timeout_s": TIMEOUT,
               "lr": 0.05, "batch": 8, "nan_check": True, "error_rate_threshold": 0.02, "killed_jobs": 0,
               "fail_fast": False, "retry_on_error": 3, "ckpt_dir": CKPT or None}
        print("config: " + json.dumps(cfg), flush=True)
    if MODE == "port_in_use_victim":
        pass
    dist.init_process_group("gloo", timeout=timedelta(seconds=TIMEOUT))
    log(rank, f"init done world={world} pid={os.getpid()}")
    model = nn.Sequential(nn.Linear(16, HID), nn.ReLU(), nn.Linear(HID, 4))
    start_step = 0
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    if MODE in ("resume_ok", "resume_corrupt", "resume_mismatch") and CKPT and os.path.exists(os.path.join(CKPT, "last.pt")):
        log(rank, f"resuming from {CKPT}/last.pt")
        sd = torch.load(os.path.join(CKPT, "last.pt"), map_location="cpu")
        model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start_step = sd["step"]
        log(rank, f"resumed at step {start_step}")
    ddp = DDP(model)
    noise = float(os.environ.get("NOISE", "0.0"))
    x, y = make_data(rank, 4096, noise=noise, hard=(MODE == "plateau"))
    bs = int(os.environ.get("BS", "8"))
    if MODE == "uneven" and rank == 1:
        x, y = x[: bs * (STEPS // 2)], y[: bs * (STEPS // 2)]
    loader = None
    if MODE in ("dl_exc", "dl_kill", "emfile"):
        ds = DS(x, y, bad_idx=(300 if (MODE == "dl_exc" and rank == 1) else None), fds=(MODE == "emfile" and rank == 0))
        loader = iter(torch.utils.data.DataLoader(ds, batch_size=bs, num_workers=2 if MODE != "emfile" else 0, shuffle=False))
    if MODE == "fp16":
        scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 24, growth_interval=15)
    if MODE == "optional_file":
        try:
            with open("/data/shared/vocab_extra.json") as f:
                extra = json.load(f)
        except FileNotFoundError:
            log(rank, "optional vocab file missing, continuing without it:\n" + traceback.format_exc().rstrip())
        for attempt in range(1, 4):
            try:
                s = socket.create_connection(("127.0.0.1", 38999), timeout=2)
                s.close(); break
            except OSError as e:
                log(rank, f"metrics server connect attempt {attempt}/3 failed: {e!r}\n" + traceback.format_exc().rstrip())
                time.sleep(0.3)
        else:
            log(rank, "metrics server unreachable, falling back to local CSV metrics")
    if MODE == "warnings":
        warnings.warn("torch.cuda.amp.GradScaler is deprecated; using CPU fallback", FutureWarning)
        warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`.", UserWarning)
        torch.tensor([1.0]).resize_(2) if False else None
        import numpy as np
        np.seterr(all="warn"); np.float32(1e38) * np.float32(10)
        warnings.warn("Some weights of the model checkpoint were not used when initializing", RuntimeWarning)
    if MODE == "rss_leak" and rank == 1:
        resource.setrlimit(resource.RLIMIT_AS, (int(os.environ.get("AS_LIMIT", str(3 * 1024 ** 3))),) * 2)
    leak = []
    lossf = nn.CrossEntropyLoss()
    ema = None
    for step in range(start_step, STEPS):
        t0 = time.time()
        if loader is not None:
            xb, yb = next(loader)
        else:
            i = (step * bs) % len(x)
            if MODE == "uneven" and rank == 1 and step * bs >= len(x):
                log(rank, f"data exhausted after {step} steps, epoch done")
                break
            xb, yb = x[i:i + bs], y[i:i + bs]
        xb = xb.clone()
        if MODE == "nan_skip" and step == 23 and rank == 0:
            xb[0, 3] = float("nan")
        if MODE == "nan_raise" and step == 31 and rank == 2:
            xb[1, 5] = float("inf") * 0
        if MODE == "spikes" and step in (20, 45):
            yb = (yb + 1) % 4; xb = xb * 30
        if MODE == "diverge" and step >= 30:
            for gparam in opt.param_groups:
                gparam["lr"] = 0.05 * 1.4 ** min(step - 29, 9)
        if MODE == "block_read" and rank == int(os.environ.get("BAD", "1")) and step == 25:
            log(rank, "refreshing shard index")
            fifo = os.environ["FIFO"]
            with open(fifo) as f:  # blocks: nobody writes
                f.read()
        if MODE == "sleep_hang" and step == 15 and rank == 0:
            log(rank, "waiting for prefetch")
            sys.stdin.read() if os.environ.get("STDIN") == "1" else time.sleep(100000)
        if MODE == "rss_leak" and rank == 1 and step >= 10:
            leak.append(torch.ones(64 * 1024 * 1024 // 4 * (step - 9)))
        if MODE == "cg_leak" and rank == 1 and step >= 10:
            leak.append(torch.ones(32 * 1024 * 1024 // 4))
        if MODE == "fp16":
            with torch.autocast("cpu", dtype=torch.float16):
                out = ddp(xb)
                loss = lossf(out.float(), yb)
        else:
            out = ddp(xb)
            loss = lossf(out, yb)
        if MODE == "nan_skip":
            bad = torch.tensor([0.0 if torch.isfinite(loss) else 1.0])
            dist.all_reduce(bad)
            if bad.item() > 0:
                log(rank, f"step {step}: non-finite loss detected on {int(bad.item())} rank(s) (loss={loss.item()}), skipping batch")
                continue
        if MODE == "nan_raise" and not torch.isfinite(loss):
            raise FloatingPointError(f"loss is {loss.item()} at step {step}")
        opt.zero_grad()
        if MODE == "fp16":
            scaler.scale(loss).backward()
            scaler.step(opt)
            old = scaler.get_scale()
            scaler.update()
            if scaler.get_scale() < old:
                log(rank, f"step {step}: gradient overflow, skipping step, loss scale {old:.3g} -> {scaler.get_scale():.3g}")
        else:
            loss.backward()
            if MODE == "spikes":
                torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
            opt.step()
        lv = loss.item()
        ema = lv if ema is None else 0.9 * ema + 0.1 * lv
        log(rank, f"step {step} loss {lv:.4f} ema {ema:.4f} lr {opt.param_groups[0]['lr']:.4g} time {time.time() - t0:.3f}s")
        if MODE == "evalrise" and step % 10 == 9:
            with torch.no_grad():
                xe, ye = make_data(rank + 50, 256, seed=3)
                ye = (ye + (step // 10)) % 4
                log(rank, f"eval step {step} val_loss {lossf(ddp(xe), ye).item():.4f}")
        if CKPT and step % 20 == 19 and MODE not in ("resume_corrupt", "resume_mismatch"):
            dist.barrier()
            if rank == 0:
                path = os.path.join(CKPT, "last.pt") if MODE != "ckpt_hang" else os.path.join(CKPT, "step.pt")
                log(rank, f"saving checkpoint to {path}")
                torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step + 1,
                            "pad": torch.zeros(int(os.environ.get("CKPT_PAD", "0")))}, path,
                           _use_new_zipfile_serialization=os.environ.get("LEGACY_SAVE") != "1")
                log(rank, "checkpoint saved")
            dist.barrier()
        if MODE not in ("long",):
            time.sleep(float(os.environ.get("STEP_SLEEP", "0.05")))
    log(rank, f"training finished, final ema loss {ema:.4f}")
    if MODE != "uneven":
        dist.barrier()
    dist.destroy_process_group()
    log(rank, "exiting cleanly")


def spawn_entry(rank, world, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), WORLD_SIZE=str(world))
    run_worker(rank, world)


if __name__ == "__main__":
    if os.environ.get("SPAWN"):
        import torch.multiprocessing as mp
        mp.spawn(spawn_entry, args=(int(os.environ["SPAWN"]), int(os.environ["MASTER_PORT"])), nprocs=int(os.environ["SPAWN"]))
    else:
        main()
