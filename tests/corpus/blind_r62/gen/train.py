# Tiny DDP trainer (CPU/gloo) with optional fault injection, used to make the r62 runs.
import os, sys, time, json, datetime, signal, threading, logging, queue, random
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

E = os.environ.get
FAULT = E("FAULT", "none"); FR = int(E("FAULT_RANK", "-1")); FS = int(E("FAULT_STEP", "5"))
STEPS = int(E("STEPS", "20")); FMT = E("FMT", "prefix"); TO = float(E("TO", "15"))
SLEEP = float(E("STEP_SLEEP", "0.15")); CKPT = E("CKPT_DIR", ""); CKPT_EVERY = int(E("CKPT_EVERY", "0"))
EVAL_EVERY = int(E("EVAL_EVERY", "0")); LR = float(E("LR", "0.05"))

rank = 0; world = 1; logger = None

def log(msg, level="INFO", **kw):
    if FMT == "prefix":
        print(f"[rank{rank}] {msg}", flush=True)
    elif FMT == "plain":
        print(msg, flush=True)
    elif FMT == "json":
        d = {"ts": round(time.time(), 3), "level": level, "rank": rank, "msg": msg}; d.update(kw)
        print(json.dumps(d), flush=True)
    elif FMT == "logging":      # logging without the rank in the format
        getattr(logger, level.lower())(msg)
    elif FMT == "logging_rank":
        getattr(logger, level.lower())(msg)
    elif FMT == "rank0":        # only rank 0 talks (typical)
        if rank == 0:
            print(msg, flush=True)

def fault_here(step, phase="train"):
    if FAULT == "none": return False
    if FR >= 0 and rank != FR: return False
    return step == FS and E("FAULT_PHASE", "train") == phase

def do_fault(step):
    f = FAULT
    if f == "sleep":
        time.sleep(3600)
    elif f == "read":
        r, w = os.pipe(); os.read(r, 1)            # blocks forever, no writer ever writes
    elif f == "fifo":
        p = f"/tmp/r62_fifo_{os.getpid()}"; os.mkfifo(p); open(p).read()
    elif f == "lock":
        lk = threading.Lock(); lk.acquire(); lk.acquire()
    elif f == "spin":
        x = 0
        while True: x += 1
    elif f == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif f == "cgroup_oom":
        cg = E("OOM_CG")
        with open(os.path.join(cg, "cgroup.procs"), "w") as fh: fh.write(str(os.getpid()))
        hog = []
        while True:
            hog.append(torch.ones(8 * 1024 * 1024))   # 32 MB a piece, until the cgroup limit kills us
    elif f == "segv":
        import ctypes; ctypes.string_at(0)
    elif f == "abort":
        os.abort()
    elif f == "exit0":
        sys.exit(0)
    elif f == "mismatch":
        dist.all_reduce(torch.zeros(7))
    elif f == "mismatch_op":
        dist.broadcast(torch.zeros(5), src=0 if rank != 0 else 1)
    elif f == "shape":
        m = nn.Linear(32, 16); m(torch.randn(8, 24))
    elif f == "dtype":
        torch.randn(4, 4).mm(torch.randn(4, 4, dtype=torch.float64))
    elif f == "fdleak":
        hs = []
        for i in range(100000):
            hs.append(open(f"/work/blind/r62/gen/train.py"))
    elif f == "memerr":
        torch.empty(int(E("MEMERR_N", str(1 << 37))), dtype=torch.uint8).fill_(1)
    elif f == "keyerror":
        cfg = {"lr": 0.1}; cfg["warmup_steps"]
    elif f == "badjson":
        path = E("DATA_FILE")
        log(f"opening next shard {path}")
        with open(path) as fh:
            for ln, line in enumerate(fh, 1):
                rec = json.loads(line)
                if "text" not in rec:
                    raise KeyError(f"record {ln} of {path} has no 'text' field")
    elif f == "transient":
        mk = os.path.join(CKPT, ".transient_done")
        if not os.path.exists(mk):
            open(mk, "w").close()
            raise ConnectionResetError(104, "Connection reset by peer (metrics push to http://10.0.3.7:9091)")
    elif f == "assert":
        assert step < 0, f"sanity check failed: step {step} grad norm not finite on rank {rank}"

