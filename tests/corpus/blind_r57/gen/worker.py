#!/usr/bin/env python3
"""Multi-scenario tiny DDP trainer (CPU/gloo). Scenario from env SCEN, culprit rank TARGET, step AT.
Log format from FMT: logging | json | plain | tqdm | prefixed."""
import os, sys, time, json, signal, threading, queue, logging, ctypes, math
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import Dataset, DataLoader

SCEN = os.environ.get("SCEN", "none")
TARGET = int(os.environ.get("TARGET", "-1"))
AT = int(os.environ.get("AT", "3"))
STEPS = int(os.environ.get("STEPS", "8"))
FMT = os.environ.get("FMT", "logging")
TIMEOUT = int(os.environ.get("PG_TIMEOUT", "15"))
rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))
world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29577")
me = rank == TARGET

log = logging.getLogger("trainer")
if FMT == "json":
    class J(logging.Formatter):
        def format(self, r):
            return json.dumps({"ts": round(r.created, 3), "level": r.levelname, "logger": r.name,
                               "rank": rank, "msg": r.getMessage()})
    h = logging.StreamHandler(sys.stdout); h.setFormatter(J())
elif FMT == "plain":
    h = logging.StreamHandler(sys.stdout); h.setFormatter(logging.Formatter("%(message)s"))
elif FMT == "prefixed":
    h = logging.StreamHandler(sys.stdout); h.setFormatter(logging.Formatter(f"[worker {rank}/{world}] %(levelname)s %(message)s"))
else:
    h = logging.StreamHandler(sys.stdout)
    h.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s:%(lineno)d %(message)s"))
log.addHandler(h); log.setLevel(logging.INFO); log.propagate = False

def flush():
    sys.stdout.flush(); sys.stderr.flush()

class DS(Dataset):
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i):
        if SCEN == "dl_sig" and me and i >= AT * 4 and torch.utils.data.get_worker_info() is not None:
            os.kill(os.getpid(), getattr(signal, os.environ.get("SIG", "SIGBUS")))
        if SCEN == "data" and me and i == AT * 4 + 1:
            line = '{"text": "the quick brown fox", "label": 3}{"text": "jumps'
            try:
                json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"corrupt record {i} in shard /data/train/shard-{rank:05d}.jsonl") from e
        g = torch.Generator().manual_seed(i)
        x = torch.randn(16, generator=g)
        if SCEN == "shape" and me and i == AT * 4:
            x = torch.randn(12, generator=g)
        return x, torch.tensor(float(i % 3))

def hang_collate(batch):
    if SCEN == "loop" and me and len(batch) and batch[0][1].item() >= 0:
        hang_collate.n = getattr(hang_collate, "n", 0) + 1
        if hang_collate.n > AT:
            while True:  # buggy augmentation loop never terminates
                pass
    return torch.utils.data.default_collate(batch)

def prefetch(src):
    q = queue.Queue(maxsize=2)
    def run():
        for k, b in enumerate(src):
            if SCEN == "thread" and me and k == AT:
                raise KeyError(f"'input_ids' missing from sample {k * 4 + 2} (keys: ['text', 'meta'])")
            q.put(b)
        q.put(None)
    threading.Thread(target=run, name="prefetch", daemon=True).start()
    while True:
        b = q.get()
        if b is None:
            return
        yield b

