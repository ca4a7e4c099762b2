#!/usr/bin/env python3
"""Tiny CPU/gloo training job with injectable failures. Configured by env vars:
MODE (failure), FR (failing rank), FS (failing step), STEPS, TO (pg timeout s), FMT (print|logging|json|tqdm|lightning|hf),
LOGALL (1: every rank logs), PFX (print rank prefix 1/0), CKPT (dir), PIDDIR, SPAWN (mp.spawn entry)."""
import os, sys, time, json, math, random, threading, queue, datetime, logging, ctypes, signal, warnings

import torch
import torch.nn as nn
import torch.distributed as dist

E = os.environ
MODE = E.get("MODE", "none")
FR = int(E.get("FR", "1"))
FS = int(E.get("FS", "12"))
STEPS = int(E.get("STEPS", "30"))
TO = int(E.get("TO", "20"))
FMT = E.get("FMT", "print")
LOGALL = E.get("LOGALL", "1") == "1"
PFX = E.get("PFX", "1") == "1"
CKPT = E.get("CKPT", "/tmp/r35ckpt")
STEP_SLEEP = float(E.get("STEP_SLEEP", "0.15"))

RANK = 0
WORLD = 1
_log = None
_bar_t0 = time.time()


def setup_log(rank):
    global _log
    if FMT == "logging":
        logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                            format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
        _log = logging.getLogger("train")


def log(msg, level="INFO", **kv):
    if not LOGALL and RANK != 0 and level == "INFO":
        return
    if FMT == "logging":
        getattr(_log, level.lower() if level != "WARN" else "warning")(msg)
    elif FMT == "json":
        d = {"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": level, "rank": RANK, "msg": msg}
        d.update(kv)
        print(json.dumps(d), flush=True)
    elif FMT == "hf":
        if "loss" in kv:
            print(f"{{'loss': {kv['loss']:.4f}, 'grad_norm': {kv.get('gn', 1.0):.4f}, 'learning_rate': 5e-05, 'epoch': {kv['step']/STEPS:.2f}}}", flush=True)
        else:
            print(f"[INFO|trainer.py:{2100 + len(msg)}] {datetime.datetime.now():%Y-%m-%d %H:%M:%S},{random.randint(100,999)} >> {msg}", flush=True)
    elif FMT == "lightning":
        if "loss" in kv:
            s = kv["step"]; n = STEPS
            pct = int(100 * s / n); filled = int(10 * s / n)
            el = time.time() - _bar_t0
            sys.stderr.write(f"\rEpoch 0:  {pct:3d}%|{'█'*filled}{' '*(10-filled)}| {s}/{n} [{int(el)//60:02d}:{int(el)%60:02d}<00:0{max(0,9-s//4)}, {s/max(el,1e-3):.2f}it/s, v_num=0, train_loss={kv['loss']:.3f}]")
            sys.stderr.flush()
        else:
            print(msg, flush=True)
    elif FMT == "tqdm":
        if "loss" in kv:
            s = kv["step"]; n = STEPS
            el = time.time() - _bar_t0
            sys.stderr.write(f"\rtrain:  {int(100*s/n):3d}%|{'#'*int(20*s/n):<20}| {s}/{n} [{int(el):02d}s, loss={kv['loss']:.4f}]")
            sys.stderr.flush()
        else:
            print(("[rank %d] " % RANK if PFX else "") + msg, flush=True)
    else:
        p = f"[rank {RANK}] " if PFX else ""
        lv = "" if level == "INFO" else level + ": "
        print(f"{p}{lv}{msg}", flush=True)


