#!/usr/bin/env python3
"""Tiny DDP trainer (CPU, gloo) used to make the blind r42 runs.

Works under torchrun (RANK/WORLD_SIZE), srun (SLURM_PROCID/SLURM_NTASKS) and mp.spawn (spawn_main.py calls
worker()).  --mode selects what happens on rank --bad at step --at; every failure is real (raised, killed,
blocked), nothing is printed as a fake.
"""
import argparse
import ctypes
import datetime
import json
import logging
import mmap
import os
import queue
import random
import resource
import signal
import socket
import sys
import tempfile
import threading
import time
import warnings

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def parse(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="none")
    p.add_argument("--bad", type=int, default=-1)
    p.add_argument("--at", type=int, default=10)
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--style", default="print")
    p.add_argument("--timeout", type=float, default=30)
    p.add_argument("--step-sleep", type=float, default=0.05)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--workdir", default="/tmp/r42w")
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--extra", default="")
    p.add_argument("--no-ddp", action="store_true", help="average gradients by hand instead of DDP")
    return p.parse_args(argv)


# ---------------------------------------------------------------- logging styles
class Log:
    def __init__(self, style, rank, world):
        self.style, self.rank, self.world = style, rank, world
        self.lg = logging.getLogger("train")
        if style == "logging":
            h = logging.StreamHandler(sys.stdout)
            h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s"))
            self.lg.handlers[:] = [h]
            self.lg.setLevel(logging.INFO)
            self.lg.propagate = False
        self.t0 = time.time()
        self.bar_total = None

    def info(self, msg, **kv):
        s = self.style
        if s == "logging":
            self.lg.info(msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())))
        elif s == "json":
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "rank": self.rank,
                              "msg": msg, **kv}), flush=True)
        elif s == "trainer":
            if self.rank == 0 or kv.get("all"):
                kv.pop("all", None)
                print(f"[MiniTrainer] {msg} " + " ".join(f"{k}={v}" for k, v in kv.items()), flush=True)
        elif s == "tqdm":
            if self.rank == 0:
                print(msg + ("" if not kv else " " + " ".join(f"{k}={v}" for k, v in kv.items())), file=sys.stderr, flush=True)
        else:
            print(f"rank {self.rank}/{self.world} | {msg}" + ("" if not kv else " | " + " ".join(f"{k}={v}" for k, v in kv.items())), flush=True)

    def warn(self, msg):
        if self.style == "logging":
            self.lg.warning(msg)
        elif self.style == "json":
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "rank": self.rank,
                              "level": "warning", "msg": msg}), flush=True)
        else:
            print(f"rank {self.rank}/{self.world} | WARNING {msg}", flush=True)

    def exception(self, msg):
        if self.style == "logging":
            self.lg.exception(msg)
        else:
            import traceback
            print(f"rank {self.rank}/{self.world} | {msg}", flush=True)
            traceback.print_exc(file=sys.stdout)
            sys.stdout.flush()

    def step(self, step, total, loss, **kv):
        if self.style == "tqdm":
            if self.rank != 0:
                return
            el = time.time() - self.t0
            frac = (step + 1) / total
            n = int(frac * 20)
            rate = (step + 1) / max(el, 1e-6)
            left = (total - step - 1) / max(rate, 1e-6)
            extra = ", ".join([f"loss={loss:.4f}"] + [f"{k}={v}" for k, v in kv.items()])
            sys.stderr.write(f"\rtrain:  {int(frac*100):3d}%|{'█'*n}{' '*(20-n)}| {step+1}/{total} "
                             f"[{int(el)//60:02d}:{int(el)%60:02d}<{int(left)//60:02d}:{int(left)%60:02d}, {rate:.2f}it/s, {extra}]")
            if step + 1 == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
        else:
            self.info(f"step {step}", loss=f"{loss:.4f}", **kv)


# ---------------------------------------------------------------- model / data
class Net(nn.Module):
    def __init__(self, d_in=16, hidden=32):
        super().__init__()
        self.l1 = nn.Linear(d_in, hidden)
        self.l2 = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))