def main():
    if SCEN == "import":
        import fused_layer_norm_cuda  # noqa
    if SCEN == "cgoom" and me:
        with open(os.environ["CG"] + "/cgroup.procs", "w") as f:
            f.write(str(os.getpid()))
    log.info("rank %d/%d starting on %s pid %d", rank, world, os.uname().nodename, os.getpid())
    if SCEN.startswith("restart") or os.environ.get("ATTEMPT_PREFIX"):  # a fresh key space per elastic attempt
        att = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
        st = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), world, False, timeout=timedelta(seconds=60))
        dist.init_process_group("gloo", store=dist.PrefixStore(f"attempt{att}", st), rank=rank, world_size=world, timeout=timedelta(seconds=TIMEOUT))
    else:
        dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=TIMEOUT))
    log.info("process group ready (backend=gloo, world_size=%d)", world)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    attempt = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    if SCEN == "restart_ok" and me and attempt == 0:
        import urllib.request
        log.info("fetching dataset manifest from %s", os.environ["MANIFEST_URL"])
        urllib.request.urlopen(os.environ["MANIFEST_URL"], timeout=5).read()
    if SCEN == "restart_torn" and attempt > 0:
        log.info("attempt %d: resuming from %s", attempt, os.environ["CKPT"])
        model.load_state_dict(torch.load(os.environ["CKPT"], map_location="cpu")["model"])
    if SCEN == "hub":
        if me:
            from transformers import AutoTokenizer
            log.info("rank %d downloading tokenizer %s", rank, os.environ["HUB_MODEL"])
            AutoTokenizer.from_pretrained(os.environ["HUB_MODEL"])
        dist.barrier()
    stop_flag = [0]
    if SCEN == "preempt":
        def on_term(sig, frm):
            log.warning("received signal %d, will checkpoint and exit at the next step boundary", sig)
            stop_flag[0] = 1
        signal.signal(signal.SIGTERM, on_term)
    if SCEN in ("ckpt_corrupt", "ckpt_mismatch"):
        path = os.environ["CKPT"]
        log.info("resuming from %s", path)
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd["model"])
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("LR", "0.01")))
    n = 4 * (STEPS + 2)
    if SCEN == "uneven" and me:
        n = 4 * AT
    sampler = None
    nw = int(os.environ.get("NW", "0"))
    dl = DataLoader(DS(n), batch_size=4, num_workers=nw, collate_fn=hang_collate)
    it = dl
    if FMT == "tqdm":
        from tqdm import tqdm
        it = tqdm(dl, total=len(dl), desc=f"epoch 0", file=sys.stdout, mininterval=0, ncols=80)
    if SCEN == "thread" or os.environ.get("PREFETCH"):
        it = prefetch(it)
    scale = 65536.0
    first = None
    for step, (x, y) in enumerate(it):
        t0 = time.time()
        if step == AT and me:
            if SCEN == "sleep":
                time.sleep(3600)
            elif SCEN == "lock":
                lk = threading.Lock(); lk.acquire(); lk.acquire()
            elif SCEN == "fifo":
                p = os.environ["FIFO"]
                with open(p) as f:
                    f.read()
            elif SCEN == "kill":
                os.kill(os.getpid(), getattr(signal, os.environ.get("SIG", "SIGKILL")))
            elif SCEN == "segv":
                ctypes.string_at(0)
            elif SCEN == "alloc":
                torch.empty(int(4e12), dtype=torch.float32)
            elif SCEN == "cgoom":
                hog = []
                while True:
                    hog.append(torch.ones(64 * 1024 * 1024 // 4))
            elif SCEN == "emfile":
                fds = []
                for k in range(100000):
                    fds.append(open(f"/work/blind/r57/work/shards/s{k % 50}.bin", "rb"))
            elif SCEN == "dtype":
                idx = torch.arange(4, dtype=torch.float32)
                x = x.double()
            elif SCEN == "restart_torn" and attempt == 0:
                import io
                b = io.BytesIO(); torch.save({"model": model.state_dict(), "step": step}, b)
                log.info("saving checkpoint step %d to %s", step, os.environ["CKPT"])
                with open(os.environ["CKPT"], "wb") as f:
                    f.write(b.getvalue()[: len(b.getvalue()) // 2]); f.flush()
                    os.kill(os.getpid(), signal.SIGKILL)
            elif SCEN == "exc":
                raise RuntimeError(os.environ.get("MSG", "unexpected state"))
        if SCEN == "nan" and me and step >= AT:
            x = x * float("inf")
        out = ddp(x).squeeze(-1)
        loss = ((out - y) ** 2).mean()
        if SCEN == "nan" and not torch.isfinite(loss):
            log.error("non-finite loss %s at step %d, aborting", loss.item(), step)
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}")
        if SCEN == "diverge":
            if first is None: first = loss.item()
            if loss.item() > 1e4 * first or not math.isfinite(loss.item()):
                log.error("loss %.4g exceeded divergence threshold (initial %.4g); stopping", loss.item(), first)
                sys.exit(3)
        opt.zero_grad()
        (loss * (scale if SCEN == "fp16warm" else 1.0)).backward()
        if SCEN == "fp16warm":
            if step < 3:
                scale /= 2
                log.warning("Gradient overflow. Skipping step, loss scale reduced to %.1f", scale)
                continue
            for p in ddp.parameters(): p.grad /= scale
        opt.step()
        if SCEN == "caught" and step == AT and me:
            try:
                json.loads("{bad json")
            except Exception:
                log.exception("failed to parse metrics sidecar, continuing without it")
        if SCEN == "retry" and step == AT and rank == 0:
            for a in range(1, 3):
                log.warning("upload of metrics failed (ConnectionError: [Errno 111] Connection refused), retrying %d/3", a)
                time.sleep(0.2)
            log.info("metrics upload succeeded on attempt 3")
        if SCEN == "errtext":
            log.info("step %d loss %.4f val_error %.4f errors_skipped=0", step, loss.item(), loss.item() * 0.9)
        # metric sync collective
        m = torch.tensor([loss.item()])
        if step == AT and me and SCEN == "mm_coll":
            dist.broadcast(m, src=0)
        elif step == AT and me and SCEN == "mm_size":
            dist.all_reduce(torch.zeros(7))
        else:
            dist.all_reduce(m)
        m /= world
        if FMT == "tqdm":
            it.set_postfix(loss=f"{m.item():.4f}")
        elif rank == 0 or FMT in ("json", "prefixed") or os.environ.get("ALLLOG"):
            log.info("step %d loss %.4f (%.0f ms)", step, m.item(), 1000 * (time.time() - t0))
        if SCEN == "ckpt_full" and step == AT and rank == TARGET:
            ckf = os.environ.get("CKFILE", "/dev/full")
            log.info("saving checkpoint step %d -> %s", step, ckf)
            with open(ckf, "wb") as f:
                torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, f)
        if SCEN == "ckpt_wait" and step == AT:
            ck = os.environ["CKDIR"]
            if me:
                log.info("writing checkpoint step_%d to %s", step, ck)
                torch.save({"model": model.state_dict(), "step": step}, f"{ck}/step_{step}.pt")
                open(f"{ck}/step_{step}.done", "w").close()
            else:
                t = time.time()
                while not os.path.exists(f"{ck}/step_{step}.done"):
                    log.info("waiting for checkpoint step_%d marker (%.0fs)", step, time.time() - t)
                    time.sleep(10)
        if SCEN in ("ckpt_full",) and step == AT:
            dist.barrier()
        if SCEN == "preempt":
            st = torch.tensor([float(stop_flag[0])]); dist.all_reduce(st, op=dist.ReduceOp.MAX)
            if st.item() > 0:
                if rank == 0:
                    torch.save({"model": model.state_dict(), "step": step}, os.environ["CKPT"])
                    log.info("checkpoint saved to %s at step %d; exiting for requeue", os.environ["CKPT"], step)
                dist.barrier(); dist.destroy_process_group(); sys.exit(0)
        if step + 1 >= STEPS:
            break
        time.sleep(float(os.environ.get("SLEEP", "0.2")))
    if SCEN == "uneven" and me:
        log.info("rank %d exhausted its shard after %d steps; done", rank, step + 1)
    if SCEN == "uneven" and me:
        dist.destroy_process_group()
        sys.exit(0)
    log.info("training finished")
    dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