class ShardDataset(torch.utils.data.Dataset):
    def __init__(self, n, rank):
        self.n, self.rank = n, rank

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if MODE == "dl_bus" and self.rank == FR and i == FS * 4:
            os.kill(os.getpid(), signal.SIGBUS)
        if MODE == "dl_kill" and self.rank == FR and i == FS * 4:
            os.kill(os.getpid(), signal.SIGKILL)
        if MODE == "data_error" and self.rank == FR and i == FS * 4 + 1:
            line = '{"text": "the quick brown fox", "id": 18342, "meta": {"src": "cc-2024-10" "lang": "en"}}'
            json.loads(line)
        g = torch.Generator().manual_seed(i + 1000 * self.rank)
        x = torch.randn(16, generator=g)
        return x, x.sum(0, keepdim=True) * 0.1


def prefetch_worker(q, rank):
    # background prefetch thread (no rank prefix on its errors)
    i = 0
    while True:
        sample = {"input_ids": list(range(8))} if not (MODE == "bg_prefetch" and rank == FR and i == FS) else {"text": "raw"}
        toks = sample["input_ids"]
        q.put(torch.tensor(toks, dtype=torch.float32).repeat(2)[:16])
        i += 1


def metrics_worker(rank):
    import urllib.request
    time.sleep(1.0)
    urllib.request.urlopen("http://127.0.0.1:43997/api/v1/push", timeout=2)


def ckpt_writer(state, path, status):
    try:
        torch.save(state, path)
        status["ok"] = True
    except BaseException as e:
        status["err"] = e
        raise


