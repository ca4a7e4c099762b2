#!/usr/bin/env python
"""Tiny CPU/gloo DDP trainer used to produce the r46 runs.

Scenario, failing rank/step and logging style come from the command line, so one script
makes every plain-torch run.  Launch with torchrun, srun (SLURM_PROCID) or --spawn N (mp.spawn).
"""
import argparse
import ctypes
import faulthandler
import json
import logging
import math
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
import warnings
from datetime import datetime, timedelta

STOP = {"sig": None}


def on_signal(signum, frame):
    STOP["sig"] = signum
    print(f"[rank{os.environ.get('SLURM_PROCID', os.environ.get('RANK', '?'))}] caught signal "
          f"{signal.Signals(signum).name}, will checkpoint and stop at the end of this step", flush=True)


if any("sig" in a for a in sys.argv):  # install before the slow torch import
    signal.signal(signal.SIGUSR1, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--scen", default="none")
p.add_argument("--frank", type=int, default=-1)
p.add_argument("--fstep", type=int, default=10**9)
p.add_argument("--steps", type=int, default=2000)
p.add_argument("--style", default="print")  # print | logging | json | tqdm | raw
p.add_argument("--ckpt-dir", default="/tmp/r46ckpt")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--hidden", type=int, default=32)
p.add_argument("--sleep", type=float, default=0.0)
p.add_argument("--spawn", type=int, default=0)
p.add_argument("--port", type=int, default=0)
p.add_argument("--timeout", type=int, default=30)
p.add_argument("--cgroup", default="")
p.add_argument("--noise", default="")  # comma list: valexc,storeretry,flakyread,gradskip,corrupt,slowdump,subproc,bench,sig,elastic,warn
p.add_argument("--requeue", action="store_true")
args = p.parse_args()

log = logging.getLogger("trainer")


def setup_logging(rank):
    if args.style == "logging":
        logging.basicConfig(
            level=logging.INFO,
            format=f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s",
            stream=sys.stdout,
        )
    else:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def emit(rank, step, loss, extra=None):
    extra = extra or {}
    if args.style == "json":
        d = {"ts": datetime.now().isoformat(timespec="milliseconds"), "rank": rank, "step": step,
             "loss": round(loss, 5)}
        d.update(extra)
        print(json.dumps(d), flush=True)
    elif args.style == "logging":
        log.info("step %d/%d loss=%.4f lr=%.2e %s", step, args.steps, loss, 1e-3,
                 " ".join(f"{k}={v}" for k, v in extra.items()))
    elif args.style == "tqdm":
        pass
    elif args.style == "raw":
        # several small unflushed writes: interleaves mid-line with the other ranks
        for chunk in (f"[r{rank}] step {step:5d}", f" | loss {loss:.4f}", f" | tok/s {random.randint(900, 1100)}\n"):
            os.write(1, chunk.encode())
            time.sleep(0.0003)
    else:
        print(f"[rank{rank}] step {step} loss {loss:.4f} " + " ".join(f"{k}={v}" for k, v in extra.items()),
              flush=True)


def info(rank, msg):
    if args.style == "logging":
        log.info(msg)
    elif args.style == "json":
        print(json.dumps({"ts": datetime.now().isoformat(timespec="milliseconds"), "rank": rank, "msg": msg}),
              flush=True)
    else:
        print(f"[rank{rank}] {msg}", flush=True)


class Net(nn.Module):
    def __init__(self, h, vocab=100):
        super().__init__()
        self.emb = nn.Embedding(vocab, h)
        self.l1 = nn.Linear(h, h)
        self.l2 = nn.Linear(h, 1)

    def forward(self, ids):
        x = self.emb(ids).mean(1)
        return self.l2(torch.relu(self.l1(x))).squeeze(-1)


class ToyDS(torch.utils.data.Dataset):
    def __init__(self, rank, n):
        self.rank, self.n = rank, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if args.scen == "dlkill" and self.rank == args.frank and i == args.fstep:
            # the worker process is killed the way the OOM killer kills it
            os.kill(os.getpid(), signal.SIGKILL)
        g = torch.Generator().manual_seed(i * 7 + self.rank)
        return torch.randint(0, 100, (8,), generator=g), torch.randn(1, generator=g).squeeze()


def prefetcher(rank, q, stop):
    """background thread that parses jsonl shard records"""
    i = 0
    while not stop.is_set():
        rec = '{"ids": [1, 2, 3, 4, 5, 6, 7, 8], "y": 0.5}'
        if args.scen == "bgthread" and rank == args.frank and i == args.fstep:
            rec = '{"ids": [1, 2, 3, 4, 5, 6, 7, 8], "y": 0.5'  # truncated record in shard-00017.jsonl
        d = json.loads(rec)
        q.put((torch.tensor(d["ids"]).unsqueeze(0).repeat(16, 1), torch.full((16,), d["y"])))
        i += 1


def oom_self(rank):
    if args.cgroup:
        with open(os.path.join(args.cgroup, "tasks"), "w") as f:
            f.write(str(os.getpid()))
    hold = []
    while True:
        hold.append(torch.ones(16 * 1024 * 1024))  # 64 MB each, touched
        hold[-1].add_(1)


def save_ckpt(model, opt, step, rank):
    os.makedirs(args.ckpt_dir, exist_ok=True)
    path = os.path.join(args.ckpt_dir, f"ckpt_step{step:06d}.pt")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, path)
    info(rank, f"saved checkpoint {path}")


