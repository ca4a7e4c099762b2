# Tiny DDP trainer (CPU, gloo) with optional fault injection via env FAULT / FAULT_RANK / FAULT_STEP.
import os, sys, time, json, math, datetime, logging, threading, warnings, ctypes, signal
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

FAULT = os.environ.get("FAULT", "none")
FR = int(os.environ.get("FAULT_RANK", "-1"))
FS = int(os.environ.get("FAULT_STEP", "5"))
STEPS = int(os.environ.get("STEPS", "20"))
FMT = os.environ.get("LOGFMT", "plain")  # plain | logging | json | rankless
TIMEOUT = int(os.environ.get("PG_TIMEOUT", "20"))
CKPT = os.environ.get("CKPT_DIR", "/tmp/ckpt63")


def setup_env_from_slurm():
    if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]
        os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")


def main(rank=None, world=None):
    if rank is not None:
        os.environ["RANK"] = str(rank); os.environ["WORLD_SIZE"] = str(world); os.environ["LOCAL_RANK"] = str(rank)
    setup_env_from_slurm()
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    if FMT == "logging":
        logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [%(levelname)s] [rank{rank}] %(name)s: %(message)s")
    elif FMT == "rankless":
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s - %(message)s")
    log = logging.getLogger("trainer")

    def say(msg, **kw):
        if FMT == "json":
            print(json.dumps({"ts": round(time.time(), 3), "rank": rank, "msg": msg, **kw}), flush=True)
        elif FMT in ("logging", "rankless"):
            log.info(msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())))
        else:
            print(f"[rank {rank}] {msg}" + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())), flush=True)

    if FAULT == "bad_iface" and rank == FR:
        os.environ["GLOO_SOCKET_IFNAME"] = "ib0"
    if FAULT == "fd_limit" and rank == FR:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    if FAULT == "ext_import":
        sys.path.insert(0, os.environ["EXT_DIR"])
        say("using fused optimizer kernels from fused_adam_ext")
        import fused_adam_ext
    say(f"initializing process group backend=gloo world_size={world}")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=TIMEOUT))
    torch.manual_seed(0)
    dim = 32 if not (FAULT == "ckpt_load_mismatch") else 32
    model = nn.Sequential(nn.Linear(16, dim), nn.ReLU(), nn.Linear(dim, 1))
    if FAULT == "warnings":
        warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) instead.", FutureWarning)
        warnings.warn("The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible.", UserWarning)
    if FAULT == "ckpt_load_mismatch" and rank == 0:
        say(f"resuming from {CKPT}/last.pt")
        sd = torch.load(f"{CKPT}/last.pt")
        model.load_state_dict(sd["model"])
    if FAULT == "ckpt_corrupt":
        say(f"loading shard {CKPT}/shard_rank{rank}.pt")
        sd = torch.load(f"{CKPT}/shard_rank{rank}.pt")
        model.load_state_dict(sd)
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("LR", "0.05")))
    g = torch.Generator().manual_seed(rank)
    nsteps = STEPS
    if FAULT == "uneven" and rank == FR:
        nsteps = FS
    if FAULT == "bg_thread" and rank == FR:
        import queue
        q = queue.Queue()
        def metrics_worker():
            for i in range(3):
                time.sleep(0.5)
                q.put({"gpu_util": 0.0, "i": i})
            stats = {"tokens": 100}
            rate = stats["tokens_per_sec"]  # KeyError in background thread
        threading.Thread(target=metrics_worker, name="metrics-reporter").start()
    if FAULT == "oom_cgroup" and rank == FR:
        pass
    scaler = None
    if FAULT in ("gradscaler_recover", "scale_collapse"):
        scaler = torch.amp.GradScaler("cpu", init_scale=2.0**16 if FAULT == "scale_collapse" else 1024.0, growth_interval=5)
    dl_iter = None
    if FAULT == "dl_shm":
        class DS(torch.utils.data.Dataset):
            def __len__(self): return 10000
            def __getitem__(self, i):
                return torch.randn(8, 16), torch.zeros(256, 1024)  # image-like side tensor (1 MB)
        dl_iter = iter(torch.utils.data.DataLoader(DS(), batch_size=1, num_workers=2))
    for step in range(nsteps):
        t0 = time.time()
        x = torch.randn(8, 16, generator=g)
        if dl_iter is not None:
            x = next(dl_iter)[0][0]
        y = x.sum(1, keepdim=True)
        if FAULT == "nan_data" and rank == FR and step == FS:
            x[3, 7] = float("inf")
        if FAULT == "dtype" and rank == FR and step == FS:
            x = x.double()
        if FAULT == "shape" and rank == FR and step == FS:
            x = torch.randn(8, 12, generator=g)
        if FAULT == "hang_sleep" and rank == FR and step == FS:
            time.sleep(3600)
        if FAULT == "deadlock" and rank == FR and step == FS:
            a, b = threading.Lock(), threading.Lock()
            def other():
                with b:
                    time.sleep(0.2)
                    with a:
                        pass
            threading.Thread(target=other, daemon=True).start()
            with a:
                time.sleep(0.2)
                with b:
                    pass
        if FAULT == "spin" and rank == FR and step == FS:
            while True:
                pass
        if FAULT == "once_crash" and rank == FR and step == FS and not os.path.exists("/tmp/flag63_once"):
            open("/tmp/flag63_once", "w").close()
            raise ConnectionError("Transient failure reading shard s3://bucket/train-00017.bin: connection reset")
        if FAULT == "segv" and rank == FR and step == FS:
            ctypes.string_at(0)
        if FAULT == "abort" and rank == FR and step == FS:
            os.abort()
        if FAULT == "selfkill" and rank == FR and step == FS:
            os.kill(os.getpid(), signal.SIGKILL)
        if FAULT == "oom_cgroup" and rank == FR and step == FS:
            say("building eval cache")
            cache = []
            for i in range(400):
                cache.append(torch.ones(256, 1024, 1024, dtype=torch.uint8))  # 256 MB each
        if FAULT == "alloc_fail" and rank == FR and step == FS:
            big = torch.empty(int(6e9), dtype=torch.float32)
        if FAULT == "mismatch" and rank == FR and step == FS:
            dist.all_reduce(torch.ones(7))
        if FAULT == "mismatch_op" and rank == FR and step == FS:
            dist.broadcast(torch.ones(3), src=0)
        if FAULT == "fd_limit" and rank == FR and step == FS:
            handles = []
            for i in range(200):
                handles.append(open(f"/tmp/shardcache63_{rank}_{i}.bin", "wb"))
        if FAULT == "keyerror" and rank == FR and step == FS:
            batch_meta = {"input_ids": x, "labels": y}
            _ = batch_meta["attention_mask"]
        if FAULT == "device" and rank == FR and step == FS:
            with torch.no_grad():
                emb = torch.empty(16, 4, device="meta")
                _ = x @ emb
        if FAULT == "diverge" and step >= FS:
            for pg in opt.param_groups:
                pg["lr"] = 0.05 * (3.0 ** (step - FS + 1))
        if FAULT == "bg_thread" and rank == FR and step == FS:
            while True:
                item = q.get()
                if "tokens_per_sec" in item:
                    break
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if FAULT == "gradscaler_recover" and step in (3, 4, 11):
            loss = loss * float("inf")
        if FAULT == "scale_collapse":
            loss = loss * 1e38 * 1e38
        if FAULT in ("nan_data",) and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}; aborting (set skip_nonfinite=True to skip)")
        if FAULT == "diverge":
            if loss.item() > 1e8 or not math.isfinite(loss.item()):
                raise RuntimeError(f"Training diverged: loss={loss.item():.4e} at step {step} exceeds divergence threshold 1e8")
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(opt)
            old = scaler.get_scale()
            scaler.update()
            new = scaler.get_scale()
            if new < old:
                say(f"Gradient overflow. Skipping step, loss scale reduced {old} -> {new}", step=step)
            if new < 1e-4:
                raise RuntimeError(f"Current loss scale already at minimum {new}: cannot decrease scale anymore. Exiting run.")
        else:
            loss.backward()
            opt.step()
        dist.all_reduce(l := loss.detach().clone())
        l /= world
        if FAULT == "retry" and step in (4, 9):
            for attempt in range(1, 4):
                try:
                    if attempt < 3:
                        raise ConnectionResetError(104, "Connection reset by peer")
                    say(f"fetch shard {step} ok", attempt=attempt)
                    break
                except ConnectionResetError as e:
                    say(f"WARNING: fetching shard {step} failed ({e}); retrying in 0.2s", attempt=attempt)
                    time.sleep(0.2)
        say(f"step {step}/{STEPS}", loss=f"{l.item():.4f}", step_time=f"{time.time()-t0:.3f}s")
        if FAULT == "long":
            time.sleep(0.05)
        else:
            time.sleep(0.2)
        if (step + 1) % int(os.environ.get("SAVE_EVERY", "1000000")) == 0:
            if rank == 0:
                path = f"{CKPT}/step{step+1}.pt"
                say(f"saving checkpoint to {path}")
                if FAULT == "ckpt_writer_hang":
                    pass
                if FAULT == "ckpt_async_timeout":
                    import concurrent.futures as cf
                    ex = cf.ThreadPoolExecutor(1, thread_name_prefix="ckpt-writer")
                    sd = {k: v.clone() for k, v in model.state_dict().items()}
                    fut = ex.submit(torch.save, sd, path)
                    try:
                        fut.result(timeout=10)
                    except cf.TimeoutError:
                        say("async checkpoint writer did not finish within 10s")
                        raise TimeoutError(f"Async checkpoint save to {path} timed out after 10s (writer thread still running)")
                else:
                    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step + 1}, path)
                    say(f"saved checkpoint {path}")
            dist.barrier()
    if FAULT == "eval_keyerror" and rank == FR:
        metrics = {"loss": 0.1}
        say("running evaluation")
        print(metrics["accuracy"])
    say("training finished")
    dist.barrier()
    if FAULT == "shutdown_err" and rank == FR:
        raise RuntimeError("Failed to upload final metrics: summary writer was already closed")
    dist.destroy_process_group()


if __name__ == "__main__":
    if os.environ.get("SPAWN"):
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29631")
        n = int(os.environ["SPAWN"])
        mp.spawn(main, args=(n,), nprocs=n)
    else:
        main()
