"""Tiny DDP trainer (CPU / gloo) used by the r16 generators.

Knobs (env): STEPS, BATCH, NUM_WORKERS, LOGFMT (plain|logging|tqdm), CKPT_DIR, CKPT_EVERY,
RESUME, DATA_DIR, FAULT, FAULT_RANK, FAULT_STEP, CGROUP, LOCK_FILE, TIMEOUT_S, LR, DEBUG_COLL.
"""
import datetime
import logging
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, DistributedSampler

E = os.environ.get
FAULT = E("FAULT", "")
FAULT_RANK = int(E("FAULT_RANK", "-1"))
FAULT_STEP = int(E("FAULT_STEP", "5"))
STEPS = int(E("STEPS", "30"))
HID = int(E("HIDDEN", "64"))


def setup_log(rank):
    fmt = E("LOGFMT", "logging")
    if fmt == "logging":
        logging.basicConfig(
            level=logging.INFO,
            format=f"%(asctime)s [rank{rank}] %(levelname)s %(name)s: %(message)s",
            stream=sys.stdout,
        )
        lg = logging.getLogger("trainer")
        return lg.info
    if fmt == "plain":
        return lambda m: print(f"[{rank}] {m}", flush=True)
    return lambda m: print(m, flush=True)


class Shards(Dataset):
    def __init__(self, rank, n, data_dir=None):
        self.rank = rank
        self.n = n
        self.data_dir = data_dir
        self.files = []
        if data_dir:
            path = os.path.join(data_dir, f"shard_{rank:05d}.pt")
            blob = torch.load(path)
            self.x, self.y = blob["x"], blob["y"]
            self.n = len(self.x)
        else:
            g = torch.Generator().manual_seed(1234 + rank)
            self.x = torch.randn(n, 32, generator=g)
            self.y = torch.randn(n, 1, generator=g)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if FAULT == "dl_worker_kill" and self.rank == FAULT_RANK and i == FAULT_STEP * 8:
            import signal
            os.kill(os.getpid(), signal.SIGKILL)
        if FAULT == "emfile" and self.rank == FAULT_RANK:
            # cache handles to the per-sample side files (bug: never closed)
            side = os.path.join(E("SIDE_DIR"), f"r{self.rank}_{i % 4000}.bin")
            self.files.append(open(side, "rb"))
        x = self.x[i]
        if FAULT == "dtype" and self.rank == FAULT_RANK and i >= FAULT_STEP * 8:
            import numpy as np
            x = torch.from_numpy(np.asarray(x.tolist()))  # float64
        return x, self.y[i]


