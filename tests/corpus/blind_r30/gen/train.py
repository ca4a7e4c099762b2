#!/usr/bin/env python
"""Tiny DDP trainer (gloo, CPU) with real, opt-in faults for blind evaluation runs."""
import argparse, logging, os, sys, time, math, json, signal, resource, warnings, traceback
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader, DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=200)
p.add_argument("--epochs", type=int, default=1000)
p.add_argument("--bs", type=int, default=8)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--opt", default="sgd")
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--n", type=int, default=4096)
p.add_argument("--label-noise", type=float, default=0.2)
p.add_argument("--log-every", type=int, default=1)
p.add_argument("--log-all", action="store_true")
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--fault", default="none")
p.add_argument("--fault-rank", type=int, default=1)
p.add_argument("--fault-step", type=int, default=50)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--resume", default="")
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--amp", action="store_true")
p.add_argument("--init-scale", type=float, default=2.0 ** 16)
p.add_argument("--growth-interval", type=int, default=2000)
p.add_argument("--spawn", type=int, default=0)
p.add_argument("--port", type=int, default=0)
p.add_argument("--data-dir", default="")
p.add_argument("--print-config", action="store_true")
p.add_argument("--pidfile-dir", default="")
p.add_argument("--train-frac", type=float, default=1.0)
args = p.parse_args()

D_IN, N_CLS = 32, 10
_LEAK = []


class Blobs(Dataset):
    def __init__(self, n, seed, label_noise, fault=None, fault_idx=()):
        g = torch.Generator().manual_seed(1234)
        self.centers = torch.randn(N_CLS, D_IN, generator=g) * 1.2
        g2 = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, N_CLS, (n,), generator=g2)
        self.x = self.centers[self.y] + torch.randn(n, D_IN, generator=g2) * 1.5
        flip = torch.rand(n, generator=g2) < label_noise
        self.y[flip] = torch.randint(0, N_CLS, (int(flip.sum()),), generator=g2)
        self.fault, self.fault_idx = fault, set(fault_idx)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        if self.fault == "dl_exc" and i in self.fault_idx:
            rec = {"id": i, "text": None}
            # a corrupt record: the decode below raises a real exception
            tokens = rec["text"].split()
            return torch.tensor([len(tokens)]), 0
        return self.x[i], self.y[i]


class MLP(nn.Module):
    def __init__(self, h, half=False):
        super().__init__()
        self.fc1 = nn.Linear(D_IN, h)
        self.fc2 = nn.Linear(h, h)
        self.fc3 = nn.Linear(h, N_CLS)
        self.half_mid = half

    def forward(self, x):
        x = F.relu(self.fc1(x))
        if self.half_mid:
            x = (x.half() @ self.fc2.weight.half().t()).float() + self.fc2.bias
        else:
            x = self.fc2(x)
        x = F.relu(x)
        return self.fc3(x)


def setup_logging(rank):
    fmt = "%(asctime)s %(levelname)s [train] %(message)s"
    logging.basicConfig(level=logging.INFO, format=fmt, stream=sys.stdout, force=True)
    return logging.getLogger("train")


