"""Tiny DDP-like trainer (CPU, gloo). Behaviour chosen by env SCEN; every failure is real."""
import os, sys, time, json, signal, threading, queue, logging, datetime, ctypes, math
import torch, torch.nn as nn, torch.distributed as dist

SCEN = os.environ.get("SCEN", "plain")
STEPS = int(os.environ.get("STEPS", "12"))
STYLE = os.environ.get("STYLE", "logging")  # logging | print | json | tqdm | trainer
TMO = int(os.environ.get("GLOO_TMO", "25"))
CKPT = os.environ.get("CKPT_DIR", "/tmp/r51ckpt")

def env_rank():
    for r, w in (("RANK", "WORLD_SIZE"), ("SLURM_PROCID", "SLURM_NTASKS")):
        if r in os.environ and w in os.environ:
            return int(os.environ[r]), int(os.environ[w])
    return 0, 1

def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]

class Out:
    def __init__(self, rank, world):
        self.rank, self.world = rank, world
        self.log = logging.getLogger("trainer")
        h = logging.StreamHandler(sys.stderr)
        if STYLE == "trainer":
            h.setFormatter(logging.Formatter("%(asctime)s | %(levelname)-7s | nanotrainer.loop:%(lineno)d - %(message)s"))
        elif STYLE == "nopfx":
            h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        else:
            h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank{rank}] %(message)s"))
        self.log.addHandler(h); self.log.setLevel(logging.INFO)
    def info(self, msg, **kv):
        if STYLE == "print":
            print(f"[{now()}] rank {self.rank}/{self.world} pid {os.getpid()}: {msg}")
        elif STYLE == "json":
            print(json.dumps({"ts": now(), "level": "info", "rank": self.rank, "msg": msg, **kv}))
        elif STYLE == "nopfx":
            self.log.info(f"pid={os.getpid()} {msg}")
        else:
            self.log.info(msg)
    def warn(self, msg):
        if STYLE == "json":
            print(json.dumps({"ts": now(), "level": "warning", "rank": self.rank, "msg": msg}))
        else:
            self.log.warning(msg)
    def exc(self, msg):
        self.log.exception(msg)

