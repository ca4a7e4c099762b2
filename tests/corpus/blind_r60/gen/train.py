# Generic tiny DDP trainer with injectable failures. Configure with env vars:
#  MODE: what to inject; FAIL_RANK; FAIL_STEP; FMT: log format; STEPS; PGTO (pg timeout s)
import os, sys, time, json, socket, logging, signal, threading, math, datetime, random
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import Dataset, DataLoader

MODE = os.environ.get("MODE", "none")
FR = int(os.environ.get("FAIL_RANK", "1"))
FS = int(os.environ.get("FAIL_STEP", "3"))
FMT = os.environ.get("FMT", "prefix")
STEPS = int(os.environ.get("STEPS", "8"))
PGTO = int(os.environ.get("PGTO", "15"))
CKPT = os.environ.get("CKPT_DIR", "/tmp/b60ckpt")
PHASE = os.environ.get("PHASE", "train")
SLEEP = float(os.environ.get("STEP_SLEEP", "0.2"))

rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))
world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))
local_rank = int(os.environ.get("LOCAL_RANK", os.environ.get("SLURM_LOCALID", "0")))
host = socket.gethostname()


class RankFilter(logging.Filter):
    def filter(self, rec):
        rec.rank = rank; rec.world = world; rec.host = host
        return True


class JsonFmt(logging.Formatter):
    def format(self, rec):
        d = {"ts": round(rec.created, 3), "lvl": rec.levelname.lower(), "logger": rec.name,
             "rank": rank, "msg": rec.getMessage()}
        if rec.exc_info:
            d["exc"] = self.formatException(rec.exc_info)
        return json.dumps(d)


