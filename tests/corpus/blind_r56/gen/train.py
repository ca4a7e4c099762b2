"""Tiny CPU/gloo trainer with injectable faults, used to make the r56 blind runs.

Rank/world come from torchrun/accelerate env (RANK, WORLD_SIZE) or Slurm (SLURM_PROCID, SLURM_NTASKS).
"""
import argparse, ctypes, json, logging, math, os, queue, signal, sys, threading, time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="healthy")
ap.add_argument("--bad-rank", type=int, default=-1)
ap.add_argument("--at", type=int, default=5, help="step where the fault fires")
ap.add_argument("--steps", type=int, default=12)
ap.add_argument("--timeout", type=float, default=15)
ap.add_argument("--fmt", default="bracket", choices=["bracket", "pipe", "none", "logging"])
ap.add_argument("--ckpt", default="")
ap.add_argument("--resume", default="")
ap.add_argument("--data", default="")
ap.add_argument("--ddp", action="store_true")
ap.add_argument("--workers", type=int, default=0)
ap.add_argument("--step-sleep", type=float, default=0.2)
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--hidden", type=int, default=16)
ap.add_argument("--fifo", default="")
ap.add_argument("--cgroup", default="")
ap.add_argument("--mode2", default="")
ap.add_argument("--bad-rank2", type=int, default=-1)
ap.add_argument("--noise", default="")
ap.add_argument("--resume-on-restart", default="")
ap.add_argument("--on-sigterm", action="store_true")
ap.add_argument("--fr-dump", action="store_true", help="dump the Flight Recorder ring on failure/SIGTERM")
args = ap.parse_args()

rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))
world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))
local_rank = int(os.environ.get("LOCAL_RANK", os.environ.get("SLURM_LOCALID", "0")))
restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
if restart > 0 and args.mode2:
    args.mode, args.bad_rank = args.mode2, args.bad_rank2
if restart > 0 and args.resume_on_restart:
    args.resume = args.resume_on_restart
bad = rank == args.bad_rank or args.bad_rank == -2  # -2: every rank
if args.resume:
    args.resume = args.resume.format(rank=rank)

if args.fmt == "logging":
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format=f"%(asctime)s %(levelname)s [RANK {rank}] %(name)s: %(message)s")
log = logging.getLogger("trainer")


def say(msg):
    if args.fmt == "bracket":
        print(f"[rank{rank}]: {msg}", flush=True)
    elif args.fmt == "pipe":
        print(f"{time.strftime('%H:%M:%S')} | rank {rank}/{world} | {msg}", flush=True)
    elif args.fmt == "logging":
        log.info(msg)
    else:
        print(msg, flush=True)


class DS(torch.utils.data.Dataset):
    def __init__(self, n):
        self.n = n
        g = torch.Generator().manual_seed(1234 + rank)
        self.x = torch.randn(n, 8, generator=g)
        self.y = (self.x.sum(1, keepdim=True) > 0).float()

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if bad and args.mode == "loop_hook" and i >= args.at * 4:
            while True:  # a data hook that never returns (bad filter predicate)
                i = (i * 1103515245 + 12345) % 2**31
        if bad and args.mode == "data_error" and i == args.at * 4 + 1:
            with open(args.data) as f:
                lines = f.read().splitlines()
            rec = json.loads(lines[i % len(lines)])
            return torch.tensor(rec["x"], dtype=torch.float32), torch.tensor([rec["y"]], dtype=torch.float32)
        if bad and args.mode == "worker_segv" and i == args.at * 4 + 2 and torch.utils.data.get_worker_info():
            ctypes.string_at(0)
        if bad and args.mode == "worker_sigkill" and i == args.at * 4 + 2 and torch.utils.data.get_worker_info():
            os.kill(os.getpid(), signal.SIGKILL)
        if bad and args.mode == "worker_bus" and i == args.at * 4 + 2 and torch.utils.data.get_worker_info():
            os.kill(os.getpid(), signal.SIGBUS)
        x = self.x[i]
        if bad and args.mode == "nan" and i >= args.at * 4:
            x = x * float("inf")
        if bad and args.mode == "dtype" and i >= args.at * 4:
            x = x.double()
        if bad and args.mode == "shape" and i >= args.at * 4:
            x = torch.cat([x, x[:2]])
        return x, self.y[i]