NOISE = set(filter(None, args.noise.split(",")))


def validation_hook(rank, step, model):
    try:
        metrics = {"val_loss": 0.5 + random.random() * 0.01}
        if step == 1000 and rank in (0, 1):
            metrics["bleu"] = metrics["matches"] / metrics["total"]  # KeyError: optional metric not computed
        return metrics
    except Exception:
        log.exception("validation hook failed at step %d, continuing without extra metrics", step)
        return {}


def startup_noise(rank):
    if "subproc" in NOISE:
        try:
            out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv"], capture_output=True, text=True)
            print(out.stdout)
        except FileNotFoundError as e:
            print(f"[rank{rank}] WARNING: could not query GPUs: {e} (nvidia-smi: command not found); "
                  "continuing on CPU", flush=True)
        r = subprocess.run(["git", "describe", "--always", "--dirty"], cwd="/", capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr)
            print(f"[rank{rank}] git describe failed (exit {r.returncode}), code version unknown", flush=True)
    if "warn" in NOISE:
        warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use "
                      "torch.amp.GradScaler('cuda', args...) instead.", FutureWarning)
        f = open("/proc/self/status")  # ResourceWarning under -X dev: never closed
        f.readline()
    if "flakyread" in NOISE:
        path = f"/tmp/r46_manifest_{os.getpid()}.json"
        threading.Timer(1.5, lambda: open(path, "w").write('{"shards": 64}')).start()
        for attempt in range(1, 6):
            try:
                with open(path) as fh:
                    man = json.load(fh)
                print(f"[rank{rank}] loaded dataset manifest ({man['shards']} shards) on attempt {attempt}",
                      flush=True)
                break
            except (FileNotFoundError, json.JSONDecodeError) as e:
                print(f"[rank{rank}] WARNING: reading dataset manifest failed (attempt {attempt}/5): "
                      f"{type(e).__name__}: {e}; retrying in 2s", flush=True)
                time.sleep(2)


def store_retry(rank):
    store = dist.distributed_c10d._get_default_store()
    if rank == 0:
        threading.Timer(4.0, lambda: store.set("vocab_size", "32000")).start()
    else:
        store.set_timeout(timedelta(seconds=2))
        for attempt in range(1, 5):
            try:
                v = store.get("vocab_size")
                print(f"[rank{rank}] got vocab_size={v.decode()} from store on attempt {attempt}", flush=True)
                break
            except Exception as e:  # store timeout
                print(f"[rank{rank}] store.get('vocab_size') failed on attempt {attempt}: {e}", flush=True)
        store.set_timeout(timedelta(seconds=args.timeout))
    dist.barrier()


def bench_table(rank):
    if rank != 0:
        return
    print("| config            | step_ms | mem_MB | timeout | killed | OOM | status |")
    print("|-------------------|---------|--------|---------|--------|-----|--------|")
    for h in (32, 64, 128, 256):
        print(f"| hidden={h:<10d} | {random.uniform(5, 20):7.2f} | {h * 3:6d} | {'no':>7} | {'0':>6} | {'0':>3} | "
              f"{'ok':>6} |")
    print("benchmark done: 0 configs hit timeout, 0 killed, 0 OOM", flush=True)