def setup_log():
    h = logging.StreamHandler(sys.stdout)
    h.addFilter(RankFilter())
    if FMT == "logA":
        h.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] [rank%(rank)d] %(name)s: %(message)s"))
    elif FMT == "logB":
        h.setFormatter(logging.Formatter("[%(asctime)s][%(host)s][r=%(rank)s/%(world)s] %(levelname).1s %(message)s",
                                         datefmt="%H:%M:%S"))
    elif FMT == "json":
        h.setFormatter(JsonFmt())
    elif FMT == "lognorank":
        h.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s | %(message)s"))
    elif FMT == "logC":
        h.setFormatter(logging.Formatter("%(levelname)s %(asctime)s pid=%(process)d %(filename)s:%(lineno)d] %(message)s"))
    else:
        h.setFormatter(logging.Formatter("%(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [h]
    root.setLevel(logging.INFO)
    return logging.getLogger("trainer")


log = setup_log()


def say(msg, level=logging.INFO):
    if FMT == "prefix":
        print(f"[rank{rank}]: {msg}", flush=True)
    elif FMT == "prefix2":
        print(f"{rank:02d}| {msg}", flush=True)
    elif FMT == "norank":
        print(msg, flush=True)
    elif FMT == "tqdm":
        if rank == 0:
            from tqdm import tqdm
            tqdm.write(msg)
    else:
        log.log(level, msg)
    sys.stdout.flush()


class DS(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        x = torch.randn(16, generator=g)
        if MODE in ("bad_sample", "bad_sample_hang") and rank == FR and i == 37:
            raise ValueError(f"sample {i}: malformed record in shard-00{rank}.jsonl: expected 16 features, got 'NaN,,,'")
        if MODE == "worker_kill" and rank == FR and i > 40 and torch.utils.data.get_worker_info() is not None:
            os.kill(os.getpid(), int(os.environ.get("WSIG", "9")))
        return {"x": x, "y": x.sum(dim=0, keepdim=True) * 0.1}


def collate(batch):
    if MODE == "collate_key" and rank == FR and len(batch) and random.Random(7).random() < 2:
        # simulated schema drift: this rank's shard uses different field names
        global _c
        _c = globals().get("_c", 0) + 1
        if _c >= FS:
            batch = [{"inputs": b["x"], "y": b["y"]} for b in batch]
    return {"x": torch.stack([b["x"] for b in batch]), "y": torch.stack([b["y"] for b in batch])}


def main():
    say(f"starting on {host} pid={os.getpid()} world={world} local_rank={local_rank} mode={MODE}")
    if MODE == "hub" and rank == 0:
        pass
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=PGTO),
                            **({"init_method": os.environ["INIT_METHOD"], "rank": rank, "world_size": world}
                               if "INIT_METHOD" in os.environ else {}))
    say(f"process group initialised (backend=gloo, timeout={PGTO}s)")
    if MODE == "bad_sample_hang":
        def uploader():  # non-daemon metrics uploader: keeps the process alive after the main thread dies
            while True:
                time.sleep(1)
        threading.Thread(target=uploader, name="metrics-uploader").start()
    if MODE == "hub":
        if rank == 0:
            from transformers import AutoTokenizer
            say("downloading tokenizer bert-base-uncased on rank 0")
            tok = AutoTokenizer.from_pretrained("google-bert/bert-base-uncased")
        dist.barrier()
    if MODE == "import_missing" and rank == FR:
        import fused_adam_ext  # noqa: F401  (only present in node0's PYTHONPATH)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    if MODE == "load_mismatch":
        sd = torch.load(os.environ["LOAD"], weights_only=True)
        say(f"resuming from {os.environ['LOAD']}")
        model.load_state_dict(sd)
    if MODE in ("load_missing", "load_corrupt"):
        p = os.path.join(os.environ["LOAD"], f"optim_rank{rank:03d}.pt")
        say(f"loading rank-local optimizer shard {p}")
        osd = torch.load(p, weights_only=True)
        say(f"optimizer shard loaded ({len(osd)} entries)")
    if MODE == "meta" and rank == FR:
        model = model.to("meta")
    ddp = DDP(model) if MODE != "meta" else model
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("LR", "0.01")))
    n = 64 * 8
    if MODE == "uneven" and rank == FR:
        n = 8 * FS
    sampler = torch.utils.data.distributed.DistributedSampler(DS(n), num_replicas=1, rank=0, shuffle=False)
    dl = DataLoader(DS(n), batch_size=8, collate_fn=collate, num_workers=int(os.environ.get("WORKERS", "0")))
    if MODE == "prefetch_thread" and rank == FR:
        import queue
        q = queue.Queue(maxsize=2)
        def prefetch():
            for k in range(100):
                if k == FS:
                    open(f"/data/shards/train-{rank:05d}-of-{world:05d}.arrow", "rb")
                q.put(k)
        threading.Thread(target=prefetch, name="prefetcher", daemon=True).start()
    if MODE == "emfile" and rank == FR:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    if MODE == "cgroup_oom" and rank == FR:
        cg = os.environ["OOMCG"]
        with open(f"{cg}/cgroup.procs", "w") as f:
            f.write(str(os.getpid()))
    handles = []
    pbar = None
    if FMT == "tqdm" and rank == 0:
        from tqdm import tqdm
        pbar = tqdm(total=STEPS, desc="train", dynamic_ncols=False, ncols=100, file=sys.stderr, mininterval=0)
    step = 0
    t0 = time.time()
    for batch in dl:
        if step >= STEPS:
            break
        if MODE == "prefetch_thread" and rank == FR:
            try:
                q.get(timeout=3)
            except Exception:
                raise RuntimeError("prefetch queue empty for 3s: data prefetcher thread is not alive") from None
        x, y = batch["x"], batch["y"]
        if MODE == "shape" and rank == FR and step == FS:
            x = x[:, :12]
        if MODE == "dtype" and rank == FR and step == FS:
            x = x.to(torch.float64)
            out = model[0].weight @ x.T
        if MODE == "nan" and rank == FR and step == FS:
            x = x / 0.0 * 0.0
        if MODE == "flaky" and rank == FR and step == FS and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
            raise ConnectionResetError(104, "Connection reset by peer while reading shard from object store (transient)")
        if MODE == "double" and step == FS and rank in (FR, int(os.environ.get("FAIL_RANK2", "3"))):
            if rank != FR:
                time.sleep(0.15)
            raise ValueError(f"rank {rank}: corrupted sample at step {step}: token id 50311 >= vocab size 50257")
        if MODE == "assert" and rank == FR and step == FS:
            assert x.shape[0] == 16, f"expected micro-batch 16 per rank, got {x.shape[0]}"
        if MODE == "sleep" and rank == FR and step == FS:
            say("fetching next batch from remote cache")
            time.sleep(float(os.environ.get("HANG", "120")))
        if MODE == "spin" and rank == FR and step == FS:
            z = 0
            while True:
                z += 1
        if MODE == "signal" and rank == FR and step == FS:
            os.kill(os.getpid(), int(os.environ.get("SIG", "11")))
        if MODE == "emfile" and rank == FR and step == FS:
            for k in range(200):
                handles.append(open(f"/proc/self/status"))
        if MODE == "cgroup_oom" and rank == FR and step == FS:
            say("building in-memory feature cache")
            blobs = []
            for k in range(400):
                blobs.append(torch.ones(64 * 1024 * 1024 // 4))
        if MODE == "ulimit_oom" and rank == FR and step == FS:
            big = torch.empty(int(6e9) // 4)
        if MODE == "mismatch" and rank == FR and step == FS:
            t = torch.ones(7)
            dist.all_reduce(t)
        elif MODE == "mismatch" and step == FS:
            t = torch.ones(5)
            dist.all_reduce(t)
        if MODE == "mismatch_op" and step == FS:
            t = torch.ones(5)
            if rank == FR:
                dist.broadcast(t, src=0)
            else:
                dist.all_reduce(t)
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if MODE == "nan" and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}; aborting (non-finite loss guard)")
        if MODE == "diverge":
            for g in opt.param_groups:
                g["lr"] = g["lr"] * 3.0
        opt.zero_grad(); loss.backward(); opt.step()
        lt = loss.detach().clone(); dist.all_reduce(lt); lt /= world
        if MODE == "diverge" and lt.item() > 1e6:
            raise RuntimeError(f"loss {lt.item():.3e} exceeded divergence threshold 1e6 at step {step}")
        msg = f"step {step}/{STEPS} loss={lt.item():.4f} lr={opt.param_groups[0]['lr']:.3g} eval_error_rate=0.{rank}1 {(time.time()-t0)/(step+1):.2f}s/it"
        if pbar is not None:
            pbar.set_postfix(loss=f"{lt.item():.4f}"); pbar.update(1)
        if FMT != "tqdm" or rank == 0:
            if rank == 0 or FMT not in ("norank",):
                say(msg)
        if MODE == "warn" and step == 2:
            import warnings
            warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly", UserWarning)
            try:
                raise ConnectionError("metrics server http://metrics:9091 unreachable")
            except ConnectionError as e:
                say(f"WARNING: failed to push metrics ({e}); retrying in 0.5s", logging.WARNING)
                time.sleep(0.5)
                say("metrics push succeeded on retry 1")
        time.sleep(SLEEP)
        step += 1
    if pbar is not None:
        pbar.close()
    if MODE == "uneven":
        say(f"data exhausted after {step} steps")
    # evaluation
    say("running evaluation")
    with torch.no_grad():
        ev = torch.tensor([float(step)])
        if MODE == "eval_exc" and rank == FR:
            metrics = {"loss": 0.3}
            say(f"eval accuracy={metrics['accuracy']:.3f}")
        dist.all_reduce(ev)
    say(f"eval done: eval_loss=0.{rank+2}31 eval_error=0.0{rank}")
    # checkpoint
    if PHASE in ("ckpt",) or MODE.startswith("ckpt"):
        path = os.path.join(CKPT, f"step{step}")
        if rank == 0 or MODE == "ckpt_sharded":
            if MODE == "ckpt_timeout" and rank == 0:
                import concurrent.futures as cf
                ex = cf.ThreadPoolExecutor(1, thread_name_prefix="ckpt-writer")
                lock = threading.Lock(); lock.acquire()
                say(f"async checkpoint save to {path} started")
                fut = ex.submit(lambda: (lock.acquire(), torch.save(model.state_dict(), path + ".pt")))
                try:
                    fut.result(timeout=8)
                except cf.TimeoutError:
                    raise TimeoutError(f"async checkpoint save to {path} did not complete within 8s (writer thread stuck)") from None
            say(f"saving checkpoint to {path}")
            os.makedirs(path, exist_ok=True)
            fn = os.path.join(path, f"model_rank{rank}.pt" if MODE == "ckpt_sharded" else "model.pt")
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                        "pad": torch.zeros(int(os.environ.get("CKPT_PAD", "1000")))}, fn)
            say(f"checkpoint saved: {fn}")
        dist.barrier()
    if MODE == "shutdown_exc" and rank == FR:
        say("flushing metrics writer")
        raise BrokenPipeError(32, "Broken pipe: metrics sidecar socket /run/metrics.sock closed")
    dist.barrier()
    say("training complete")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