def main():
    rank = int(E("RANK"))
    world = int(E("WORLD_SIZE"))
    local_rank = int(E("LOCAL_RANK", rank))
    log = setup_log(rank)
    log(f"starting pid={os.getpid()} host={os.uname().nodename} local_rank={local_rank} world_size={world}")
    if E("TOKENIZER_URL") and rank == 0:
        import urllib.request
        log(f"downloading tokenizer from {E('TOKENIZER_URL')}")
        with urllib.request.urlopen(E("TOKENIZER_URL"), timeout=10) as resp:
            open("/tmp/r16_tok.json", "wb").write(resp.read())
    if E("EXT_MODULE"):
        import importlib
        ext = importlib.import_module(E("EXT_MODULE"))
        log(f"using fused optimizer kernels from {ext.__file__}")
    dist.init_process_group(
        "gloo", timeout=datetime.timedelta(seconds=int(E("TIMEOUT_S", "15")))
    )
    log("process group initialised (backend=gloo)")
    if E("HANDLE_SIGTERM"):
        import signal

        def _on_term(signum, frame):
            log(f"received signal {signum} ({signal.Signals(signum).name}): stopping, last completed step was not checkpointed")
            sys.exit(128 + signum)

        signal.signal(signal.SIGTERM, _on_term)

    if FAULT == "cuda" and rank == FAULT_RANK:
        device = torch.device(f"cuda:{local_rank}")
    else:
        device = torch.device("cpu")

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, HID), nn.ReLU(), nn.Linear(HID, 1)).to(device)

    resume = E("RESUME")
    if resume:
        path = resume.format(rank=rank)
        log(f"resuming from {path}")
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd["model"])
        log(f"resumed at step {sd.get('step')}")

    if E("NODDP"):
        ddp = model  # manual gradient averaging below
    else:
        ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=float(E("LR", "0.01")))
    n = int(E("NSAMPLES", "4096"))
    if FAULT == "uneven" and rank == FAULT_RANK:
        n = int(E("SHORT_N", "64"))
    ds = Shards(rank, n, E("DATA_DIR"))
    dl = DataLoader(ds, batch_size=int(E("BATCH", "8")), num_workers=int(E("NUM_WORKERS", "0")))
    log(f"dataset ready: {len(ds)} samples, {len(dl)} batches/epoch")

    if FAULT == "bg_thread":
        import queue
        import threading
        q = queue.Queue(maxsize=4)

        def prefetch():
            meta = {"shard": rank, "tokens": 1024}
            for k in range(10**6):
                if rank == FAULT_RANK and k == FAULT_STEP:
                    meta = {"shard": rank}
                q.put((k, meta["tokens"] // 8))

        threading.Thread(target=prefetch, name="prefetch-meta", daemon=True).start()

    step = 0
    t0 = time.time()
    done = False
    epoch = 0
    while not done:
        for x, y in dl:
            x, y = x.to(device), y.to(device)
            if FAULT == "nan" and rank == FAULT_RANK and step == FAULT_STEP:
                x = x.clone(); x[3, 7] = float("inf")
            if FAULT == "bg_thread":
                q.get()
            if FAULT == "oom" and rank == FAULT_RANK and step == FAULT_STEP:
                cg = E("CGROUP")
                if cg:
                    with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                        f.write(str(os.getpid()))
                cache = []
                log("building eval cache")
                while True:
                    cache.append(torch.ones(16 * 1024 * 1024 // 4))
            if FAULT == "lock" and rank == FAULT_RANK and step == FAULT_STEP:
                import fcntl
                log("refreshing shard index")
                fh = open(E("LOCK_FILE"), "a")
                fcntl.flock(fh, fcntl.LOCK_EX)
            if FAULT == "segv" and rank == FAULT_RANK and step == FAULT_STEP:
                import ctypes
                ctypes.string_at(0)
            if FAULT == "abort" and rank == FAULT_RANK and step == FAULT_STEP:
                os.abort()
            if FAULT == "recursion" and rank == FAULT_RANK and step == FAULT_STEP:
                def flatten(node):
                    if isinstance(node, list):
                        out = []
                        for c in node:
                            out.extend(flatten(c))
                        return out
                    return [node]
                tree = []
                cur = tree
                for _ in range(5000):
                    nxt = []
                    cur.append(nxt)
                    cur = nxt
                flatten(tree)
            out = ddp(x)
            loss = nn.functional.mse_loss(out, y)
            if E("DIVERGE"):
                loss = loss * (1.9 ** step)
            if FAULT == "assert" and rank == FAULT_RANK and step == FAULT_STEP:
                assert out.shape[0] == int(E("BATCH", "8")) * 2, f"expected packed batch, got {tuple(out.shape)}"
            if E("CHECK_FINITE") and not torch.isfinite(loss):
                raise FloatingPointError(f"Loss is {loss.item()} at step {step}, rank {rank}; stopping")
            opt.zero_grad()
            loss.backward()
            if E("NODDP"):
                for p in model.parameters():
                    dist.all_reduce(p.grad)
                    p.grad /= world
            opt.step()
            if E("DIVERGE") and rank == 0 and loss.item() > 1e6:
                raise RuntimeError(f"loss diverged: {loss.item():.4g} at step {step} (threshold 1e6)")
            if FAULT == "coll_shape" and step == FAULT_STEP:
                k = 4 if rank != FAULT_RANK else 5
                stats = torch.tensor([loss.item()] * k)
                dist.all_reduce(stats)
            if FAULT == "coll_op" and step == FAULT_STEP:
                t = torch.tensor([loss.item()])
                if rank == FAULT_RANK:
                    dist.broadcast(t, src=0)
                else:
                    dist.all_reduce(t)
            if step % int(E("LOG_EVERY", "5")) == 0:
                lt = loss.detach().clone()
                dist.all_reduce(lt)
                if rank == 0:
                    log(f"step {step} loss {lt.item() / world:.4f} ({(time.time() - t0):.1f}s)")
            ce = int(E("CKPT_EVERY", "0"))
            if ce and step > 0 and step % ce == 0:
                save_rank = int(E("SAVE_RANK", "0"))
                if E("SAVE_ALL") or rank == save_rank:
                    d = E("CKPT_DIR").format(rank=rank)
                    p = os.path.join(d, f"step{step:06d}_rank{rank}.pt" if E("SAVE_ALL") else f"step{step:06d}.pt")
                    log(f"saving checkpoint to {p}")
                    obj = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                           "pad": torch.zeros(int(E("CKPT_PAD", "0")))}
                    if E("SAVE_VIA_FILEOBJ"):
                        with open(p, "wb") as fh:
                            torch.save(obj, fh)
                            fh.flush()
                            os.fsync(fh.fileno())
                    else:
                        torch.save(obj, p)
                    log("checkpoint saved")
                dist.barrier()
            time.sleep(float(E("STEP_SLEEP", "0.05")))
            step += 1
            if step >= STEPS:
                done = True
                break
        epoch += 1
        if FAULT == "uneven":
            break
    log(f"training finished after {step} steps")
    if FAULT != "uneven":
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