def run(rank, world):
    setup_logging(rank)
    faulthandler.enable()
    torch.manual_seed(0)
    if args.scen == "mismatch":
        os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=args.timeout))
    info(rank, f"initialized process group rank={rank} world_size={world} backend=gloo")
    if "sig" in NOISE:
        signal.signal(signal.SIGUSR1, on_signal)
        signal.signal(signal.SIGTERM, on_signal)
    startup_noise(rank)
    if "storeretry" in NOISE:
        store_retry(rank)
    start_step = 1
    if "sig" in NOISE and os.path.exists(os.path.join(args.ckpt_dir, "last.pt")):
        start_step = torch.load(os.path.join(args.ckpt_dir, "last.pt"))["step"] + 1
        info(rank, f"resuming from {args.ckpt_dir}/last.pt at step {start_step}")
    model = DDP(Net(args.hidden))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    ds = ToyDS(rank, args.steps * 16 + 64)
    nw = 2 if args.scen == "dlkill" else 0
    dl = iter(torch.utils.data.DataLoader(ds, batch_size=16, num_workers=nw))
    q, stop = None, None
    if args.scen == "bgthread":
        q, stop = queue.Queue(maxsize=8), threading.Event()
        threading.Thread(target=prefetcher, args=(rank, q, stop), name="shard-prefetch", daemon=True).start()
    bar = None
    if args.style == "tqdm" and rank == 0:
        from tqdm import tqdm
        bar = tqdm(total=args.steps, desc="train", file=sys.stderr, mininterval=0.2)
    t0 = time.time()
    skipped = 0
    for step in range(start_step, args.steps + 1):
        if args.scen == "bgthread":
            try:
                ids, y = q.get(timeout=20)
            except queue.Empty:
                raise RuntimeError(f"data prefetch queue empty for 20s at step {step}: "
                                   "prefetch thread is no longer producing batches")
        else:
            ids, y = next(dl)
        fire = rank == args.frank and step == args.fstep
        if args.scen == "exc" and fire:
            batch = {"input_ids": ids}
            y = batch["labels"]  # collate dropped the key
        if args.scen == "hang" and fire:
            threading.Event().wait()  # waits for a signal that never comes
        if args.scen == "oom" and fire:
            oom_self(rank)
        if args.scen == "segv" and fire:
            ctypes.string_at(0)
        if args.scen == "early" and fire:
            info(rank, f"shard exhausted after {step - 1} batches, leaving training loop")
            return
        if args.scen == "nan" and rank == args.frank and step >= args.fstep:
            y = y * float("inf")
        if args.scen == "dataidx" and fire:
            ids = ids.clone()
            ids[3, 5] = 30522  # token id from a different tokenizer's vocab
        if args.scen == "mismatch" and fire:
            dist.all_reduce(torch.ones(7))
        if args.scen == "mismatch" and step == args.fstep and rank != args.frank:
            dist.all_reduce(torch.ones(5))
        if args.scen == "elastic" and fire and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
            raise ConnectionError(f"lost connection to feature server 10.0.3.7:7070 while fetching batch {step}")
        if "corrupt" in NOISE and step % 397 == 0:
            warnings.warn(f"skipping corrupt sample idx={step * 16 + rank}: UnicodeDecodeError: 'utf-8' codec "
                          "can't decode byte 0xff in position 0: invalid start byte")
            skipped += 1
            continue
        if "slowdump" in NOISE and step == 700 and rank == 0:
            faulthandler.dump_traceback_later(2.0, repeat=False)
            print("[rank0] step 700: writing eval shards (slow)", flush=True)
            time.sleep(3.5)
            faulthandler.cancel_dump_traceback_later()
        out = model(ids)
        loss = ((out - y) ** 2).mean()
        if args.scen == "nan" and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}, stopping training")
        opt.zero_grad()
        loss.backward()
        if "gradskip" in NOISE:
            if step % 611 == 0:
                for prm in model.parameters():
                    prm.grad.fill_(float("inf") if step % 2 else float("nan"))
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            if not torch.isfinite(gn):
                info(rank, f"WARNING: grad norm is {gn.item()} at step {step}, skipping optimizer step")
                opt.zero_grad()
                continue
            if step % 250 == 0:
                info(rank, f"clipping gradient norm {gn.item():.3f} -> 1.0")
        opt.step()
        if "valexc" in NOISE and step % 500 == 0:
            info(rank, f"validation step {step}: {validation_hook(rank, step, model)}")
        if "sig" in NOISE:  # all ranks agree on stopping at the same step
            flag = torch.tensor([0 if STOP["sig"] is None else STOP["sig"]])
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
            if flag.item() and STOP["sig"] is None:
                STOP["sig"] = int(flag.item())
        if STOP["sig"] is not None:
            os.makedirs(args.ckpt_dir, exist_ok=True)
            if rank == 0:
                torch.save({"model": model.module.state_dict(), "step": step}, os.path.join(args.ckpt_dir, "last.pt"))
            info(rank, f"checkpoint at step {step} written after {signal.Signals(STOP['sig']).name}; exiting cleanly")
            if args.requeue and rank == 0 and int(os.environ.get("SLURM_RESTART_COUNT", "0")) == 0:
                jid = os.environ["SLURM_JOB_ID"]
                r = subprocess.run(["scontrol", "requeue", jid], capture_output=True, text=True)
                info(rank, f"requested requeue of job {jid}: rc={r.returncode} {r.stderr.strip()}")
            dist.barrier()
            dist.destroy_process_group()
            return
        if args.sleep:
            time.sleep(args.sleep)
        emit(rank, step, loss.item(), {"lr": "1.00e-03", "step_ms": f"{(time.time() - t0) * 1000 / step:.2f}"})
        if bar:
            bar.update(1)
            bar.set_postfix(loss=f"{loss.item():.4f}")
        if args.ckpt_every and step % args.ckpt_every == 0:
            if rank == 0:
                save_ckpt(model.module, opt, step, rank)
            dist.barrier()
    if bar:
        bar.close()
    if "corrupt" in NOISE:
        info(rank, f"epoch done: {skipped} corrupt samples skipped")
    if "bench" in NOISE:
        bench_table(rank)
    dist.barrier()
    info(rank, f"training finished: {args.steps} steps in {time.time() - t0:.1f}s")
    dist.destroy_process_group()


def spawn_entry(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(args.port)
    run(rank, world)


if __name__ == "__main__":
    if args.spawn:
        import torch.multiprocessing as mp
        mp.spawn(spawn_entry, args=(args.spawn,), nprocs=args.spawn)
    else:
        rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", 0)))
        world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", 1)))
        if "SLURM_PROCID" in os.environ and "RANK" not in os.environ:
            os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        run(rank, world)