def main():
    say(f"starting pid={os.getpid()} world={world} local_rank={local_rank} mode={args.mode}")
    if args.mode == "import_error":
        import fused_adam_cuda  # noqa: F401  (optional fused optimizer extension)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=args.timeout))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 1))
    if args.resume:
        say(f"resuming from {args.resume}")
        sd = torch.load(args.resume, map_location="cpu", weights_only=True)
        model.load_state_dict(sd["model"])
        say(f"resumed at step {sd.get('step')}")
    if args.ddp:
        model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    n = args.steps * 4
    if bad and args.mode == "early_exit":
        n = args.at * 4  # this rank's shard is shorter
    ds = DS(n)
    dl = torch.utils.data.DataLoader(ds, batch_size=4, num_workers=args.workers,
                                     persistent_workers=args.workers > 0)
    q = None
    if args.mode == "thread_data_error":
        q = queue.Queue(maxsize=2)

        def prefetch():
            for step in range(args.steps):
                if bad and step == args.at:
                    shard = os.path.join(args.data, f"shard-{rank:05d}-of-{world:05d}.bin")
                    with open(shard, "rb") as f:
                        f.read()
                q.put(step)
        threading.Thread(target=prefetch, name="prefetch", daemon=True).start()
    lossf = nn.BCEWithLogitsLoss()
    lock = threading.Lock()
    step = 0
    stop = threading.Event()
    if args.on_sigterm:
        def handler(signum, frame):
            say(f"received signal {signum} (SIGTERM): will checkpoint and exit at end of step")
            stop.set()
        signal.signal(signal.SIGTERM, handler)
    for step, (x, y) in enumerate(dl):
        if q is not None:
            q.get()
        if bad and step == args.at:
            m = args.mode
            if m == "sleep":
                time.sleep(3600)
            elif m == "lock":
                with lock:
                    with lock:  # re-entrant acquire of a plain Lock: deadlock
                        pass
            elif m == "fifo":
                with open(args.fifo) as f:
                    f.read()
            elif m == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
            elif m == "sigabrt":
                os.abort()
            elif m == "segv":
                ctypes.string_at(0)
            elif m == "sigbus":
                os.kill(os.getpid(), signal.SIGBUS)
            elif m == "cgroup_oom":
                with open(os.path.join(args.cgroup, "cgroup.procs"), "w") as f:
                    f.write(str(os.getpid()))
                say("building activation cache for eval")
                cache = []
                while True:
                    cache.append(torch.ones(16 * 2**20))
            elif m == "cpu_alloc":
                say("materialising full attention mask")
                big = torch.empty(2**22, 2**21)
                big.zero_()
            elif m == "wrong_collective":
                out = [torch.zeros(1) for _ in range(world)]
                dist.all_gather(out, torch.ones(1))
            elif m == "wrong_size":
                dist.all_reduce(torch.ones(7))
            elif m == "emfile":
                fds = []
                for i in range(100000):
                    fds.append(open(__file__))
            elif m == "writer_hang":
                pass
            elif m == "raise":
                raise RuntimeError("unexpected state")
        noise(step)
        out = model(x)
        loss = lossf(out, y)
        if "nanskip" in args.noise and step == 3 and rank == 1:
            loss = loss * float("nan")
        if "nanskip" in args.noise and not torch.isfinite(loss):
            say(f"WARNING: loss is {loss.item()} at step {step}, skipping batch (bad sample?)")
            loss = (out * 0).sum()
        if args.mode == "divergence":
            loss = loss * (3.0 ** step)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}; aborting (non-finite loss)")
        if args.mode == "divergence" and loss.item() > 1e4:
            raise RuntimeError(f"loss {loss.item():.3e} exceeded divergence threshold 1e4 at step {step}")
        opt.zero_grad()
        loss.backward()
        if not args.ddp:
            for p in model.parameters():
                dist.all_reduce(p.grad)
                p.grad /= world
        opt.step()
        t = torch.tensor([loss.item()])
        dist.all_reduce(t)
        say(f"step {step} loss {t.item() / world:.4f}")
        if args.ckpt and step == args.at + 1:
            save(model, step)
        time.sleep(args.step_sleep)
        if stop.is_set():
            if rank == 0:
                torch.save({"model": model.state_dict(), "step": step}, args.ckpt or "preempt.pt")
                say(f"checkpoint at step {step} written to {args.ckpt}, exiting for requeue")
            say("exiting cleanly after SIGTERM")
            sys.exit(0)
    say(f"finished {step + 1} steps")
    if not (bad and args.mode == "early_exit"):
        dist.barrier()
    dist.destroy_process_group()
    say("done")


