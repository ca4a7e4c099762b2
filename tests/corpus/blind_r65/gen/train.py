# Tiny DDP training with fault injection controlled by env vars (gloo, CPU).
import os, sys, time, json, datetime, signal, threading, queue, logging, math
import torch, torch.nn as nn, torch.distributed as dist

FAULT = os.environ.get("FAULT", "none"); FRANK = int(os.environ.get("FRANK", "-1"))
FSTEP = int(os.environ.get("FSTEP", "5")); STEPS = int(os.environ.get("STEPS", "20"))
FMT = os.environ.get("LOGFMT", "prefix"); TMO = int(os.environ.get("GLOO_TMO", "20"))
STEP_SLEEP = float(os.environ.get("STEP_SLEEP", "0.2")); CKPT = os.environ.get("CKPT", "/tmp/r65ckpt")
LR = float(os.environ.get("LR", "0.05"))

def env_rank():
    for k in ("RANK", "SLURM_PROCID"):
        if k in os.environ: return int(os.environ[k])
    return 0
def env_world():
    for k in ("WORLD_SIZE", "SLURM_NTASKS"):
        if k in os.environ: return int(os.environ[k])
    return 1

rank = env_rank(); world = env_world()
host = os.uname().nodename
if FMT == "logging":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log_ = logging.getLogger("trainer")
    def log(msg): log_.info(msg)
elif FMT == "logging_rank":
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [rank{rank}] %(levelname)s: %(message)s")
    log_ = logging.getLogger("trainer")
    def log(msg): log_.info(msg)
elif FMT == "json":
    def log(msg, **kw):
        print(json.dumps({"ts": round(time.time(), 3), "rank": rank, "host": host, "msg": msg, **kw}), flush=True)
elif FMT == "plain":
    def log(msg): print(msg, flush=True)
else:
    def log(msg): print(f"[rank{rank}] {msg}", flush=True)

def fault_here(step):
    return FAULT != "none" and (FRANK < 0 or FRANK == rank) and step == FSTEP

def inject(kind):
    if kind == "hang":            # silent culprit: blocks, prints nothing
        time.sleep(100000)
    elif kind == "spin":
        while True: pass
    elif kind == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif kind == "segv":
        import ctypes; ctypes.string_at(0)
    elif kind == "abort":
        os.abort()
    elif kind == "sigbus":
        os.kill(os.getpid(), signal.SIGBUS)
    elif kind == "exit0":
        log("no more batches on this shard, finishing"); sys.exit(0)
    elif kind == "raise":
        raise RuntimeError(os.environ.get("FMSG", "unexpected value in batch"))
    elif kind == "keyerror":
        d = {"input_ids": [1, 2]}; d["labels"]
    elif kind == "memhog":
        bufs = []
        while True: bufs.append(torch.ones(256 * 1024 * 1024 // 4))
    elif kind == "cuda":
        torch.zeros(1, device="cuda")
    elif kind == "dtype":
        torch.randn(4, 8) @ torch.randn(8, 4, dtype=torch.float64)
    elif kind == "shape":
        nn.Linear(16, 8)(torch.randn(4, 12))
    elif kind == "device":
        torch.randn(4, device="meta").add_(torch.randn(4)).sum().item()
    elif kind == "import":
        import flash_attn_2_cuda  # noqa
    elif kind == "emfile":
        fs = []
        while True: fs.append(open(__file__))

def prefetch_worker(q):
    # background tokenization thread
    for i in range(1000):
        if FAULT == "thread" and rank == FRANK and i == FSTEP:
            sample = {"text": "hello", "ids": None}
            n = len(sample["ids"])  # bad sample
        q.put(torch.randn(8, 16)); 

class DS(torch.utils.data.Dataset):
    def __len__(self): return 10000
    def __getitem__(self, i):
        if FAULT == "workerbus" and rank == FRANK and i >= FSTEP * 8:
            os.kill(os.getpid(), signal.SIGBUS)
        return torch.randn(16)

def setup():
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=TMO))

def on_term(signum, frame):
    log(f"received signal {signum}, writing emergency checkpoint and exiting")
    sys.exit(143)

