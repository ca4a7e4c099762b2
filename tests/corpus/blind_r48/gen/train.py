#!/usr/bin/env python3
"""Tiny CPU DDP trainer (gloo) with several logging styles and real failure modes.

Launch with torchrun, srun (SLURM_PROCID), or `--spawn N` (mp.spawn).
Every failure below is real: raised by Python/torch, killed by the kernel or a signal, or a real block.
"""
import argparse, datetime, json, logging, os, queue, signal, sys, threading, time, warnings

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed.elastic.multiprocessing.errors import record


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="none")
    p.add_argument("--fail-rank", type=int, default=-1)
    p.add_argument("--fail-step", type=int, default=30)
    p.add_argument("--steps", type=int, default=80)
    p.add_argument("--style", default="print")  # print | logging | json | tqdm | trainer
    p.add_argument("--sleep", type=float, default=0.1)
    p.add_argument("--timeout", type=float, default=30)
    p.add_argument("--ckpt-dir", default="")
    p.add_argument("--ckpt-every", type=int, default=0)
    p.add_argument("--resume", default="")
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--spawn", type=int, default=0)
    p.add_argument("--port", type=int, default=57000)
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--all-ranks-log", action="store_true")
    p.add_argument("--noise", action="store_true")
    return p.parse_args()


class Logger:
    """print / logging / json lines / tqdm / a small trainer-framework format."""

    def __init__(self, style, rank, world):
        self.style, self.rank, self.world = style, rank, world
        if style == "logging":
            logging.basicConfig(level=logging.INFO,
                                format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
            self.log = logging.getLogger("train")
        elif style == "trainer":
            self.log = None
        self.bar = None

    def info(self, msg, **kv):
        if self.style == "logging":
            self.log.info(msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())))
        elif self.style == "json":
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": "info",
                              "rank": self.rank, "msg": msg, **kv}), flush=True)
        elif self.style == "trainer":
            ts = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
            print(f"[{ts}][fabrik.engine][INFO][{self.rank}/{self.world}] {msg}"
                  + ("" if not kv else " | " + " | ".join(f"{k}: {v}" for k, v in kv.items())), flush=True)
        else:
            print(f"[{time.strftime('%H:%M:%S')}] {msg}" + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())),
                  flush=True)

    def step(self, step, total, loss, dt):
        if self.style == "tqdm":
            if self.bar is None:
                from tqdm import tqdm
                self.bar = tqdm(total=total, desc=f"train r{self.rank}", file=sys.stderr, mininterval=0.5)
            self.bar.update(1)
            self.bar.set_postfix(loss=f"{loss:.4f}")
            if step % 20 == 0:
                self.bar.write(f"step {step}/{total} loss {loss:.4f}")
        else:
            self.info("step", step=step, total=total, loss=f"{loss:.4f}", step_time=f"{dt:.3f}s")

    def close(self):
        if self.bar is not None:
            self.bar.close()


class ShardDataset(torch.utils.data.Dataset):
    """Synthetic records stored as JSON strings, parsed in __getitem__ (like a jsonl shard)."""

    def __init__(self, args, rank, n=4000):
        self.args, self.rank, self.n = args, rank, n
        self.opened = []

    def __len__(self):
        return self.n

    def record(self, i):
        g = torch.Generator().manual_seed(i * 131 + self.rank)
        x = torch.randn(16, generator=g)
        return json.dumps({"id": i, "x": x.tolist(), "y": float(x.sum() * 0.3)})

    def __getitem__(self, i):
        a = self.args
        text = self.record(i)
        bad = (self.rank == a.fail_rank and i == a.fail_step * 8 + 3)
        if a.mode == "data" and bad:
            text = text[: len(text) // 2] + "\x00" + text[len(text) // 2:]  # a torn record
        if a.mode == "emfile" and self.rank == a.fail_rank:
            # per-sample shard handle that is never closed (a leak); the rank runs with a low ulimit -n
            self.opened.append(open(__file__, "rb"))
        if a.mode == "workerkill" and bad:
            os.kill(os.getpid(), signal.SIGKILL)
        rec = json.loads(text)
        x = torch.tensor(rec["x"])
        if a.mode == "nan" and bad:
            x[5] = float("inf")
        if a.mode == "shape" and self.rank == a.fail_rank and i >= a.fail_step * 8:
            x = torch.cat([x, torch.zeros(4)])
        return x, torch.tensor([rec["y"]])


class Plain(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.module = m

    def forward(self, x):
        return self.module(x)


def setup(args, spawn_rank=None):
    if spawn_rank is not None:
        rank, world = spawn_rank, args.spawn
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(args.port))
    elif "RANK" in os.environ:
        rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    else:
        rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(args.port))
    return rank, world


