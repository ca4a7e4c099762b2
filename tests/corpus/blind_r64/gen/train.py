"""Tiny DDP trainer used for every plain-PyTorch run. Faults are selected by env vars (FAULT, FAULT_RANK, FAULT_STEP)."""
import os, sys, time, json, math, datetime, logging, threading, signal, ctypes, mmap, queue
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed.elastic.multiprocessing.errors import record

E = os.environ.get
FAULT = E("FAULT", "none"); FR = int(E("FAULT_RANK", "-1")); FS = int(E("FAULT_STEP", "5"))
STEPS = int(E("STEPS", "20")); TMO = int(E("TMO", "15")); FMT = E("LOGFMT", "plain")
CKPT = E("CKPT_DIR", "/tmp/b64/ckpt"); CKEVERY = int(E("CKPT_EVERY", "0")); EVAL_EVERY = int(E("EVAL_EVERY", "0"))
LR = float(E("LR", "0.05"))
if E("FAULT_ATTEMPT") is not None and E("TORCHELASTIC_RESTART_COUNT", "0") != E("FAULT_ATTEMPT"):
    FAULT = E("FAULT2", "none"); FR = int(E("FAULT2_RANK", str(FR))); FS = int(E("FAULT2_STEP", str(FS)))
STEP_SLEEP = float(E("STEP_SLEEP", "0"))

def setup_log(rank, world):
    if FMT == "logging":
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    elif FMT == "logging_rank":
        logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [rank{rank}] %(levelname)s: %(message)s")
    log = logging.getLogger("trainer")
    def out(msg, **kv):
        if FMT == "json":
            d = {"ts": round(time.time(), 3), "rank": rank, "msg": msg}; d.update(kv); print(json.dumps(d), flush=True)
        elif FMT.startswith("logging"):
            log.info(msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())))
        elif FMT == "prefix":
            print(f"[rank{rank}]: {msg}" + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())), flush=True)
        else:
            print(msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())), flush=True)
    return out

class Net(nn.Module):
    def __init__(self, width=int(E("WIDTH", "32"))):
        super().__init__()
        self.l1 = nn.Linear(16, width); self.l2 = nn.Linear(width, 1)
    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))

def fault_here(rank, step, kind):
    return FAULT == kind and (FR < 0 or rank == FR) and step == FS

def do_native(kind):
    if kind == "segv":
        ctypes.string_at(0)
    elif kind == "abort":
        os.abort()
    elif kind == "sigbus":
        p = f"/tmp/b64/bus_{os.getpid()}.bin"
        with open(p, "wb") as f: f.write(b"\0" * 8192)
        f = open(p, "r+b"); m = mmap.mmap(f.fileno(), 8192); os.truncate(p, 0); m[4096]  # touch a page past EOF
    elif kind == "kill9":
        os.kill(os.getpid(), signal.SIGKILL)

class DS(torch.utils.data.Dataset):
    def __init__(self, rank): self.rank = rank
    def __len__(self): return 100000
    def __getitem__(self, i):
        if FAULT == "dl_bus" and self.rank == FR and i == FS * 8 + 3:
            do_native("sigbus")
        gg = torch.Generator().manual_seed(i); x = torch.randn(16, generator=gg); return x, x.sum(0, keepdim=True)

