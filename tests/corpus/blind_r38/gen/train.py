"""Tiny DDP trainer (CPU, gloo) used to make real failing and healthy runs.

Configured by environment variables:
  STYLE   print | logging | json | trainer | bar     (how progress is logged)
  STEPS   number of training steps
  FAULT   which real fault to arm (see maybe_fault / the data layer); empty = none
  FRANK   global rank the fault is armed on
  FSTEP   step at which the fault fires
  NOISY   1 = emit harmless alarming warnings (deprecations, retried downloads, caught errors)
  CKPT_DIR, DATA_DIR, RESUME  paths
Launch with torchrun, srun (SLURM_PROCID...) or `python train.py spawn N`.
"""
import ctypes, datetime, io, json, logging, os, queue, random, resource, signal, socket, sys, threading, time
import urllib.request, urllib.error, warnings

import torch
import torch.distributed as dist
import torch.nn as nn

E = os.environ
STYLE = E.get("STYLE", "print")
STEPS = int(E.get("STEPS", "200"))
FAULT = E.get("FAULT", "")
FRANK = int(E.get("FRANK", "-1"))
FSTEP = int(E.get("FSTEP", "100"))
NOISY = E.get("NOISY", "0") == "1"
DATA_DIR = E.get("DATA_DIR", "/tmp/blind38_data")
CKPT_DIR = E.get("CKPT_DIR", "/tmp/blind38_ckpt")
TIMEOUT = int(E.get("PG_TIMEOUT", "25"))
WIDTH = 16
log = logging.getLogger("trainer")


def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]


class Out:
    def __init__(self, rank, world):
        self.rank, self.world = rank, world
        if STYLE == "logging":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format=f"%(asctime)s %(levelname)s %(name)s [rank{rank}]: %(message)s")
        else:
            logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(asctime)s %(levelname)s %(message)s")

    def info(self, msg, **kv):
        if STYLE == "json":
            print(json.dumps({"ts": time.time(), "level": "info", "rank": self.rank, "msg": msg, **kv}), flush=True)
        elif STYLE == "logging":
            log.info(msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())))
        elif STYLE == "trainer":
            print(f"[Trainer] {now()} | {msg}" + "".join(f" | {k} {v}" for k, v in kv.items()), flush=True)
        else:
            print(msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())), flush=True)

    def step(self, step, loss, lr, dt):
        if STYLE == "json":
            print(json.dumps({"ts": time.time(), "rank": self.rank, "step": step, "loss": round(loss, 5),
                              "lr": lr, "step_time": round(dt, 4)}), flush=True)
        elif STYLE == "logging":
            log.info(f"step={step} loss={loss:.5f} lr={lr:.2e} step_time={dt:.3f}s")
        elif STYLE == "trainer":
            print(f"[Trainer] {now()} | epoch 1 | step {step}/{STEPS} | loss {loss:.4f} | lr {lr:.2e} | "
                  f"{dt*1000:.1f} ms/step", flush=True)
        elif STYLE == "bar":
            pct = int(100 * step / STEPS)
            sys.stdout.write(f"\rtrain: {pct:3d}%|{'#' * (pct // 5):<20}| {step}/{STEPS} [loss={loss:.4f}, lr={lr:.1e}]")
            sys.stdout.flush()
            if step % 25 == 0:
                sys.stdout.write("\n")
        else:
            print(f"step {step} | loss {loss:.4f} | lr {lr:.3e} | {dt*1000:.1f}ms", flush=True)