def main():
    torch.manual_seed(0)
    if os.environ.get("HANDLE_TERM"): signal.signal(signal.SIGTERM, on_term)
    if os.environ.get("WARNINGS"):
        import warnings
        warnings.warn("torch.utils._pytree._register_pytree_node is deprecated. Please use torch.utils._pytree.register_pytree_node instead.", FutureWarning)
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support non-writable tensors.", UserWarning)
    if FAULT == "restart_once" and rank == FRANK and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
        time.sleep(3); raise ConnectionError("transient: failed to fetch shard index from data server (attempt 1)")
    if FAULT == "startup" and (FRANK < 0 or FRANK == rank): inject(os.environ.get("FKIND", "raise"))
    setup()
    log(f"initialized rank {rank}/{world} on {host} pid {os.getpid()}")
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=LR)
    g = torch.Generator().manual_seed(rank)
    if FAULT in ("resume_corrupt", "resume_mismatch"):
        path = f"{CKPT}/rank{rank}.pt"
        log(f"resuming from {path}")
        sd = torch.load(path, weights_only=True)
        model.load_state_dict(sd["model"])
        log("resumed")
    if FAULT == "hub" and rank == 0:
        from transformers import AutoTokenizer
        log("loading tokenizer")
        tok = AutoTokenizer.from_pretrained("bert-base-uncased")
    if FAULT == "emfile" and rank == FRANK:
        import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    if FAULT == "hub" or FAULT == "emfile":
        shards = []
        for i in range(100):
            shards.append(open(os.path.join(CKPT, f"shard{i:03d}.idx")))
        log(f"opened {len(shards)} shards")
        dist.barrier()
    if FAULT == "rlimit_oom" and rank == FRANK:
        import resource; resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))
    q = None
    if FAULT == "thread":
        q = queue.Queue(maxsize=4); threading.Thread(target=prefetch_worker, args=(q,), daemon=True, name="prefetch").start()
    it = None
    if FAULT in ("workerbus",) or os.environ.get("WORKERS"):
        it = iter(torch.utils.data.DataLoader(DS(), batch_size=8, num_workers=2))
    nsteps = STEPS
    if FAULT == "uneven" and rank == FRANK: nsteps = FSTEP
    for step in range(nsteps):
        if fault_here(step) and FAULT not in ("ckpt_fifo", "ckpt_full", "mismatch", "mismatch_op", "uneven", "nan", "diverge"):
            inject(os.environ.get("FKIND", FAULT) if FAULT == "inject" else FAULT)
        if FAULT == "rlimit_oom" and rank == FRANK and step == FSTEP:
            acts = [torch.empty(512 * 1024 * 1024 // 4).fill_(1.0) for _ in range(12)]
        if q is not None: x = q.get()
        elif it is not None: x = next(it)
        else: x = torch.randn(8, 16, generator=g)
        y = x.sum(1, keepdim=True) * 0.1
        if FAULT == "nan" and rank == FRANK and step >= FSTEP: x[0, 0] = float("inf")
        loss = ((ddp(x) - y) ** 2).mean()
        if FAULT == "diverge" and step >= FSTEP:
            for pg in opt.param_groups: pg["lr"] = LR * 40
        if not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}, stopping training")
        if FAULT == "diverge" and loss.item() > 1e4:
            raise RuntimeError(f"loss diverged: {loss.item():.3e} at step {step} (threshold 1e4)")
        opt.zero_grad(); loss.backward(); opt.step()
        if FAULT == "mismatch" and step == FSTEP:
            t = torch.ones(4 if rank != FRANK else 7)
            dist.all_reduce(t)
        if FAULT == "mismatch_op" and step == FSTEP:
            t = torch.ones(4)
            if rank == FRANK: dist.broadcast(t, src=0)
            else: dist.all_reduce(t)
        if FMT == "json": log("train_step", step=step, loss=round(loss.item(), 5))
        else: log(f"step {step} loss {loss.item():.5f}")
        if FAULT in ("ckpt_fifo", "ckpt_full") and step == FSTEP:
            if rank == 0:
                path = CKPT if FAULT == "ckpt_full" else os.environ.get("CKPT_PATH", CKPT)
                log(f"saving checkpoint to {path}")
                torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, path)
                log("checkpoint saved")
            dist.barrier()
        time.sleep(STEP_SLEEP)
    dist.barrier()
    log("training done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