@record
def main(spawn_rank=None):
    args = parse()
    rank, world = setup(args, spawn_rank)
    if args.mode == "oom" and rank == args.fail_rank and os.environ.get("OOM_CGROUP"):
        # harness: put this rank (only) under a memory-limited cgroup v1 group; the kernel OOM killer does the rest
        with open(os.path.join(os.environ["OOM_CGROUP"], "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
    if args.mode == "restartonce" and rank == args.fail_rank and not os.path.exists(args.ckpt_dir + "/.attempted"):
        open(args.ckpt_dir + "/.attempted", "w").close()
        args.mode = "data"
    torch.set_num_threads(1)
    log = Logger(args.style, rank, world)
    if args.noise:
        warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) instead.",
                      FutureWarning)
        if rank == 0:
            print("[W socket.cpp:759] [c10d] The client socket has failed to connect to [localhost]:29500 "
                  "(errno: 99 - Cannot assign requested address).", file=sys.stderr, flush=True)
    if args.mode == "import":
        import apex  # noqa: F401  (the fused optimizer this config asks for)
    if args.mode == "hub" and rank == 0:
        import urllib.request
        log.info("downloading tokenizer", url=f"http://127.0.0.1:{args.port + 1}/models/tiny-lm/tokenizer.json")
        urllib.request.urlopen(f"http://127.0.0.1:{args.port + 1}/models/tiny-lm/tokenizer.json", timeout=10).read()
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=args.timeout))
    log.info("process group ready", backend="gloo", world_size=world, rank=rank)
    if args.mode == "emfile" and rank == args.fail_rank:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (96, 96))

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 1))
    if args.mode == "loadmismatch":
        model = nn.Sequential(nn.Linear(16, args.hidden * 2), nn.ReLU(), nn.Linear(args.hidden * 2, 1))
    start = 0
    if args.resume:
        if args.mode == "corrupt":
            # rank 0 reads the checkpoint and broadcasts it
            objs = [None]
            if rank == 0:
                log.info("resuming", path=args.resume)
                objs[0] = torch.load(args.resume, map_location="cpu")
            dist.broadcast_object_list(objs, src=0)
            sd = objs[0]
        else:
            log.info("resuming", path=args.resume)
            sd = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(sd["model"])
        start = sd["step"]
    if args.mode == "mismatch":
        model = Plain(model)  # gradients averaged by hand below (DDP segfaults under DEBUG=DETAIL here)
    else:
        model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    ds = ShardDataset(args, rank)
    sampler = torch.utils.data.SequentialSampler(ds)
    dl = torch.utils.data.DataLoader(ds, batch_size=8, sampler=sampler, num_workers=args.workers,
                                     persistent_workers=args.workers > 0)
    it = iter(dl)

    ckpt_thread = {"t": None, "err": None}

    def async_save(state, path):
        def run():
            torch.save(state, path)
        t = threading.Thread(target=run, name="ckpt-writer", daemon=True)
        t.start()
        ckpt_thread["t"] = t

    if args.mode == "oom" and rank == args.fail_rank:
        hog = []
    log.info("starting training", steps=args.steps, start=start, lr=args.lr)
    for step in range(start + 1, args.steps + 1):
        t0 = time.time()
        x, y = next(it)
        if args.mode == "hang" and rank == args.fail_rank and step == args.fail_step:
            time.sleep(100000)  # silently blocked (e.g. a stuck filesystem read): no message
        if args.mode == "earlyexit" and rank == args.fail_rank and step == args.fail_step:
            log.info("reached max_steps for this shard, exiting", step=step)
            sys.exit(0)
        if args.mode == "segv" and rank == args.fail_rank and step == args.fail_step:
            import ctypes
            ctypes.string_at(0)
        if args.mode == "oom" and rank == args.fail_rank and step >= args.fail_step:
            log.info("building activation cache", step=step, cached_mb=len(hog) * 256)
            for _ in range(4):
                hog.append(bytearray(256 * 1024 * 1024))
                for k in range(0, len(hog[-1]), 4096):
                    hog[-1][k] = 1
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        if args.mode == "nan" and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step} (rank {rank}); stopping")
        opt.zero_grad()
        loss.backward()
        if args.mode == "mismatch":
            for prm in model.parameters():
                dist.all_reduce(prm.grad)
                prm.grad /= world
        opt.step()
        if args.mode == "mismatch" and step == args.fail_step:
            n = 5 if rank == args.fail_rank else 4
            metrics = torch.zeros(n)
            dist.all_reduce(metrics)
        if args.mode == "divergence":
            pass
        # loss across ranks for logging
        l = loss.detach().clone()
        dist.all_reduce(l)
        l = l.item() / world
        if step % args.log_every == 0 and (rank == 0 or args.all_ranks_log):
            log.step(step, args.steps, l, time.time() - t0)
        elif args.style == "tqdm" and rank == 0:
            log.step(step, args.steps, l, time.time() - t0)
        if args.ckpt_every and step % args.ckpt_every == 0:
            if rank == 0:
                path = os.path.join(args.ckpt_dir, f"step_{step:06d}.pt")
                state = {"model": model.module.state_dict(), "step": step}
                if args.mode == "asyncfull":
                    if ckpt_thread["t"] is not None:
                        ckpt_thread["t"].join()
                        if not os.path.exists(ckpt_thread["path"]) or os.path.getsize(ckpt_thread["path"]) == 0:
                            raise RuntimeError(f"async checkpoint {ckpt_thread['path']} was not written; "
                                               f"the writer thread failed")
                    log.info("async checkpoint started", path=path)
                    async_save(state, path)
                    ckpt_thread["path"] = path
                else:
                    log.info("saving checkpoint", path=path)
                    t1 = time.time()
                    torch.save(state, path)
                    log.info("checkpoint saved", path=path, seconds=f"{time.time() - t1:.2f}")
            dist.barrier()
        time.sleep(args.sleep)
    log.close()
    dist.barrier()
    log.info("training complete", steps=args.steps)
    dist.destroy_process_group()


if __name__ == "__main__":
    a = parse()
    if a.spawn:
        import torch.multiprocessing as mp
        mp.spawn(main, nprocs=a.spawn, args=())
    else:
        main()