# ---------------------------------------------------------------- data
def make_shards(world, n=4000):
    """Each rank reads DATA_DIR/shard-XXXX.jsonl. Some faults are planted in the data itself."""
    os.makedirs(DATA_DIR, exist_ok=True)
    for r in range(world):
        p = os.path.join(DATA_DIR, f"shard-{r:04d}.jsonl")
        if os.path.exists(p):
            continue
        g = random.Random(r)
        rows = []
        count = n
        if FAULT == "uneven" and r == FRANK:
            count = FSTEP * 8  # a shorter shard: this rank runs out of batches early
        for i in range(count):
            w = WIDTH
            x = [round(g.uniform(-1, 1), 4) for _ in range(w)]
            row = {"id": f"{r}-{i}", "x": x, "y": round(sum(x) / w, 4)}
            if r == FRANK and i == FSTEP * 8 + 3:
                if FAULT == "baddata":
                    rows.append('{"id": "%d-%d", "x": [0.1, 0.2, 0.3' % (r, i))  # torn line
                    continue
                if FAULT == "nan":
                    row["x"][5] = float("nan")
                if FAULT == "shape":
                    row["x"] = x + [0.5]  # a sample with an extra feature
                if FAULT == "dtype":
                    row["dtype"] = "float64"
            rows.append(json.dumps(row) if isinstance(row, dict) else row)
        with open(p + ".tmp", "w") as f:
            f.write("\n".join(rows) + "\n")
        os.replace(p + ".tmp", p)


class Shard:
    def __init__(self, rank, out):
        self.rank, self.out = rank, out
        self.path = os.path.join(DATA_DIR, f"shard-{rank:04d}.jsonl")
        self.leak = []
        if FAULT == "missing_shard" and rank == FRANK:
            self.path = os.path.join(DATA_DIR, f"shard-{rank:04d}-part2.jsonl")  # listed in the manifest, never written
        if FAULT == "emfile" and rank == FRANK:
            resource.setrlimit(resource.RLIMIT_NOFILE, (96, 96))  # this node's container ulimit

    def lines(self):
        with open(self.path) as f:
            for i, line in enumerate(f):
                if FAULT == "emfile" and self.rank == FRANK and i >= FSTEP * 8:
                    # per-sample index lookup that opens the sidecar and forgets to close it
                    self.leak.append(open(self.path))
                yield i, line

    def batches(self, bs=8):
        buf = []
        for i, line in self.lines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"corrupt sample in {self.path} at line {i + 1}: {e}") from e
            dt = torch.float64 if rec.get("dtype") == "float64" else torch.float32
            buf.append((torch.tensor(rec["x"], dtype=dt), torch.tensor([rec["y"]])))
            if len(buf) == bs:
                xs = torch.stack([b[0] for b in buf]) if len({b[0].shape for b in buf}) == 1 and len({b[0].dtype for b in buf}) == 1 else None
                if xs is None:
                    xs = torch.nn.utils.rnn.pad_sequence([b[0] for b in buf], batch_first=True) if FAULT != "dtype" else torch.stack([b[0].double() for b in buf])
                    if FAULT == "shape":
                        xs = xs  # padded to width 17: the model will not take it
                yield xs, torch.stack([b[1] for b in buf])
                buf = []