def main(rank=None, world=None):
    if rank is None:
        rank, world = env_rank()
    else:
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    o = Out(rank, world)
    if SCEN == "emfile" and rank == 1:
        import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=TMO))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    o.info(f"start world={world} restart={restart} host={os.uname().nodename}")
    if SCEN == "warnings":
        import warnings
        warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available. Disabling.", UserWarning)
        warnings.warn("`resume_download` is deprecated and will be removed in version 1.0.0.", FutureWarning)
    start = 0
    if SCEN in ("restart_ckpt", "restart_ok") and restart > 0:
        path = f"{CKPT}/last.pt"
        sd = torch.load(path)
        if SCEN == "restart_ckpt":
            model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))  # config changed on resume
        model.load_state_dict(sd["model"]); start = sd["step"]
        o.info(f"resumed from {path} at step {start}")
    if SCEN == "load_mismatch" and rank == 3:
        sd = {"0.weight": torch.zeros(32, 16), "0.bias": torch.zeros(32), "2.weight": torch.zeros(1, 64), "2.bias": torch.zeros(1)}
        model.load_state_dict(sd)
    # data
    loader = None
    if SCEN in ("dl_error", "dl_killed", "dl_ok"):
        from torch.utils.data import DataLoader, Dataset
        class DS(Dataset):
            def __len__(self): return 400
            def __getitem__(self, i):
                if SCEN == "dl_error" and rank == 1 and i == 70:
                    raise ValueError(f"sample {i}: field 'input_ids' has length 0 (record shard-00017.jsonl:{i})")
                if SCEN == "dl_killed" and rank == 3 and i == 70:
                    os.kill(os.getpid(), signal.SIGKILL)
                g = torch.Generator().manual_seed(i); x = torch.randn(16, generator=g)
                return x, x.sum(0, keepdim=True)
        loader = iter(DataLoader(DS(), batch_size=8, num_workers=2))
    q = None
    if SCEN == "thread_err":
        q = queue.Queue(maxsize=2)
        def prefetch():
            for i in range(10_000):
                if rank == 2 and i == 5:
                    rec = {"text": "...", "len": 12}
                    raise KeyError(f"'input_ids' missing in record {i} of shard-00042.arrow: {list(rec)}")
                g = torch.Generator().manual_seed(i); x = torch.randn(8, 16, generator=g)
                q.put((x, x.sum(1, keepdim=True)))
        threading.Thread(target=prefetch, name="prefetch", daemon=True).start()
    if SCEN == "nonexit_thread" or os.environ.get("HOLD") == "1":
        threading.Thread(target=lambda: time.sleep(600), name="metrics-uploader", daemon=False).start()
    if SCEN == "nan_late" and rank == 1:
        def onterm(sig, frm):
            sys.stdout.flush(); os._exit(143)
        signal.signal(signal.SIGTERM, onterm)
    if SCEN == "oom_cg" and rank == 1:
        hog = []
    scale = 65536.0
    it = range(start, STEPS)
    if STYLE == "tqdm":
        from tqdm import tqdm
        it = tqdm(it, desc=f"rank{rank} train", file=sys.stderr, mininterval=0, ncols=80)
    for step in it:
        t0 = time.time()
        if loader is not None:
            x, y = next(loader)
        elif q is not None:
            x, y = q.get(timeout=15)
        else:
            g = torch.Generator().manual_seed(step * 100 + rank)
            x = torch.randn(8, 16, generator=g); y = x.sum(1, keepdim=True)
        # --- per-scenario hooks before compute ---
        if SCEN == "silent_sleep" and rank == 2 and step == 4:
            time.sleep(400)
        if SCEN == "deadlock" and rank == 3 and step == 5:
            lk = threading.Lock(); lk.acquire()
            t = threading.Thread(target=lambda: (lk.acquire(), lk.release()), name="stats-flush"); t.start(); t.join()
        if SCEN == "early_exit" and rank == 1 and step == 4:
            o.info("dataset shard exhausted (312 samples), finishing epoch")
            dist.destroy_process_group() if False else None
            sys.exit(0)
        if SCEN == "data_err" and rank == 2 and step == 5:
            rec = "{\"input_ids\": [101, 2023, \"<unk>\"" 
            json.loads(rec)
        if SCEN == "data_err_two" and rank == 2 and step == 5:
            raise ValueError(f"bad sample at index {step*8+3}: label 7 out of range for num_classes=5 (file train-00003.parquet)")
        if SCEN == "restart_ckpt" and restart == 0 and rank == 2 and step == 6:
            raise ValueError("bad sample at index 51: token id 50301 >= vocab size 50257 (shard-00009)")
        if SCEN == "restart_ok" and restart == 0 and rank == 1 and step == 6:
            raise ConnectionResetError(104, "Connection reset by peer (metrics endpoint http://10.0.0.5:8086/write)")
        if SCEN == "shape" and rank == 1 and step == 3:
            x = torch.randn(8, 24)
        if SCEN == "dtype" and rank == 2 and step == 3:
            x = x.double()
        if SCEN == "emfile" and rank == 1 and step == 4:
            fs = [open(f"/tmp/r51_shard_{i}.idx", "w") for i in range(200)]
        if SCEN == "segv" and rank == 2 and step == 4:
            ctypes.string_at(0)
        if SCEN == "sigkill" and rank == 3 and step == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        if SCEN == "watch_kill":
            open(f"/tmp/r51_pid_rank{rank}", "w").write(str(os.getpid()))
        if SCEN == "oom_cg" and rank == 1 and step >= 3:
            for _ in range(40):
                hog.append(torch.ones(64 * 1024 * 1024 // 4))  # 64 MiB each, touched
                time.sleep(0.02)
        if SCEN == "straggler" and rank == 2 and step in (3, 4, 5):
            time.sleep(4)
        if SCEN == "slow" and step % 4 == 1:
            time.sleep(2)
        if SCEN == "timelimit":
            time.sleep(8)
        if SCEN == "retry":
            for attempt in range(3):
                try:
                    if attempt == 0 and step in (2, 7):
                        raise ConnectionError(f"HTTPSConnectionPool(host='storage.internal', port=443): Read timed out. (shard {step})")
                    break
                except ConnectionError:
                    o.exc(f"fetch of shard {step} failed (attempt {attempt+1}/3), retrying in 1s")
                    time.sleep(1)
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        if SCEN == "nan_late" and rank == 1 and step == 3:
            loss = loss * float("nan")
        if SCEN == "spike_ok" and step in (5, 6):
            loss = loss * 40
        if SCEN == "overflow_ok" and step in (1, 2, 3):
            scale /= 2
            o.warn(f"Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to {scale}")
        if not math.isfinite(loss.item()):
            if SCEN == "nan_late":
                print(f"[{now()}] rank {rank}: ERROR non-finite loss {loss.item()} at step {step}; aborting, uploading run state", flush=False)
                time.sleep(120)  # upload stuck; killed by the launcher later
                sys.exit(3)
        opt.zero_grad(); loss.backward()
        if SCEN == "mismatch" and rank == 3 and step == 4:
            dist.broadcast(torch.zeros(5), src=0)
        for p in model.parameters():
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        dt = time.time() - t0
        if SCEN == "nonexit_thread" and rank == 1 and step == 4:
            os.makedirs(CKPT, exist_ok=True)
            torch.save({"model": model.state_dict(), "step": step}, f"{CKPT}/step_{step}.pt")
        if SCEN == "diskfull" and rank == 0 and step == 5:
            torch.save({"model": model.state_dict(), "step": step}, f"{CKPT}/step_{step}.pt")
        if SCEN in ("restart_ckpt", "restart_ok") and rank == 0 and step % 3 == 2:
            os.makedirs(CKPT, exist_ok=True)
            torch.save({"model": model.state_dict(), "step": step + 1}, f"{CKPT}/last.pt")
        if SCEN == "eval_err" and step == STEPS - 2:
            val = [] if rank == 0 else [1.0, 2.0]
            o.info("running validation")
            vloss = sum(val) / len(val)
            dist.barrier()
        if STYLE != "tqdm" or step % 4 == 0:
            o.info(f"step {step} loss {loss.item():.4f} step_time {dt:.3f}s", step=step, loss=round(loss.item(), 4))
        if SCEN in ("ckpt_ok", "ckpt_ok2") and rank == 0 and step == 6:
            for tgt in ("/dev/full", f"{CKPT}/step_{step}.pt"):
                try:
                    os.makedirs(CKPT, exist_ok=True)
                    torch.save({"model": model.state_dict()}, tgt); o.info(f"saved checkpoint {tgt}"); break
                except (OSError, RuntimeError) if SCEN == "ckpt_ok2" else OSError:
                    o.exc(f"checkpoint save to {tgt} failed; falling back to local scratch")
        time.sleep(float(os.environ.get("STEP_SLEEP", "0.3")))
    dist.barrier()
    o.info("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    if os.environ.get("LAUNCH") == "spawn":
        import torch.multiprocessing as mp
        w = int(os.environ.get("NPROC", "4"))
        mp.spawn(main, args=(w,), nprocs=w)
    else:
        main()