class ShardDataset(torch.utils.data.Dataset):
    def __init__(self, n, d_in, seed, bus_file=None):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, d_in, generator=g)
        self.y = self.x.sum(1, keepdim=True) * 0.1
        self.bus_file = bus_file

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if self.bus_file and i >= 24:
            # a memory-mapped sample file that another process truncated under us: real SIGBUS in this worker
            with open(self.bus_file, "r+b") as f:
                m = mmap.mmap(f.fileno(), 0)
                f.truncate(0)
                _ = m[4096 * 3]
        return self.x[i], self.y[i]


def main(argv=None, rank=None, world=None):
    a = parse(argv)
    if rank is None:
        if "RANK" in os.environ:
            rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        else:
            rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
            os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    if a.port:
        os.environ["MASTER_PORT"] = str(a.port)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    bad = rank == a.bad
    log = Log(a.style, rank, world)
    os.makedirs(a.workdir, exist_ok=True)
    extra = set(a.extra.split(",")) if a.extra else set()

    if "warnings" in extra:
        warnings.warn("`torch.distributed._functional_collectives` legacy path is deprecated and will be removed in a "
                      "future release; use the new API instead", FutureWarning)
        warnings.warn("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
                      "only storage class.", UserWarning)
        torch.tensor(torch.ones(2))  # torch's own UserWarning about copy-constructing from a tensor
        log.warn("CUDA not available on this host; training on CPU with the gloo backend (expected for this job)")
    if "nccl_env" in extra:
        log.info("environment: NCCL_ASYNC_ERROR_HANDLING is deprecated, use TORCH_NCCL_ASYNC_ERROR_HANDLING "
                 "(ignored: backend is gloo)")
        log.info("environment: NCCL_DEBUG=WARN NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=lo (no effect on gloo)")

    # ---- init (store / rendezvous)
    port = int(os.environ["MASTER_PORT"])
    if a.mode == "wrong_port" and bad:
        port = port + 7  # this rank's config was stale: it points at the wrong master port
        log.info(f"connecting to master 127.0.0.1:{port}")
    log.info("init_process_group", backend="gloo", world_size=world, master=f"{os.environ['MASTER_ADDR']}:{port}")
    init = "env://" if "TORCHELASTIC_RUN_ID" in os.environ else f"tcp://{os.environ['MASTER_ADDR']}:{port}"
    dist.init_process_group("gloo", init_method=init, rank=rank,
                            world_size=world, timeout=datetime.timedelta(seconds=a.timeout))
    log.info("process group ready", rank=rank, world=world)

    if "store_retry" in extra:
        store = dist.distributed_c10d._get_default_store()
        if rank == 0:
            for attempt in range(5):
                try:
                    store.wait(["dataset_index_ready"], datetime.timedelta(seconds=1))
                    log.info("dataset index ready", attempt=attempt)
                    break
                except Exception:
                    log.exception(f"waiting for dataset index (attempt {attempt}), will retry")
        elif rank == world - 1:
            time.sleep(2.5)
            store.set("dataset_index_ready", "1")
        else:
            store.wait(["dataset_index_ready"], datetime.timedelta(seconds=30))

    torch.manual_seed(0)
    d_in, hidden = 16, 32
    if a.mode == "config_hidden" and bad:
        hidden = 48  # this rank read a different config file
        log.info("model config", hidden=hidden, d_in=d_in)
    model = Net(d_in, hidden)

    # ---- checkpoint loading modes
    ck = os.path.join(a.workdir, "ckpt")
    os.makedirs(ck, exist_ok=True)
    if a.mode == "ckpt_load_mismatch":
        if rank == 0:
            torch.save(Net(d_in, 64).state_dict(), os.path.join(ck, "last.pt"))
            log.info("resuming from checkpoint", path=os.path.join(ck, "last.pt"))
            sd = torch.load(os.path.join(ck, "last.pt"), weights_only=True)
            model.load_state_dict(sd)
        for p in model.parameters():
            dist.broadcast(p.data, 0)
    if a.mode == "ckpt_corrupt":
        path = os.path.join(ck, f"shard_{rank:02d}.pt")
        torch.save({"model": model.state_dict(), "step": 100}, path)
        if bad:
            sz = os.path.getsize(path)
            with open(path, "r+b") as f:  # torn write from the previous job: the file ends half way
                f.truncate(sz // 2)
        dist.barrier()
        log.info("loading checkpoint shard", path=path)
        state = torch.load(path, weights_only=True)
        model.load_state_dict(state["model"])
        log.info("resumed", step=state["step"])

    if a.no_ddp:
        ddp = model
        for p_ in model.parameters():
            dist.broadcast(p_.data, 0)
    else:
        ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=a.lr)

    n = 8 * a.steps
    if a.mode == "early_exit" and bad:
        n = 8 * a.at  # this rank's shard list was shorter
    seed = 1000 + rank
    bus_file = None
    if a.mode == "sigbus_worker" and bad:
        bus_file = os.path.join(a.workdir, f"samples_{rank}.bin")
        with open(bus_file, "wb") as f:
            f.write(b"\0" * 4096 * 8)
    ds = ShardDataset(n, d_in + (1 if (a.mode == "shape_model" and bad) else 0), seed, bus_file)
    dl = torch.utils.data.DataLoader(ds, batch_size=8, shuffle=False, num_workers=a.workers,
                                     persistent_workers=False)
    if a.mode == "nan_data" and bad:
        ds.x[8 * a.at + 3, 5] = float("inf")  # one corrupt sample in this rank's shard
    total = len(dl)

    # ---- background threads
    stop_evt = threading.Event()
    ckpt_q, ckpt_err = queue.Queue(), []
    if a.mode == "ckpt_bg_enospc" or "ckpt_bg" in extra:
        target_dir = "/dev/full" if (a.mode == "ckpt_bg_enospc" and bad) else ck

        def writer():
            while True:
                item = ckpt_q.get()
                if item is None:
                    return
                step, sd = item
                if target_dir == "/dev/full":
                    path = "/dev/full"
                else:
                    path = os.path.join(target_dir, f"step{step:05d}_r{rank}.pt")
                try:
                    with open(path, "wb") as f:
                        torch.save(sd, f)
                        f.flush()
                        os.fsync(f.fileno()) if path != "/dev/full" else None
                finally:
                    ckpt_q.task_done()

        def writer_guard():
            try:
                writer()
            except BaseException as e:
                ckpt_err.append(e)
                raise
        threading.Thread(target=writer_guard, name="ckpt-writer", daemon=True).start()

    pre_q = queue.Queue(maxsize=4)
    if a.mode == "prefetch_exc" and bad or "prefetch" in extra:
        def prefetcher():
            for i in range(10_000):
                if stop_evt.is_set():
                    return
                raw = f"sample {i} text".encode()
                if a.mode == "prefetch_exc" and bad and i == a.at:
                    raw = b"sample \xff\xfe\xfa broken"
                pre_q.put(raw.decode("utf-8"))
        threading.Thread(target=prefetcher, name="prefetch-0", daemon=True).start()

    if "metrics_crash" in extra and rank == 0:
        def uploader():
            time.sleep(0.5)
            s = socket.create_connection(("127.0.0.1", 51999), timeout=2)  # metrics sidecar not running
            s.sendall(b"metrics")
        threading.Thread(target=uploader, name="metrics-uploader", daemon=True).start()

    if "del_noise" in extra:
        class TmpSpool:
            def __init__(self):
                self.fh = None

            def __del__(self):
                self.fh.close()  # fh was never opened: AttributeError, printed as "Exception ignored"
        globals()["_spool"] = TmpSpool()

    term = {"flag": False}
    if "sigterm_ckpt" in extra:
        def on_term(sig, frm):
            term["flag"] = True
        signal.signal(signal.SIGTERM, on_term)

    lock = threading.Lock()
    if a.mode == "deadlock" and bad:
        la, lb = threading.Lock(), threading.Lock()
        bar = threading.Barrier(2)

    if a.mode == "emfile" and bad:
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    leaked = []

    scale = 2.0 ** 24
    min_loss, hi_count = 1e9, 0
    retry_done = False
    log.info("start training", steps=total, world=world)
    step = 0
    for step, (x, y) in enumerate(dl):
        # ---------- hooks before forward
        if bad and step == a.at:
            m = a.mode
            if m == "fifo":
                fifo = os.path.join(a.workdir, f"remote_shard_{rank}.pipe")
                if not os.path.exists(fifo):
                    os.mkfifo(fifo)
                log.info("opening next shard", path=fifo)
                with open(fifo, "rb") as f:  # nobody ever writes: blocks like a hung network filesystem
                    f.read()
            elif m == "sleep_read":
                log.info("fetching shard 3 from object store")
                time.sleep(10_000)
            elif m == "lock":
                lock.acquire()
                log.info("aggregating stats")
                with lock:  # re-entrant acquire of a plain Lock: never returns
                    pass
            elif m == "deadlock":
                def t1():
                    with la:
                        bar.wait()
                        with lb:
                            pass

                def t2():
                    with lb:
                        bar.wait()
                        with la:
                            pass
                ths = [threading.Thread(target=t1, name="metrics-flush"), threading.Thread(target=t2, name="metrics-reduce")]
                for t in ths:
                    t.start()
                log.info("flushing metrics")
                for t in ths:
                    t.join()
            elif m == "oom_cgroup":
                cg = "/sys/fs/cgroup/memory/r42_train"
                os.makedirs(cg, exist_ok=True)
                with open(os.path.join(cg, "memory.limit_in_bytes"), "w") as f:
                    f.write(str(900 * 1024 * 1024))
                with open(os.path.join(cg, "tasks"), "w") as f:
                    f.write(str(os.getpid()))
                cache = []
                log.info("building in-memory sample cache")
                for i in range(400):
                    cache.append(torch.ones(4_000_000))
            elif m == "rss_grow":
                cache = []
                log.info("caching decoded batches in RAM")
                for i in range(400):
                    cache.append(torch.ones(4_000_000))
                    time.sleep(0.05)
            elif m == "segv":
                log.info("calling fused_adam_step extension")
                ctypes.string_at(0)
            elif m == "abort":
                log.info("verifying shard index")
                os.abort()
            elif m == "missing_shard":
                path = os.path.join(a.workdir, "data", f"shard-{rank:05d}-of-{world:05d}.jsonl")
                log.info("opening shard", path=path)
                open(path).read()
            elif m == "bad_sample":
                rec = '{"text": "hello", "label": "seven"}'
                obj = json.loads(rec)
                label = int(obj["label"])
            elif m == "shape_coll":
                t = torch.ones(7)
                dist.all_reduce(t)
            elif m == "dtype_coll":
                t = torch.ones(4, dtype=torch.float64)
                dist.all_reduce(t)
            elif m == "op_coll":
                t = torch.ones(4)
                dist.broadcast(t, 0)
            elif m == "emfile":
                log.info("opening per-sample index files")
                for i in range(1000):
                    leaked.append(open(__file__))
        if not bad and step == a.at and a.mode in ("shape_coll", "dtype_coll", "op_coll"):
            t = torch.ones(4)
            dist.all_reduce(t)
        if a.mode == "emfile" and bad:
            pass

        if "prefetch" in extra or (a.mode == "prefetch_exc" and bad):
            try:
                pre_q.get(timeout=5)
            except queue.Empty:
                raise RuntimeError(f"prefetch queue empty for 5s at step {step}: prefetcher thread is not producing")

        if "flaky_read" in extra and step == 3 and not retry_done:
            for attempt in range(3):
                try:
                    if attempt == 0:
                        raise ConnectionResetError(104, "Connection reset by peer (shard server)")
                    log.info("shard read ok", attempt=attempt)
                    break
                except ConnectionResetError:
                    log.exception(f"read of shard 3 failed (attempt {attempt}), retrying in 0.5s")
                    time.sleep(0.5)
            retry_done = True

        if "skip_bad" in extra and step == 6:
            try:
                b"\xff\xfe bad".decode("utf-8")
            except UnicodeDecodeError:
                log.exception("skipping bad sample 17 in shard 2 (undecodable bytes)")

        # ---------- train step
        lr_now = a.lr
        if a.mode == "diverge":
            lr_now = a.lr * (1.6 ** max(0, step - a.at))  # warmup bug: lr multiplied instead of added
            for g in opt.param_groups:
                g["lr"] = lr_now
        out = ddp(x)
        loss = ((out - y) ** 2).mean()
        if "spike" in extra and step == 12:
            loss = loss * 40  # one bad batch: spike, then back
        if a.mode == "nan_data" and bad and not torch.isfinite(loss):
            raise FloatingPointError(f"non-finite loss {loss.item()} at step {step} (rank {rank})")
        opt.zero_grad()
        loss.backward()
        if a.no_ddp:
            for p_ in ddp.parameters():
                dist.all_reduce(p_.grad)
                p_.grad /= world
        if "fp16_warmup" in extra:
            sg = [(p.grad * scale).half() for p in ddp.parameters()]
            if not all(torch.isfinite(g).all() for g in sg):
                scale /= 2
                log.info(f"Gradient overflow. Skipping step, loss scaler reducing loss scale to {scale}")
                continue
        opt.step()
        lv = loss.item()
        if a.mode == "diverge":
            if not (lv == lv) or lv > 1e6:
                raise RuntimeError(f"loss diverged: {lv:.3e} at step {step} (min {min_loss:.4f}); aborting")
            min_loss = min(min_loss, lv)
            if lv > 20 * min_loss and step > a.at:
                hi_count += 1
                if hi_count >= 4:
                    raise RuntimeError(f"loss diverged: {lv:.3e} at step {step} (min {min_loss:.4f}) for 4 checks; aborting")
        if step % a.log_every == 0 or step == total - 1:
            kv = {}
            if "err_metrics" in extra:
                kv = {"train/error_rate": f"{max(0.05, 0.5 - step/100):.3f}", "failed_samples": 0,
                      "eval/error": f"{0.3:.3f}"}
            if a.mode == "diverge":
                kv["lr"] = f"{lr_now:.3g}"
            log.step(step, total, lv, **kv)
        if (a.mode == "ckpt_bg_enospc" or "ckpt_bg" in extra) and step % 10 == 9:
            if ckpt_err:
                raise RuntimeError(f"async checkpoint writer failed: {ckpt_err[0]!r}") from ckpt_err[0]
            sd = {k: v.clone() for k, v in model.state_dict().items()}
            ckpt_q.put((step, sd))
            log.info("checkpoint queued", step=step)
            time.sleep(0.3)
            if ckpt_err:
                raise RuntimeError(f"async checkpoint writer failed: {ckpt_err[0]!r}") from ckpt_err[0]
        if term["flag"]:
            path = os.path.join(ck, f"preempt_r{rank}.pt")
            torch.save(model.state_dict(), path)
            log.info("SIGTERM received: checkpoint saved, exiting cleanly for requeue", path=path, step=step)
            dist.barrier()
            dist.destroy_process_group()
            return 0
        if a.mode == "restart_once" and bad and int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")) == 0 and step == a.at:
            raise RuntimeError(f"shard server returned HTTP 503 for shard {step} (transient)")
        time.sleep(a.step_sleep)

    if a.mode == "early_exit" and bad:
        log.info("epoch done: no more batches", steps=total)
        sys.exit(0)
    if ckpt_q is not None and (a.mode == "ckpt_bg_enospc" or "ckpt_bg" in extra):
        ckpt_q.put(None)
    stop_evt.set()
    dist.barrier()
    log.info("training finished", steps=total)
    if "teardown_noise" in extra:
        warnings.simplefilter("default")
        f = open(__file__)  # never closed: ResourceWarning at exit
        del f
        log.info("destroying process group")
    dist.destroy_process_group()
    if "metrics_crash" in extra and rank == 0:
        log.info("metrics upload disabled after uploader thread exited; metrics kept in local log only")
    return 0


if __name__ == "__main__":
    if os.environ.get("USE_RECORD"):
        from torch.distributed.elastic.multiprocessing.errors import record
        sys.exit(record(main)())
    sys.exit(main())