@record
def main(rank=None, world=None):
    if rank is None:
        rank = int(E("RANK", E("SLURM_PROCID", "0"))); world = int(E("WORLD_SIZE", E("SLURM_NTASKS", "1")))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29611")
    out = setup_log(rank, world)
    if FAULT == "ifname" and rank == FR:
        os.environ["GLOO_SOCKET_IFNAME"] = E("BAD_IFNAME", "ib0")
    if FAULT == "cgroup_oom" and rank == FR:
        with open(E("CGROUP") + "/cgroup.procs", "w") as f: f.write(str(os.getpid()))
    out(f"starting rank {rank}/{world} pid={os.getpid()} host={os.uname().nodename}")
    if FAULT == "missing_dep":
        import apex.normalization  # noqa: fused layernorm
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=TMO))
    out("process group initialized", backend="gloo", world_size=world)
    torch.manual_seed(0)
    model = Net()
    if FAULT == "load_mismatch" and rank == FR:
        sd = torch.load(E("RESUME"), map_location="cpu")
        out(f"resuming from {E('RESUME')}")
        model.load_state_dict(sd["model"])
    if FAULT == "ckpt_corrupt":
        p = f"{E('RESUME')}/shard_rank{rank}.pt"
        out(f"loading checkpoint shard {p}")
        sd = torch.load(p, map_location="cpu"); model.load_state_dict(sd["model"])
    if FAULT == "device" and rank == FR:
        model.l2.bias = nn.Parameter(torch.zeros(1, device="meta"))
    if E("RESUME_LATEST") == "1" and os.path.isdir(CKPT):
        cks = sorted(f for f in os.listdir(CKPT) if f.endswith("_rank0.pt"))
        if cks:
            out(f"found checkpoint {cks[-1]}, resuming")
            sd = torch.load(os.path.join(CKPT, cks[-1]), map_location="cpu"); model.load_state_dict(sd["model"])
    if E("PREEMPT_HANDLER") == "1":
        def onterm(sig, frm):
            out(f"received signal {signal.Signals(sig).name}, saving checkpoint and exiting")
            sys.exit(143)
        signal.signal(signal.SIGTERM, onterm)
    ddp = DDP(model) if E("NO_DDP") != "1" else model
    scaler = torch.amp.GradScaler("cpu", init_scale=float(E("INIT_SCALE", "65536"))) if E("SCALER") == "1" else None
    dl_iter = None
    if E("DATALOADER") == "1":
        dl_iter = iter(torch.utils.data.DataLoader(DS(rank), batch_size=8, num_workers=2))
    if FAULT == "hang_all":
        last = [time.time(), -1]
        def watchdog():
            while True:
                time.sleep(10)
                idle = time.time() - last[0]
                if idle > 15: out(f"[watchdog] no progress for {idle:.0f}s (last completed step {last[1]})")
        threading.Thread(target=watchdog, daemon=True).start()
    opt = torch.optim.SGD(ddp.parameters(), lr=LR)
    g = torch.Generator().manual_seed(100 + rank)
    nsteps = STEPS
    if FAULT == "uneven" and rank == FR:
        nsteps = FS
        out(f"dataset shard has {FS * 8} samples -> {FS} steps")
    leak = []
    bgq = queue.Queue(maxsize=2)
    if FAULT == "bg_thread":
        def prefetch():
            for s in range(10**6):
                x = torch.randn(8, 16, generator=g)
                if rank == FR and s == FS:
                    rec = '{"text": "the quick brown fox", "label": 1'
                    json.loads(rec)  # truncated record in shard
                bgq.put((x, x.sum(1, keepdim=True)))
        threading.Thread(target=prefetch, name="prefetch", daemon=True).start()
    fds = []
    step = 0
    for step in range(nsteps):
        t0 = time.time()
        if STEP_SLEEP: time.sleep(STEP_SLEEP)
        if FAULT == "hang_all":
            last[0] = last[0] if step < FS else last[0]; last[1] = step - 1
            if step == FS: queue.Queue().get()  # waits for a producer that never started
            last[0] = time.time()
        if dl_iter is not None:
            x, y = next(dl_iter)
        elif FAULT == "bg_thread":
            x, y = bgq.get()
        else:
            x = torch.randn(8, 16, generator=g); y = x.sum(1, keepdim=True)
        if fault_here(rank, step, "sleep"):
            time.sleep(3600)
        if fault_here(rank, step, "deadlock"):
            lk = threading.Lock(); lk.acquire(); lk.acquire()
        if fault_here(rank, step, "spin"):
            while True: pass
        if fault_here(rank, step, "data_error"):
            line = E("BAD_LINE", '{"input_ids": [101, 2023, 2003], "labels": [1, 0') 
            json.loads(line)
        if FAULT == "nan" and rank == FR and step >= FS:
            x[3, 5] = float("inf")
        if FAULT in ("segv", "abort", "sigbus", "kill9") and rank == FR and step == FS:
            do_native(FAULT)
        if FAULT == "emfile" and rank == FR and step >= FS:
            for i in range(64):
                fds.append(open(f"/tmp/b64/shards/shard_{(step*64+i)%512:05d}.bin", "rb"))
        if FAULT in ("oom_leak", "cgroup_oom") and rank == FR and step >= FS:
            leak.append(torch.ones(64 * 1024 * 1024))  # cache eval activations (256MB)
        loss = ((ddp(x) - y) ** 2).mean()
        if FAULT == "nan" and not torch.isfinite(loss):
            out(f"step {step}: loss is {loss.item()}, aborting")
            raise FloatingPointError(f"Non-finite loss detected at step {step}: {loss.item()}")
        opt.zero_grad()
        if scaler is not None:
            if (FAULT == "overflow" and rank == FR and step >= FS) or (step in [int(v) for v in E("INF_STEPS", "").split(",") if v]  and rank == FR):
                loss = loss * 1e38
            scaler.scale(loss).backward()
        else:
            loss.backward()
        if fault_here(rank, step, "mismatch"):
            t = torch.zeros(3); dist.broadcast(t, src=0)
        else:
            t = torch.tensor([loss.item()]); dist.all_reduce(t)
        if scaler is not None:
            scaler.step(opt); old = scaler.get_scale(); scaler.update(); new = scaler.get_scale()
            if new < old: out(f"step {step}: gradient overflow, skipping step, loss scale {old} -> {new}")
            if new < float(E("MIN_SCALE", "1e-4")):
                raise FloatingPointError(f"Minimum loss scale reached ({E('MIN_SCALE','1e-4')}). Your loss is probably exploding. Try lowering the learning rate, using gradient clipping or increasing the batch size.")
        else:
            opt.step()
        if FAULT == "diverge" and step == FS:
            for pg in opt.param_groups: pg["lr"] = float(E("LR2", "3.0"))
            out("lr schedule: warmup finished, lr set to " + E("LR2", "3.0"))
        avg = t.item() / world if t.numel() == 1 else float("nan")
        out(f"step {step} loss {avg:.4f}", step_time=f"{time.time()-t0:.3f}s")
        if FAULT == "diverge" and step > FS + 3 and (not math.isfinite(avg) or avg > 1e4):
            raise RuntimeError(f"Training diverged: loss {avg:.3e} at step {step} exceeds divergence threshold 1e4")
        if EVAL_EVERY and (step + 1) % EVAL_EVERY == 0:
            with torch.no_grad():
                vx = torch.randn(16, 16, generator=g); vl = ((model(vx) - vx.sum(1, keepdim=True)) ** 2).mean()
                if fault_here(rank, step, "dtype") or (FAULT == "dtype" and rank == FR and step >= FS):
                    preds = model(vx).squeeze(1); labels = (vx.sum(1) > 0).long()
                    acc = torch.nn.functional.binary_cross_entropy_with_logits(preds, labels)
                v = torch.tensor([vl.item()]); dist.all_reduce(v)
            out(f"eval after step {step}: val_loss {v.item()/world:.4f}")
        if CKEVERY and (step + 1) % CKEVERY == 0:
            os.makedirs(CKPT, exist_ok=True)
            p = os.path.join(CKPT, f"step{step+1}_rank{rank}.pt")
            if FAULT == "ckpt_hang" and rank == FR and step >= FS:
                out(f"saving checkpoint to {p} (async)")
                done = threading.Event()
                def writer():
                    lk = threading.Lock(); lk.acquire(); lk.acquire()  # writer blocks on a lock held by itself
                th = threading.Thread(target=writer, name="ckpt-writer", daemon=True); th.start()
                th.join()
            elif FAULT == "ckpt_timeout" and rank == FR and step >= FS:
                import concurrent.futures as cf
                out(f"saving checkpoint to {p} (async)")
                ex = cf.ThreadPoolExecutor(1)
                fut = ex.submit(lambda: (time.sleep(3600), torch.save({"model": model.state_dict()}, p)))
                try:
                    fut.result(timeout=float(E("CK_DEADLINE", "8")))
                except cf.TimeoutError:
                    raise TimeoutError(f"async checkpoint save for step {step+1} did not complete within {E('CK_DEADLINE','8')}s (writer still running)")
            else:
                if rank == 0 or E("CK_ALL") == "1":
                    out(f"saving checkpoint to {p}")
                    if E("CKPT_FILEOBJ") == "1":
                        with open(p, "wb") as fh:
                            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step + 1}, fh)
                    else:
                        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step + 1}, p)
                    out(f"saved checkpoint {p}")
            dist.barrier()
    out(f"training done after {step+1} steps")
    if FAULT == "uneven" and rank == FR and E("SKIP_FINAL") == "1":
        out("no more batches in shard; exiting")
        return
    if FAULT == "shutdown_exc" and rank == FR:
        stats = {"steps": step + 1, "loss": avg}
        out("writing final metrics summary")
        with open(os.path.join(E("METRICS_DIR", "/tmp/b64"), f"metrics_rank{rank}.json"), "w") as f:
            json.dump({"final_loss": stats["val_loss"]}, f)
    dist.barrier()
    dist.destroy_process_group()
    out("exiting cleanly")

if __name__ == "__main__":
    if E("SPAWN") == "1":
        import torch.multiprocessing as mp
        n = int(E("NPROCS", "2"))
        os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ.setdefault("MASTER_PORT", "29612")
        mp.spawn(main, args=(n,), nprocs=n, join=True)
    else:
        main()