def main():
    global rank, world, logger
    if "SLURM_PROCID" in os.environ and "RANK" not in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]; os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    if FMT == "logging":
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stdout)
    elif FMT == "logging_rank":
        logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [RANK {rank}] %(levelname)s %(name)s: %(message)s", stream=sys.stdout)
    logger = logging.getLogger("trainer")
    if E("IMPORT_EXT"):
        log(f"loading fused optimizer extension {E('IMPORT_EXT')}")
        __import__(E("IMPORT_EXT"))
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=TO))
    log(f"initialized process group: rank {rank}/{world} backend=gloo pid={os.getpid()} host={os.uname().nodename}")
    if FAULT == "hub" and (FR < 0 or rank == FR):
        from transformers import AutoTokenizer
        log("downloading tokenizer bert-base-uncased")
        AutoTokenizer.from_pretrained(E("HUB_MODEL", "bert-base-uncased"))
    if FAULT == "hub":
        dist.barrier()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    start = 0
    resume = E("RESUME")
    if resume == "latest" and CKPT:
        cands = sorted((f for f in os.listdir(CKPT) if f.startswith("ckpt_step")), key=lambda f: int(f[9:].split(".")[0].split("_")[0]))
        resume = cands[-1] if cands else None
        if not resume: log("no checkpoint found, starting from scratch")
    if resume and CKPT:
        path = os.path.join(CKPT, resume)
        log(f"resuming from {path}")
        sd = torch.load(path, map_location="cpu", weights_only=True)
        model.module.load_state_dict(sd["model"]); start = sd.get("step", 0)
        log(f"resumed at step {start}")
    scaler = None
    if E("SCALER"):
        scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 16, growth_interval=int(E("GROWTH", "2000")))
    g = torch.Generator().manual_seed(1234 + rank)
    nsteps = STEPS
    if FAULT == "uneven" and rank == FR:
        nsteps = FS   # this rank's shard is shorter
        log(f"dataset shard has {nsteps * 8} samples ({nsteps} batches)")
    elif FAULT == "uneven":
        log(f"dataset shard has {nsteps * 8} samples ({nsteps} batches)")
    if FAULT == "thread" and rank == FR:
        q = queue.Queue(maxsize=4)
        def prefetch():
            for i in range(10**6):
                if i == FS + 1:
                    raise ValueError(f"corrupt record at offset {i * 4096}: expected 33 floats, got 31")
                q.put(torch.randn(8, 33, generator=torch.Generator().manual_seed(i)))
        threading.Thread(target=prefetch, name="prefetcher", daemon=True).start()
    loader_it = None
    if E("DL"):
        class DS(torch.utils.data.Dataset):
            def __len__(self): return nsteps * 8
            def __getitem__(self, i):
                if FAULT.startswith("dl_") and rank == FR and i == FS * 8 + 3:
                    if FAULT == "dl_segv":
                        import ctypes; ctypes.string_at(0)
                    elif FAULT == "dl_bus":
                        import mmap
                        fn = f"/dev/shm/r62_batch_{os.getpid()}"
                        with open(fn, "wb") as fh: fh.write(b"\0" * 65536)
                        fh = open(fn, "r+b"); mm = mmap.mmap(fh.fileno(), 65536)
                        os.truncate(fn, 0); os.unlink(fn)
                        mm[40000]                      # SIGBUS: the shared-memory file shrank under us
                    elif FAULT == "dl_kill":
                        os.kill(os.getpid(), signal.SIGKILL)
                gg = torch.Generator().manual_seed(i * 100 + rank)
                x = torch.randn(32, generator=gg); return x, x[:1] * 2
        loader_it = iter(torch.utils.data.DataLoader(DS(), batch_size=8, num_workers=int(E("DL")), shuffle=False))
    loss_hist = []
    t0 = time.time()
    for step in range(start, nsteps):
        if fault_here(step):
            do_fault(step)
        if FAULT == "thread" and rank == FR:
            b = q.get(); x, y = b[:, :32], b[:, 32:]
        elif loader_it is not None:
            x, y = next(loader_it)
        else:
            x = torch.randn(8, 32, generator=g); y = x[:, :1] * 2 + 0.1 * torch.randn(8, 1, generator=g)
        if FAULT in ("nan", "nan_all") and step >= FS and (FR < 0 or rank == FR):
            x[0, 0] = float("inf")
        lr_scale = 1.0
        if FAULT == "diverge" and step >= FS:
            lr_scale = 1.6 ** (step - FS + 1)
            for pg in opt.param_groups: pg["lr"] = LR * lr_scale
        out = model(x); loss = nn.functional.mse_loss(out, y)
        opt.zero_grad()
        if scaler is not None:
            overflow_inject = (FAULT == "scaler_warm" and step < FS) or (FAULT == "scaler_collapse" and step >= FS)
            scaler.scale(loss * (float("inf") if overflow_inject else 1.0)).backward()
            scaler.step(opt); scaler.update()
            sc = scaler.get_scale()
            if overflow_inject or step % 5 == 0:
                log(f"step {step} loss {loss.item():.4f} loss_scale {sc:.1f}" + (" (overflow, skipped step)" if overflow_inject else ""), step=step)
            if sc < float(E("MIN_SCALE", "1e-4")):
                log(f"loss scale {sc} below minimum, training cannot continue", "ERROR")
                raise RuntimeError(f"Current loss scale already at minimum - cannot decrease scale anymore. Exiting run. (scale={sc})")
        else:
            loss.backward()
            opt.step()
        lv = loss.item()
        if FAULT in ("nan", "nan_all") and not torch.isfinite(loss):
            log(f"step {step} loss {lv}", "ERROR", step=step, loss=str(lv))
            raise FloatingPointError(f"Loss is {lv} at step {step}, stopping training")
        loss_hist.append(lv)
        if scaler is None:
            if FMT == "json":
                log(f"step {step}", step=step, loss=round(lv, 5), lr=LR * lr_scale)
            else:
                log(f"step {step}/{nsteps} loss {lv:.4f} lr {LR * lr_scale:.4g} ({time.time() - t0:.1f}s)")
        if FAULT == "diverge" and lv > 100 * min(loss_hist) and step > FS + 3:
            log(f"loss diverged: {lv:.3e} (best {min(loss_hist):.4f}); aborting", "ERROR")
            raise RuntimeError(f"Training diverged at step {step}: loss {lv:.3e}")
        if EVAL_EVERY and (step + 1) % EVAL_EVERY == 0:
            log(f"running evaluation after step {step}")
            if fault_here(step, "eval"):
                do_fault(step)
            with torch.no_grad():
                vl = nn.functional.mse_loss(model(torch.randn(16, 32, generator=g)), torch.zeros(16, 1))
            t = torch.tensor([vl.item()]); dist.all_reduce(t)
            log(f"eval loss {t.item() / world:.4f}")
        if CKPT and CKPT_EVERY and (step + 1) % CKPT_EVERY == 0:
            if fault_here(step, "ckpt"):
                do_fault(step)
            if rank == 0 or E("CKPT_ALL"):
                p = os.path.join(CKPT, f"ckpt_step{step + 1}" + (f"_rank{rank}" if E("CKPT_ALL") else "") + ".pt")
                log(f"saving checkpoint to {p}")
                obj = {"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step + 1,
                       "pad": torch.zeros(int(E("CKPT_PAD", "0")))}
                if E("CKPT_FOBJ"):
                    with open(p, "wb") as fh:
                        torch.save(obj, fh)
                else:
                    torch.save(obj, p)
                log(f"saved checkpoint {p}")
            dist.barrier()
        time.sleep(SLEEP)
    log(f"finished {nsteps} steps in {time.time() - t0:.1f}s")
    if fault_here(nsteps, "shutdown"):
        do_fault(nsteps)
    if FAULT != "uneven":
        dist.barrier()
    dist.destroy_process_group()
    log("done")

if __name__ == "__main__":
    if E("RECORD"):
        from torch.distributed.elastic.multiprocessing.errors import record
        main = record(main)
    main()
