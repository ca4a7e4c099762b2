# Tiny DDP training script with optional fault injection (FAULT, FAULT_RANK, FAULT_STEP env vars).
import os, sys, time, datetime, json, logging, ctypes, signal
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

FAULT = os.environ.get("FAULT", "none")
FR = int(os.environ.get("FAULT_RANK", "-1"))
FS = int(os.environ.get("FAULT_STEP", "3"))
STEPS = int(os.environ.get("STEPS", "8"))
FMT = os.environ.get("LOGFMT", "print")  # print | logging | json
TIMEOUT = int(os.environ.get("PG_TIMEOUT", "15"))
CKPT = os.environ.get("CKPT_DIR", "/tmp/r66ckpt")


def setup(rank=None, world=None):
    if rank is None:
        dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=TIMEOUT))
    else:
        dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=TIMEOUT))
    return dist.get_rank(), dist.get_world_size()


def main(rank=None, world=None):
    rank, world = setup(rank, world)
    if FMT == "logging":
        logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [rank{rank}] %(levelname)s %(name)s: %(message)s")
        log = logging.getLogger("trainer").info
    elif FMT == "logging_norank":
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        log = logging.getLogger("trainer").info
    elif FMT == "json":
        def log(msg, **kw):
            print(json.dumps({"ts": time.time(), "rank": rank, "msg": msg, **kw}), flush=True)
    else:
        def log(msg):
            print(f"[rank {rank}] {msg}", flush=True)
    me = (rank == FR)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    if FAULT == "ckpt_load_mismatch":
        if rank == 0 and not os.path.exists(f"{CKPT}/init.pt"):
            os.makedirs(CKPT, exist_ok=True)
            other = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
            torch.save({"model": other.state_dict(), "step": 100}, f"{CKPT}/init.pt")
        dist.barrier()
        log(f"resuming from {CKPT}/init.pt")
        sd = torch.load(f"{CKPT}/init.pt")
        model.load_state_dict(sd["model"])
    if FAULT == "ckpt_corrupt":
        if rank == 0:
            os.makedirs(CKPT, exist_ok=True)
            torch.save({"model": model.state_dict(), "step": 50}, f"{CKPT}/last.pt")
            data = open(f"{CKPT}/last.pt", "rb").read()
            open(f"{CKPT}/last.pt", "wb").write(data[: len(data) // 2])  # torn write of a previous job
        dist.barrier()
        log(f"resuming from {CKPT}/last.pt")
        sd = torch.load(f"{CKPT}/last.pt")
        model.load_state_dict(sd["model"])
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("LR", "0.05")))
    n_local = 64
    if FAULT == "uneven" and me:
        n_local = 16 * FS  # fewer batches on this rank
    g = torch.Generator().manual_seed(rank)
    X = torch.randn(n_local, 16, generator=g)
    Y = torch.randn(n_local, 4, generator=g)
    log(f"start world_size={world} samples={n_local}")
    for step in range(STEPS):
        i = (step * 16) % n_local
        if FAULT == "uneven" and me and step * 16 >= n_local:
            log("data exhausted, finished epoch")
            break
        x, y = X[i:i + 16], Y[i:i + 16]
        if me and step == FS:
            if FAULT == "data":
                rec = {"input_ids": None, "text": "\udcff"}
                raise ValueError(f"Bad sample at index {step*16+7} in shard train-0000{rank}.jsonl: field 'input_ids' is None (record={rec!r})")
            if FAULT == "oom":
                log("building activation cache")
                big = torch.empty(int(os.environ.get("OOM_ELEMS", str(10**13))), dtype=torch.float32)
            if FAULT == "nan":
                x = x * float("nan")
            if FAULT == "sleep":
                time.sleep(10000)  # silent: no print
            if FAULT == "spin":
                while True:
                    pass
            if FAULT == "segv":
                ctypes.string_at(0)
            if FAULT == "abort":
                os.abort()
            if FAULT == "selfkill":
                os.kill(os.getpid(), signal.SIGKILL)
            if FAULT == "shape":
                x = torch.randn(16, 12)
            if FAULT == "dtype":
                x = x.double()
            if FAULT == "mismatch":
                dist.all_reduce(torch.ones(7))
            if FAULT == "exit0":
                sys.exit(0)
            if FAULT == "restart_once" and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
                raise ConnectionError(f"transient: failed to fetch batch {step} from data service at 10.0.0.7:8470")
            if FAULT == "files":
                handles = []
                for k in range(100000):
                    handles.append(open(f"/tmp/r66shard_{rank}_{k%50}.idx", "a"))
            if FAULT == "thread_data":
                import threading, queue
                q = queue.Queue()
                def prefetch():
                    for j in range(1000):
                        if j == 5:
                            raise UnicodeDecodeError("utf-8", b"\xff\xfe", 0, 1, f"invalid start byte in shard train-0003.jsonl line {j}")
                        q.put(j)
                t = threading.Thread(target=prefetch, name="prefetch", daemon=True)
                t.start(); t.join()
                while True:
                    q.get(timeout=None) if not q.empty() else time.sleep(1)
            if FAULT == "fpe":
                os.kill(os.getpid(), signal.SIGFPE)
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if FAULT == "nan" and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}, stopping training")
        opt.zero_grad()
        loss.backward()
        opt.step()
        if FAULT == "diverge":
            for p in model.parameters():
                pass
        lv = loss.item()
        if FMT == "json":
            log("train", step=step, loss=round(lv, 5))
        else:
            log(f"step {step} loss {lv:.5f}")
        time.sleep(float(os.environ.get("STEP_SLEEP", "0.3")))
        if FAULT in ("ckpt_full", "ckpt_perm") and step == FS and rank == 0:
            os.makedirs(CKPT, exist_ok=True)
            path = f"{CKPT}/step{step}.pt"
            log(f"saving checkpoint to {path}")
            if os.environ.get("SAVE_FOBJ"):
                with open(path, "wb") as fh:
                    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, fh)
            else:
                torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, path)
            log("checkpoint saved")
        if FAULT in ("ckpt_full", "ckpt_perm") and step == FS:
            dist.barrier()
    if FAULT == "eval_error" and me:
        log("running evaluation")
        metrics = {"loss": 0.1}
        log(f"eval accuracy {metrics['accuracy']:.3f}")
    dist.barrier()
    log("training done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