class DLSet(torch.utils.data.Dataset):
    """Map-style dataset with decoded samples, read by DataLoader workers."""
    def __init__(self, rank):
        self.rank = rank
        g = torch.Generator().manual_seed(rank)
        self.x = torch.rand(4000, WIDTH, generator=g) * 2 - 1

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if FAULT == "dlkill" and self.rank == FRANK and i == FSTEP * 8:
            # decoding this sample's attachment blows the worker's memory (the worker runs in a tight cgroup)
            cgroup_limit(f"job_{os.getpid()}", 200)
            hold = [torch.ones(32 * 2**20 // 4) for _ in range(64)]
            del hold
        x = self.x[i]
        return x, x.mean().reshape(1)

    def loader(self):
        return torch.utils.data.DataLoader(self, batch_size=8, num_workers=2, shuffle=False)


# ---------------------------------------------------------------- faults
def cgroup_limit(name, extra_mb):
    d = f"/sys/fs/cgroup/memory/{name}"
    os.makedirs(d, exist_ok=True)
    rss = int(open("/proc/self/statm").read().split()[1]) * 4096
    with open(f"{d}/memory.limit_in_bytes", "w") as f:
        f.write(str(rss + extra_mb * 2**20))
    try:
        with open(f"{d}/memory.memsw.limit_in_bytes", "w") as f:
            f.write(str(rss + extra_mb * 2**20))
    except OSError:
        pass
    with open(f"{d}/cgroup.procs", "w") as f:
        f.write(str(os.getpid()))


def save_checkpoint(model, opt, step, rank, out):
    os.makedirs(CKPT_DIR, exist_ok=True)
    buf = io.BytesIO()
    state = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
             "ema": torch.randn(600_000)}  # ~2.4 MB of EMA shadow weights
    torch.save(state, buf)
    path = os.path.join(CKPT_DIR, f"step_{step:06d}.pt")
    out.info(f"saving checkpoint to {path}", bytes=buf.tell())
    with open(path + ".partial", "wb") as f:
        f.write(buf.getvalue())
    os.replace(path + ".partial", path)
    out.info(f"checkpoint saved {path}")


def maybe_fault(step, rank, model, opt, out, ctx):
    if rank != FRANK or step != FSTEP:
        return
    if FAULT == "oom" or (FAULT == "oom_first" and E.get("TORCHELASTIC_RESTART_COUNT", "0") == "0"):
        out.info("building eval cache for validation set")
        cgroup_limit(f"job_{os.getpid()}", 300)
        hold = []
        while True:
            hold.append(torch.ones(64 * 2**20 // 4))  # 64 MB at a time
    if FAULT == "segv":
        out.info("running fused_rmsnorm extension kernel")
        ctypes.string_at(0)
    if FAULT == "hang":
        out.info("waiting for prefetch queue")
        while True:
            time.sleep(1)
    if FAULT == "mismatch":
        stats = torch.zeros(5)  # this rank adds an extra metric to the stats vector
        dist.all_reduce(stats)
    if FAULT == "hub":
        url = "http://127.0.0.1:47999/api/models/tiny-llama/resolve/main/tokenizer.json"
        for attempt in range(1, 4):
            try:
                urllib.request.urlopen(url, timeout=5).read()
            except urllib.error.URLError as e:
                out.info(f"download of {url} failed (attempt {attempt}/3): {e}; retrying in 2s")
                if attempt == 3:
                    raise
                time.sleep(2)
    if FAULT in ("diskfull", "erofs"):
        save_checkpoint(model, opt, step, rank, out)
    if FAULT == "keyerror":
        metrics = {"loss": 1.0, "tokens": 1}
        try:
            _ = metrics["grad_norm"] / metrics["tokens"]
        except Exception:
            logging.getLogger("trainer").exception("metrics aggregation failed on rank %d", rank)
            dist.destroy_process_group()  # release the group before the crash report upload
            out.info("uploading crash report to the tracker (this can take a while)")
            time.sleep(15)
            raise
    if FAULT == "ckpt_hang":
        out.info(f"saving checkpoint step {step} (async writer)")
        lock = ctx["lock"]
        lock.acquire()  # main thread holds the state lock while the writer needs it
        w = threading.Thread(target=lambda: (lock.acquire(), save_checkpoint(model, opt, step, rank, out)),
                             name="ckpt-writer", daemon=True)
        w.start()
        w.join()  # never returns


def main(rank=None, world=None):
    if rank is None:
        rank = int(E.get("RANK", E.get("SLURM_PROCID", "0")))
        world = int(E.get("WORLD_SIZE", E.get("SLURM_NTASKS", "1")))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    out = Out(rank, world)
    if NOISY:
        warnings.warn("torch.distributed._shard.checkpoint will be deprecated, use torch.distributed.checkpoint instead",
                      FutureWarning)
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support non-writable tensors.",
                      UserWarning)
    if FAULT == "depmissing":
        out.info("building optimizer: FusedAdam (apex)")
        import fused_adam_cuda  # noqa: F401  compiled extension from the image
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=TIMEOUT))
    out.info(f"initialized process group rank={rank} world_size={world} backend=gloo host={socket.gethostname()}")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(WIDTH, 64), nn.ReLU(), nn.Linear(64, 1))
    resume = E.get("RESUME")
    if resume:
        if rank == 0:
            out.info(f"resuming from {resume}")
            state = torch.load(resume, map_location="cpu", weights_only=False)
            model.load_state_dict(state["model"])
        for p in model.parameters():
            dist.broadcast(p.data, 0)
    if E.get("NO_DDP") == "1":
        ddp = model  # gradients are averaged by hand below
    else:
        ddp = nn.parallel.DistributedDataParallel(model)
    lr = float(E.get("LR", "0.01"))
    opt = torch.optim.SGD(ddp.parameters(), lr=lr, momentum=0.9)
    if rank == 0 or STYLE in ("json", "logging"):
        out.info("config", steps=STEPS, lr=lr, world=world, batch=8)
    if rank == FRANK and FAULT == "hub":
        maybe_fault(FSTEP, rank, model, opt, out, {}) if FSTEP == 0 else None
    if FAULT == "hub":
        dist.barrier()
    make_shards_done = True
    shard = Shard(rank, out)
    q = queue.Queue(maxsize=16)
    ctx = {"lock": threading.Lock()}

    def prefetch():
        for b in shard.batches():
            q.put(b)
        q.put(None)

    if E.get("PREFETCH", "0") == "1":
        t = threading.Thread(target=prefetch, name="prefetch", daemon=True)
        t.start()
        get = lambda: q.get(timeout=TIMEOUT + 10)
    else:
        it = iter(DLSet(rank).loader()) if FAULT == "dlkill" else shard.batches()
        get = lambda: next(it, None)
    best = float("inf")
    exhausted = False
    t0 = time.time()
    noisy_dl_fail = NOISY and rank == 0
    for step in range(1, STEPS + 1):
        ts = time.time()
        batch = get()
        if batch is None:
            out.info(f"data exhausted at step {step}")
            exhausted = True
            break
        x, y = batch
        if FAULT == "diverge" and step == FSTEP:
            for g in opt.param_groups:
                g["lr"] = lr * 60  # warmup schedule bug: LR jumps
        maybe_fault(step, rank, model, opt, out, ctx)
        pred = ddp(x)
        loss = nn.functional.mse_loss(pred, y)
        if FAULT == "nan" and not torch.isfinite(loss):
            raise FloatingPointError(f"loss is {loss.item()} at step {step} (rank {rank}); aborting")
        opt.zero_grad()
        loss.backward()
        if E.get("NO_DDP") == "1":
            for p in model.parameters():
                dist.all_reduce(p.grad)
                p.grad /= world
        opt.step()
        lv = loss.detach().clone()
        dist.all_reduce(lv)
        lv = lv.item() / world
        if FAULT == "diverge":
            best = min(best, lv)
            if step > FSTEP + 5 and lv > 20 * best:
                raise RuntimeError(f"training diverged: loss {lv:.3e} > 20x best {best:.3e} at step {step}")
        if STYLE in ("json", "logging") or rank == 0 or STYLE == "print":
            out.step(step, lv, opt.param_groups[0]["lr"], time.time() - ts)
        if step % 10 == 0 and (STYLE in ("logging", "json")):
            out.info("throughput", samples_per_s=round(8 * world / max(time.time() - ts, 1e-6), 1))
        if noisy_dl_fail and step == STEPS // 3:
            try:
                urllib.request.urlopen("http://127.0.0.1:47998/metrics/push", timeout=2)
            except Exception as e:
                logging.getLogger("metrics").warning("metrics push failed, will retry later: %r", e)
                import traceback; traceback.print_exc()
        if NOISY and step == STEPS // 2 and rank == 1:
            warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`.", UserWarning)
        if E.get("SAVE_EVERY") and step % int(E["SAVE_EVERY"]) == 0 and rank == 0:
            save_checkpoint(model, opt, step, rank, out)
        time.sleep(float(E.get("STEP_SLEEP", "0.01")))
    if STYLE == "bar":
        print()
    if not exhausted:
        dist.barrier()
    out.info(f"training finished in {time.time() - t0:.1f}s")
    dist.destroy_process_group()


def spawn_entry(rank, world, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    main(rank, world)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "mkdata":
        make_shards(int(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "spawn":
        import torch.multiprocessing as mp
        n = int(sys.argv[2])
        mp.spawn(spawn_entry, args=(n, int(sys.argv[3])), nprocs=n, join=True)
    else:
        main()