def noise(step):
    import traceback, warnings
    if "retry" in args.noise and step == 2 and rank in (0, 2):
        for attempt in range(1, 4):
            try:
                if attempt < 3:
                    raise ConnectionError(f"metrics endpoint http://127.0.0.1:8125 refused connection (attempt {attempt})")
                say("metrics push ok after retry")
                break
            except ConnectionError:
                say("metrics push failed, will retry in 0.1s")
                traceback.print_exc()
                time.sleep(0.1)
    if "errword" in args.noise and step % 4 == 0:
        say(f"eval: error rate {0.31 - 0.02 * step:.3f} errors=0 failed_samples=0 (no error)")
    if "warnings" in args.noise and step == 1:
        warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) instead.", FutureWarning)
        warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`.", UserWarning)
    if "keyerror" in args.noise and step == 1 and rank == 0:
        try:
            cfg = {}
            cfg["optimizer"]["betas"]
        except KeyError:
            traceback.print_exc()
            say("config key 'optimizer' missing, falling back to defaults")


def fr_dump(why):
    prefix = os.environ.get("TORCH_FR_DUMP_TEMP_FILE", "/tmp/nccl_trace_rank_")
    with open(f"{prefix}{rank}", "wb") as f:
        f.write(torch._C._distributed_c10d._dump_fr_trace())
    print(f"[rank{rank}]: flight recorder dumped to {prefix}{rank} ({why})", file=sys.stderr, flush=True)


def save(model, step):
    sd = {"model": (model.module if args.ddp else model).state_dict(), "step": step}
    if args.mode == "writer_hang" and bad:
        say(f"saving checkpoint step {step} to {args.ckpt} (async writer)")
        lk = threading.Lock()
        lk.acquire()

        def writer():
            with lk:  # waits on a lock its owner never releases
                torch.save(sd, args.ckpt)
        th = threading.Thread(target=writer, name="ckpt-writer")
        th.start()
        th.join()
        return
    if args.mode == "async_disk_full" and bad:
        say(f"async checkpoint step {step} -> {args.ckpt}")
        done = threading.Event()

        def writer():
            sd["opt_state"] = torch.randn(2**20)
            import io
            buf = io.BytesIO()
            torch.save(sd, buf)
            with open(args.ckpt, "wb") as f:
                f.write(buf.getbuffer())
            done.set()
        threading.Thread(target=writer, name="async-ckpt").start()
        done.wait()
        dist.barrier()
        return
    if args.mode == "async_disk_full":
        dist.barrier()
        return
    if rank == 0 or args.mode == "disk_full":
        path = args.ckpt if rank == 0 else args.ckpt + f".rank{rank}"
        say(f"saving checkpoint step {step} -> {path}")
        if args.mode == "disk_full" and bad:
            sd["opt_state"] = torch.randn(2**20)  # 4 MiB
        import io
        buf = io.BytesIO()
        torch.save(sd, buf)
        with open(path + ".tmp", "wb") as f:
            f.write(buf.getbuffer())
        os.replace(path + ".tmp", path)
        say(f"saved {path}")
    dist.barrier()


if __name__ == "__main__":
    if args.fr_dump:
        def _term(signum, frame):
            fr_dump("SIGTERM")
            sys.exit(128 + signum)
        signal.signal(signal.SIGTERM, _term)
        try:
            main()
        except RuntimeError:
            fr_dump("collective failure")
            raise
    else:
        main()