def main(rank=None, world=None):
    global RANK, WORLD, _bar_t0
    if rank is None:
        rank = int(E.get("RANK", E.get("SLURM_PROCID", "0")))
        world = int(E.get("WORLD_SIZE", E.get("SLURM_NTASKS", "1")))
    RANK, WORLD = rank, world
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    setup_log(rank)
    if E.get("PIDDIR"):
        os.makedirs(E["PIDDIR"], exist_ok=True)
        with open(f"{E['PIDDIR']}/rank{rank}.pid", "w") as f:
            f.write(str(os.getpid()))
    if FMT == "lightning" and rank == 0:
        print("GPU available: False, used: False\nTPU available: False, using: 0 TPU cores\nHPU available: False, using: 0 HPUs", flush=True)
    if FMT == "lightning":
        print(f"Initializing distributed: GLOBAL_RANK: {rank}, MEMBER: {rank+1}/{world}", flush=True)

    if MODE == "import_missing" and (rank == FR or E.get("ALLRANKS")):
        log("building fused optimizer")
        import fused_adam_cuda  # noqa: F401
    if MODE in ("hub", "hub_all") and (rank == FR or MODE == "hub_all"):
        import urllib.request
        log("downloading tokenizer from http://127.0.0.1:43998/models/llama-tiny/tokenizer.json")
        urllib.request.urlopen("http://127.0.0.1:43998/models/llama-tiny/tokenizer.json", timeout=5)

    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=TO))
    log(f"initialized process group: rank {rank}/{world} backend=gloo")
    if FMT == "hf" and rank == 0:
        print("***** Running training *****\n  Num examples = 1,920\n  Num Epochs = 1\n  Instantaneous batch size per device = 4\n"
              f"  Total train batch size (w. parallel, distributed & accumulation) = {4*world}\n  Total optimization steps = {STEPS}", flush=True)
    if FMT == "lightning" and rank == 0:
        print("----------------------------------------------------------------------------------------------------\n"
              f"distributed_backend=gloo\nAll distributed processes registered. Starting with {world} processes\n"
              "----------------------------------------------------------------------------------------------------\n", flush=True)
        print("  | Name  | Type   | Params\n---------------------------------\n0 | model | Linear | 17    \n---------------------------------", flush=True)

    torch.manual_seed(0)
    hidden = 16
    if MODE == "shape" and rank == FR:
        hidden = 32
    model = nn.Sequential(nn.Linear(hidden, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=float(E.get("LR", "0.05")))

    if MODE == "ckpt_corrupt":
        p = f"{CKPT}/step_000400.pt"
        log(f"resuming from {p}")
        sd = torch.load(p)
    if MODE == "ckpt_keys":
        p = f"{CKPT}/step_000400.pt"
        log(f"resuming from {p}")
        sd = torch.load(p)
        model.load_state_dict(sd["model"])
    if MODE == "missing_file" and rank == FR:
        shard = f"/work/blind/r35/data/train-{rank:05d}-of-00004.bin"
        log(f"opening data shard {shard}")
        open(shard, "rb")
    if MODE == "emfile" and rank == FR:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        os.makedirs("/tmp/r35shards", exist_ok=True)
        fh = []
        for i in range(200):
            fh.append(open(f"/tmp/r35shards/shard-{i:04d}.idx", "w"))

    nsteps = STEPS
    if MODE == "early_exit" and rank == FR:
        nsteps = FS
    ds = ShardDataset(nsteps * 4, rank)
    nw = 2 if MODE in ("dl_bus", "dl_kill", "dl_any") else 0
    dl = torch.utils.data.DataLoader(ds, batch_size=4, num_workers=nw)
    it = iter(dl)

    q = None
    if MODE == "bg_prefetch":
        q = queue.Queue(maxsize=4)
        threading.Thread(target=prefetch_worker, args=(q, rank), name=f"prefetch-{0}", daemon=True).start()
    if MODE == "bg_metrics" and rank == 0:
        threading.Thread(target=metrics_worker, args=(rank,), name="metrics-pusher", daemon=True).start()
    if MODE == "healthy_warn":
        warnings.warn("torch.distributed._all_gather_base is a private function and will be deprecated. Please use torch.distributed.all_gather_into_tensor instead.", FutureWarning)
        warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`.", UserWarning)

    _bar_t0 = time.time()
    min_loss = 1e9
    writer = None
    wstatus = {}
    for step in range(1, nsteps + 1):
        t0 = time.time()
        if q is not None:
            xb = q.get(timeout=600)
            x = xb.unsqueeze(0).repeat(4, 1) / 10
            y = x.sum(1, keepdim=True) * 0.1
        else:
            x, y = next(it)
        if MODE == "shape" and rank == FR:
            x = torch.cat([x, x], 1)
        if MODE == "dtype" and rank == FR and step == FS:
            x = x.double()
        if MODE == "nan" and rank == FR and step == FS:
            x = x * float("nan")
        if MODE == "cpu_alloc" and rank == FR and step == FS:
            log("materializing activation cache for eval")
            torch.empty(5 * 10**12, dtype=torch.float32)
        if MODE == "memoryerror" and rank == FR and step == FS:
            buf = bytearray(10**14)
        if MODE == "oom_cgroup" and rank == FR and step == FS:
            cg = E["CGDIR"]
            with open(f"{cg}/cgroup.procs", "w") as f:
                f.write(str(os.getpid()))
            hog = []
            for _ in range(400):
                hog.append(torch.ones(2 * 10**6 * 16 // 4 * 4))
                time.sleep(0.005)
        if MODE == "sleep_hang" and rank == FR and step == FS:
            time.sleep(10**6)
        if MODE == "stuck_read" and rank == FR and step == FS:
            fifo = "/tmp/r35_fifo_%d" % os.getpid()
            os.mkfifo(fifo)
            with open(fifo, "rb") as f:
                f.read()
        if MODE == "deadlock" and rank == FR and step == FS:
            lk = threading.Lock()
            with lk:
                with lk:
                    pass
        if MODE in ("hang_all",) and step == FS:
            time.sleep(10**6)
        if MODE == "segv" and rank == FR and step == FS:
            ctypes.string_at(0)
        if MODE == "abort" and rank == FR and step == FS:
            os.abort()
        if MODE == "bus_main" and rank == FR and step == FS:
            os.kill(os.getpid(), signal.SIGBUS)
        if MODE == "diverge" and step == FS:
            for g in opt.param_groups:
                g["lr"] = 3.0
        out = model(x)
        loss = ((out - y) ** 2).mean()
        if MODE == "noisy":
            loss = loss + abs(random.gauss(0, 0.3))
        if not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}, stopping training")
        opt.zero_grad()
        loss.backward()
        gn = 0.0
        for p in model.parameters():
            if MODE == "mismatch_shape" and rank == FR and step == FS:
                dist.all_reduce(torch.zeros(p.grad.numel() + 3))
            elif MODE == "mismatch_op" and rank == FR and step == FS:
                dist.broadcast(p.grad, src=0)
            else:
                dist.all_reduce(p.grad)
            p.grad /= world
            gn += float(p.grad.norm()) ** 2
        opt.step()
        lv = float(loss)
        if MODE == "spike_recover" and FS <= step < FS + 3:
            lv = lv * 25 * (FS + 3 - step)  # a bad-batch spike in the reported loss that the run recovers from
        min_loss = min(min_loss, lv)
        if MODE == "diverge" and step > FS + 6 and lv > 50 * max(min_loss, 1e-3):
            raise RuntimeError(f"loss diverged: {lv:.3e} at step {step} (min {min_loss:.4f}); aborting to save compute")
        if step % int(E.get("LOGEVERY", "2")) == 0 or step == 1:
            log(f"step {step}/{nsteps} loss {lv:.4f} grad_norm {math.sqrt(gn):.3f} step_time {time.time()-t0+STEP_SLEEP:.3f}s",
                step=step, loss=lv, gn=math.sqrt(gn))
        if MODE == "healthy_retry" and rank == 1 and step == 9:
            log("fetching shard index from http://127.0.0.1:43996 failed: ConnectionRefusedError(111, 'Connection refused'); retrying in 1s (attempt 1/5)", level="WARNING")
            time.sleep(1)
            log("shard index fetched on attempt 2/5", level="INFO")
        if MODE == "healthy_exc" and rank == 0 and step == 10:
            try:
                {"a": 1}["eval_accuracy"]
            except KeyError:
                import traceback
                print("WARNING: eval callback failed, skipping eval for this step:", file=sys.stderr)
                traceback.print_exc()
        # checkpointing
        if step == int(E.get("SAVE_AT", "10")) and rank == 0 or (MODE in ("ckpt_full", "ckpt_ro") and step == FS and rank == FR):
            path = f"{CKPT}/step_{step:06d}.pt"
            log(f"saving checkpoint to {path}")
            state = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                     "pad": torch.zeros(int(E.get("CKPT_NUMEL", "1000")))}
            if MODE == "bg_ckpt" and rank == FR:
                writer = threading.Thread(target=ckpt_writer, args=(state, path, wstatus), name="ckpt-writer", daemon=True)
                writer.start()
            else:
                os.makedirs(CKPT, exist_ok=True)
                torch.save(state, path)
                log(f"saved checkpoint {path}")
        if MODE == "bg_ckpt" and rank == FR and writer is not None and step == int(E.get("SAVE_AT", "10")) + 4:
            writer.join()
            if "err" in wstatus:
                raise RuntimeError(f"async checkpoint save of step {E.get('SAVE_AT', '10')} failed; see ckpt-writer traceback above")
        time.sleep(STEP_SLEEP)
    if FMT in ("lightning", "tqdm"):
        sys.stderr.write("\n")
    if MODE == "early_exit" and rank == FR:
        log(f"epoch finished: no more batches in shard after {nsteps} steps")
        sys.exit(0)
    dist.barrier()
    if FMT == "lightning" and rank == 0:
        print("`Trainer.fit` stopped: `max_steps=%d` reached." % STEPS, flush=True)
    if FMT == "hf" and rank == 0:
        print("\n\nTraining completed. Do not forget to share your model on huggingface.co/models =)\n\n", flush=True)
    log("training finished")
    dist.destroy_process_group()


def spawn_entry(rank, world):
    os.environ["RANK"] = str(rank)
    main(rank, world)


if __name__ == "__main__":
    if E.get("SPAWN"):
        import torch.multiprocessing as mp
        world = int(E["SPAWN"])
        mp.spawn(spawn_entry, args=(world,), nprocs=world, join=True)
    else:
        main()