def main(local_spawn_rank=None):
    if local_spawn_rank is not None:
        os.environ["RANK"] = str(local_spawn_rank)
        os.environ["LOCAL_RANK"] = str(local_spawn_rank)
        os.environ["WORLD_SIZE"] = str(args.spawn)
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ["MASTER_PORT"] = str(args.port)
    if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]
        os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    torch.set_num_threads(1)
    log = setup_logging(rank)
    if args.pidfile_dir:
        os.makedirs(args.pidfile_dir, exist_ok=True)
        open(f"{args.pidfile_dir}/rank{rank}.pid", "w").write(str(os.getpid()))
    verbose = args.log_all or rank == 0
    pre = f"rank {rank}: " if args.log_all else ""

    dist.init_process_group("gloo", timeout=timedelta(seconds=args.pg_timeout))
    if verbose:
        log.info("%sinitialized process group backend=gloo world_size=%d timeout_s=%d", pre, world, args.pg_timeout)
    if args.print_config and rank == 0:
        cfg = {k: v for k, v in vars(args).items()}
        cfg.update({"timeout_s": args.pg_timeout, "max_error_rate": 0.25, "nan_check": True,
                    "on_error": "skip_batch", "retry_timeout_s": 30})
        log.info("config: %s", json.dumps(cfg, sort_keys=True))

    if args.fault == "warnings":
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                      "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning)
        warnings.warn("This DataLoader will create 4 worker processes in total. Our suggested max number "
                      "of worker in current system is 2, which is smaller than what this DataLoader is going "
                      "to create.", UserWarning)

    # data
    if args.data_dir:
        shard = os.path.join(args.data_dir, f"shard_{rank:03d}.pt")
        if args.fault == "emfile" and rank == args.fault_rank:
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))
        if args.fault == "emfile" and rank == args.fault_rank:
            handles = []
            for fn in sorted(os.listdir(args.data_dir)):
                handles.append(open(os.path.join(args.data_dir, fn), "rb"))  # keeps every index file open
        log.info("%sloading shard %s", pre, shard)
        blob = torch.load(shard)
        ds = Blobs(1, 0, 0.0)
        ds.x, ds.y = blob["x"], blob["y"]
    else:
        fidx = range(0, 10 ** 9) if False else ()
        ds = Blobs(args.n, 7, args.label_noise, fault=args.fault if rank == args.fault_rank else None,
                   fault_idx=set())
    if args.fault == "dl_exc" and rank == args.fault_rank:
        sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=0)
        idxs = list(iter(sampler))
        ds.fault_idx = {idxs[args.fault_step * args.bs + 3]}
    n_local = None
    if args.fault == "uneven":
        # rank fault_rank got a short shard
        if rank == args.fault_rank:
            ds.x, ds.y = ds.x[: len(ds.y) // 3], ds.y[: len(ds.y) // 3]
        sampler = torch.utils.data.RandomSampler(ds, generator=torch.Generator().manual_seed(rank))
    else:
        sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=0)
    dl = DataLoader(ds, batch_size=args.bs, sampler=sampler, num_workers=args.workers, drop_last=True,
                    persistent_workers=args.workers > 0)
    evx = Blobs(512, 99, 0.0)

    torch.manual_seed(0)
    hidden = args.hidden
    if args.fault == "model_mismatch" and rank == args.fault_rank:
        hidden = int(os.environ.get("HIDDEN_OVERRIDE", hidden))  # stale env var left on one node
    model = MLP(hidden, half=(args.fault == "scaler_collapse"))
    ddp = nn.parallel.DistributedDataParallel(model)
    if args.opt == "adam":
        opt = torch.optim.Adam(ddp.parameters(), lr=args.lr)
    else:
        opt = torch.optim.SGD(ddp.parameters(), lr=args.lr, momentum=0.9)
    scaler = torch.amp.GradScaler("cpu", init_scale=args.init_scale, growth_interval=args.growth_interval) if args.amp else None

    step = 0
    if args.resume:
        log.info("%sresuming from %s", pre, args.resume)
        st = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        step = st["step"]
        log.info("%sresumed at step %d", pre, step)

    if args.fault == "caught" and rank == 0:
        try:
            with open(os.path.join(args.ckpt_dir or "/tmp", "optional_vocab_override.json")) as f:
                json.load(f)
        except FileNotFoundError:
            log.exception("optional vocab override not found, using defaults")
        for attempt in range(3):
            try:
                if attempt == 0:
                    # first attempt: the tracker endpoint refuses (nothing listens on this port)
                    import socket
                    s = socket.create_connection(("127.0.0.1", 36999), timeout=2)
                    s.close()
                log.info("metrics tracker connected on attempt %d", attempt + 1)
                break
            except OSError:
                log.warning("metrics tracker connection failed (attempt %d/3), retrying in 1s", attempt + 1,
                            exc_info=True)
                time.sleep(1)

    if args.fault == "store_retry":
        store = dist.distributed_c10d._get_default_store()
        if rank == 1:
            time.sleep(3.5)  # rank 1 prepares the vocab cache before announcing it
            store.set("vocab_ready", "1")
        elif rank == 0:
            for attempt in range(1, 4):
                try:
                    store.wait(["vocab_ready"], timedelta(seconds=2))
                    log.info("vocab cache ready (attempt %d)", attempt)
                    break
                except Exception:
                    log.warning("waiting for vocab cache timed out (attempt %d/3), retrying", attempt, exc_info=True)
        dist.barrier()

    t0 = time.time()
    base_lr = args.lr
    done = False
    epoch = 0
    ema = None
    while not done and epoch < args.epochs:
        if hasattr(sampler, "set_epoch"):
            sampler.set_epoch(epoch)
        it = iter(dl)
        bi = 0
        while True:
            if args.fault == "dl_kill" and rank == args.fault_rank and step == args.fault_step:
                wpids = [w.pid for w in it._workers]
                log.info("%sstep %d: data loader workers %s", pre, step, wpids) if False else None
                os.kill(wpids[0], signal.SIGKILL)
                time.sleep(1.0)
            try:
                xb, yb = next(it)
            except StopIteration:
                break
            bi += 1
            if step >= args.steps:
                done = True
                break
            # --- faults before forward
            if rank == args.fault_rank and step == args.fault_step:
                if args.fault == "hang_read":
                    path = os.path.join(args.ckpt_dir or "/tmp", f"stream_rank{rank}.fifo")
                    if not os.path.exists(path):
                        os.mkfifo(path)
                    with open(path, "rb") as f:  # blocks: nobody ever writes
                        f.read(1)
                if args.fault == "oom":
                    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
                    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, hard))
                    buf = torch.empty(int(4 * 1024 ** 3 // 4), dtype=torch.float32)
                if args.fault == "dtype":
                    import numpy as np
                    xb = torch.from_numpy(xb.numpy().astype(np.float64))
                if args.fault == "shape":
                    xb = xb.reshape(args.bs, -1, D_IN // 2).flatten(1)[:, : D_IN - 1]
                if args.fault == "exc_other":
                    stats = {"loss": 0.0, "acc": 0.0}
                    _ = stats["grad_norm"] / 1.0
            if args.fault == "leak" and rank == args.fault_rank and step >= args.fault_step:
                _LEAK.append(torch.ones(25_000_000))  # caches every batch's activations by mistake
            if args.fault in ("nan_raise", "nan_skip") and rank == args.fault_rank and step == args.fault_step:
                xb = xb.clone(); xb[0, 0] = float("nan")
            if args.fault == "scaler_collapse" and rank == args.fault_rank and step >= args.fault_step:
                xb = xb * 4000.0
            # lr schedules
            lr = base_lr
            if args.fault == "spike" and args.fault_step <= step < args.fault_step + 4:
                lr = base_lr * 60
            if args.fault == "diverge" and step >= args.fault_step:
                lr = base_lr * min(300, 1.05 ** (step - args.fault_step))
            for gparam in opt.param_groups:
                gparam["lr"] = lr

            out = ddp(xb)
            loss = F.cross_entropy(out, yb)

            if args.fault == "nan_skip":
                ok = torch.tensor([1.0 if torch.isfinite(loss) else 0.0])
                dist.all_reduce(ok, op=dist.ReduceOp.MIN)
                if ok.item() < 1:
                    log.warning("rank %d: non-finite loss %s at step %d, skipping batch (skip count 1)", rank,
                                loss.item(), step) if not torch.isfinite(loss) else log.warning(
                        "rank %d: skipping step %d because another rank saw a non-finite loss", rank, step)
                    opt.zero_grad(set_to_none=True)
                    step += 1
                    continue
            if args.fault == "nan_raise" and not torch.isfinite(loss):
                raise FloatingPointError(f"loss is {loss.item()} at step {step} (rank {rank}); stopping")

            opt.zero_grad(set_to_none=True)
            if scaler is not None:
                scaler.scale(loss).backward()
                old = scaler.get_scale()
                scaler.step(opt)
                scaler.update()
                new = scaler.get_scale()
                if new < old and verbose:
                    log.warning("%sstep %d: gradient overflow, skipping update; loss scale %g -> %g", pre, step, old, new)
                elif new > old and verbose:
                    log.info("%sstep %d: loss scale raised %g -> %g", pre, step, old, new)
                if args.fault == "scaler_collapse" and new < 1.0:
                    raise RuntimeError(f"Current loss scale already at minimum ({new}) - cannot decrease "
                                       f"scale anymore. Exiting run.")
            else:
                loss.backward()
                opt.step()

            if args.fault == "mismatch" and step == args.fault_step:
                m = torch.tensor([loss.item(), 1.0]) if rank != args.fault_rank else torch.tensor([loss.item(), 1.0, float(bi)])
                dist.all_reduce(m)

            with torch.no_grad():
                acc = (out.argmax(1) == yb).float().mean().item()
            if verbose and step % args.log_every == 0:
                log.info("%sepoch %d step %d loss %.4f acc %.3f error_rate %.3f lr %.4g step_time_ms %.1f", pre,
                         epoch, step, loss.item(), acc, 1 - acc, lr, (time.time() - t0) * 1000 / (step + 1))
            if args.eval_every and step % args.eval_every == 0 and step > 0 and rank == 0:
                with torch.no_grad():
                    ev = F.cross_entropy(model(evx.x), evx.y).item()
                    eacc = (model(evx.x).argmax(1) == evx.y).float().mean().item()
                log.info("eval step %d eval_loss %.4f eval_acc %.3f", step, ev, eacc)
            if args.fault == "caught_eval" and rank == 0 and step == args.fault_step:
                try:
                    torch.load(os.path.join(args.ckpt_dir or "/tmp", "heldout_eval_shard.pt"))
                except FileNotFoundError:
                    log.exception("held-out eval shard missing at step %d; skipping this eval", step)
            if args.ckpt_every and step % args.ckpt_every == 0 and step > 0 and rank == 0:
                path = os.path.join(args.ckpt_dir, f"ckpt_step{step}.pt")
                log.info("saving checkpoint to %s", path)
                st = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step + 1,
                      "pad": torch.zeros(args.hidden * 2000)}
                torch.save(st, path)
                log.info("checkpoint saved (%d bytes)", os.path.getsize(path))
            if args.fault == "sigkill_wait" and step == args.fault_step:
                open(os.path.join(args.pidfile_dir, f"reached_{rank}"), "w").close()
            if args.step_sleep:
                time.sleep(args.step_sleep)
            step += 1
        epoch += 1
        if args.fault == "uneven" and rank == args.fault_rank:
            log.info("rank %d: reached end of its data after %d steps", rank, step)
            return  # ends its loop early and exits 0
    if verbose:
        log.info("%straining finished: %d steps in %.1fs", pre, step, time.time() - t0)
    if args.ckpt_dir and args.fault in ("resume_first",) and rank == 0:
        pass
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.spawn:
        import torch.multiprocessing as mp
        mp.spawn(lambda *a: None, nprocs=0) if False else None
        mp.spawn(main, nprocs=args.spawn, join=True)
    else:
        main()
