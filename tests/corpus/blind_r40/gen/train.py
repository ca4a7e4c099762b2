#!/usr/bin/env python3
"""Tiny DDP regression trainer (CPU, gloo). Behaviour is driven by TRAIN_CFG (JSON) so that
make_runs.sh can reproduce each run. Launch with torchrun, srun or `--spawn N` (mp.spawn)."""
import atexit
import datetime
import json
import logging
import os
import signal
import sys
import threading
import queue
import time
import urllib.request

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

CFG = json.loads(os.environ.get("TRAIN_CFG", "{}"))


def c(key, default=None):
    return CFG.get(key, default)


# ----------------------------------------------------------------------------- logging styles
class Log:
    def __init__(self, rank, world, style):
        self.rank, self.world, self.style = rank, world, style
        if style == "logging":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format=f"%(asctime)s %(levelname)s [%(name)s] rank={rank}: %(message)s")
            self.lg = logging.getLogger("trainer")
        self.bar_last = 0

    def info(self, msg, **kv):
        s = self.style
        if s == "logging":
            self.lg.info(msg + (" " + " ".join(f"{k}={v}" for k, v in kv.items()) if kv else ""))
        elif s == "json":
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"),
                              "level": "info", "rank": self.rank, "msg": msg, **kv}), flush=True)
        elif s == "trainer":
            if kv:
                print({**kv, "epoch": round(kv.get("step", 0) / 100, 2)} if "loss" in kv else f"[Trainer] {msg} {kv}",
                      flush=True)
            else:
                print(f"[Trainer] {msg}", flush=True)
        elif s == "bar":
            if "step" in kv and "loss" in kv:
                n, tot = kv["step"], c("steps", 20)
                pct = int(100 * n / tot)
                bar = "#" * (pct // 10) + " " * (10 - pct // 10)
                sys.stderr.write(f"\rtrain: {pct:3d}%|{bar}| {n}/{tot} [loss={kv['loss']:.4f}]")
                sys.stderr.flush()
                if n == tot:
                    sys.stderr.write("\n")
            else:
                print(f"{msg} {kv if kv else ''}".rstrip(), flush=True)
        else:  # print
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            print(f"[{time.strftime('%H:%M:%S')}] {msg} {extra}".rstrip(), flush=True)

    def warn(self, msg):
        if self.style == "logging":
            self.lg.warning(msg)
        elif self.style == "json":
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"),
                              "level": "warning", "rank": self.rank, "msg": msg}), flush=True)
        else:
            print(f"WARNING: {msg}", flush=True)

    def exception(self, msg):
        if self.style == "logging":
            self.lg.exception(msg)
        else:
            import traceback
            print(f"ERROR: {msg}", flush=True)
            traceback.print_exc()


# ----------------------------------------------------------------------------- pieces
def rank_env():
    if "RANK" in os.environ:
        return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ.get("LOCAL_RANK", 0))
    if "SLURM_PROCID" in os.environ:
        return int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"]), int(os.environ.get("SLURM_LOCALID", 0))
    return 0, 1, 0


def build_activation(rank):
    # newer recipe uses the fused activation on the ranks listed in the config
    if rank in c("fused_act_ranks", []):
        return torch.nn.functional.fast_gelu
    return torch.relu


def build_optimizer(model, rank):
    if rank in c("fused_opt_ranks", []):
        from apex.optimizers import FusedAdam  # noqa: F401  (only installed on some images)
        return FusedAdam(model.parameters(), lr=c("lr", 1e-2))
    return torch.optim.SGD(model.parameters(), lr=c("lr", 1e-2))


class Net(nn.Module):
    def __init__(self, hidden, act):
        super().__init__()
        self.fc1 = nn.Linear(16, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.act = act

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def load_shard(rank):
    ddir = c("data_dir")
    if not ddir:
        g = torch.Generator().manual_seed(rank)
        return torch.randn(512, 16, generator=g)
    path = os.path.join(ddir, f"train-{rank:05d}-of-{c('world', 0):05d}.pt")
    return torch.load(path)


def join_memory_cgroup(path):
    with open(os.path.join(path, "cgroup.procs"), "w") as f:
        f.write(str(os.getpid()))


class Prefetcher(threading.Thread):
    def __init__(self, data, rank, bad_at):
        super().__init__(daemon=True)
        self.q, self.data, self.rank, self.bad_at = queue.Queue(maxsize=2), data, rank, bad_at

    def run(self):
        i = 0
        while True:
            idx = (i * 32) % (len(self.data) - 32)
            rec = self.data[idx:idx + 32]
            if self.bad_at is not None and i == self.bad_at:
                rec = decode_record(b"\x89\x00\xffcorrupt")
            self.q.put(rec)
            i += 1


def decode_record(raw):
    return torch.tensor(json.loads(raw.decode("utf-8")))


def upload(url, path, log, attempts=3, fatal=True):
    for a in range(1, attempts + 1):
        try:
            with open(path, "rb") as f:
                req = urllib.request.Request(url, data=f.read(), method="PUT")
                urllib.request.urlopen(req, timeout=5)
            return True
        except OSError as e:
            log.warn(f"upload attempt {a}/{attempts} to {url} failed: {e!r}")
            time.sleep(1)
    if fatal:
        raise RuntimeError(f"giving up uploading {path} to {url} after {attempts} attempts")
    return False


# ----------------------------------------------------------------------------- main
def main(rank=None, world=None):
    if rank is None:
        rank, world, _ = rank_env()
    else:
        os.environ.setdefault("RANK", str(rank))
    attempt = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    log = Log(rank, world, c("style", "print"))
    torch.manual_seed(0)

    # config from environment (some clusters set these per task)
    micro_batch = int(os.environ.get("MICRO_BATCH", "32"))
    log.info(f"starting rank {rank}/{world} attempt={attempt} micro_batch={micro_batch} pid={os.getpid()}")

    # ---- optional remote fetch of a vocab / config at start-up
    if c("fetch_url") and rank == 0:
        ok = False
        for a in range(1, 4):
            try:
                urllib.request.urlopen(c("fetch_url"), timeout=3)
                ok = True
                break
            except OSError:
                log.exception(f"download of {c('fetch_url')} failed (attempt {a}/3), retrying")
                time.sleep(1)
        if not ok:
            log.warn("falling back to the cached copy in ~/.cache/trainer/vocab.json")

    data = load_shard(rank)
    act = build_activation(rank)
    model = Net(c("hidden", 32), act)

    init = c("init_method")
    timeout = datetime.timedelta(seconds=c("timeout", 30))
    if init:
        dist.init_process_group("gloo", init_method=init, rank=rank, world_size=world, timeout=timeout)
    elif attempt > 0:
        # keys of the previous attempt are still in the launcher's store: use a fresh namespace per attempt
        store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), world, False, timeout=timeout)
        dist.init_process_group("gloo", store=dist.PrefixStore(f"attempt_{attempt}", store), rank=rank,
                                world_size=world, timeout=timeout)
    else:
        dist.init_process_group("gloo", timeout=timeout)
    log.info("process group ready", backend="gloo", world=dist.get_world_size())

    if c("resume") and rank == 0:
        sd = torch.load(c("resume"))
        model.load_state_dict(sd["model"])
        log.info(f"resumed from {c('resume')} at step {sd.get('step')}")
    for p in model.parameters():
        dist.broadcast(p.data, 0)

    ddp = DDP(model)
    opt = build_optimizer(model, rank)
    accum = c("accum", 1)
    if str(rank) in c("accum_override", {}):
        accum = c("accum_override")[str(rank)]

    log.info(f"optimizer={type(opt).__name__} grad_accum_steps={accum}")
    if c("oom_rank") == rank and attempt < c("oom_attempts", 99):
        join_memory_cgroup(c("cgroup"))
    if c("resume_last") and attempt > 0 and rank == 0:
        sd = torch.load(os.path.join(c("ckpt_dir"), "last.pt"))
        model.load_state_dict(sd["model"])

    pref = Prefetcher(data, rank, c("bad_record_at") if c("bad_record_rank") == rank else None)
    pref.start()

    steps = c("steps", 20)
    if c("short_shard_rank") == rank:
        steps = c("short_steps", 6)
    hog = []
    t0 = time.time()
    for step in range(1, steps + 1):
        x = pref.q.get()
        if c("nan_rank") == rank and step >= c("nan_step", 5):
            x = x.clone()
            x[0, 0] = float("inf")
        y = x.sum(dim=1, keepdim=True) * 0.1
        sync = (step % accum == 0)
        if sync:
            out = ddp(x)
            loss = nn.functional.mse_loss(out, y) / accum
        else:
            with ddp.no_sync():
                out = ddp(x)
                loss = nn.functional.mse_loss(out, y) / accum
        if c("skip_rank") == rank and step == c("skip_step", 7):
            log.warn(f"batch at step {step} has no valid targets after masking, skipping backward/optimizer step")
            continue
        if not torch.isfinite(loss):
            raise FloatingPointError(f"non-finite loss {loss.item()} at step {step} (rank {rank})")
        loss.backward()
        if sync:
            opt.step()
            opt.zero_grad()
        if c("oom_rank") == rank and step >= c("oom_step", 4) and attempt < c("oom_attempts", 99):
            if c("torn_save"):
                f = open(os.path.join(c("ckpt_dir"), "last.pt"), "wb")
                f.write(b"PK\x03\x04" + os.urandom(4096))
                f.flush()
                while True:
                    hog.append(torch.ones(16 * 1024 * 1024))
            hog.append(torch.ones(64 * 1024 * 1024 // 4 * 4))  # 64 MiB of activations cached per step
        if c("self_kill_rank") == rank and step == c("self_kill_step", 5) and attempt < c("self_kill_attempts", 1):
            os.kill(os.getpid(), signal.SIGKILL)
        if c("crash_attempt0_rank") == rank and attempt == 0 and step == c("crash_step", 6):
            ckpt = os.path.join(c("ckpt_dir"), "last.pt")
            with open(ckpt, "wb") as f:  # partial write interrupted
                f.write(b"PK\x03\x04" + os.urandom(300))
                f.flush()
                os.kill(os.getpid(), signal.SIGKILL)
        log.info("train", step=step, loss=round(loss.item() * accum, 5), lr=c("lr", 1e-2))
        time.sleep(c("step_time", 0.2))

        # ---- periodic eval
        if c("eval_every") and step % c("eval_every") == 0:
            n_eval = c("eval_batches", 4)
            if str(rank) in c("eval_override", {}):
                n_eval = c("eval_override")[str(rank)]
            tot = torch.zeros(2)
            log.info(f"running eval: {n_eval} batches")
            for b in range(n_eval):
                with torch.no_grad():
                    xb = data[b * 8:(b + 1) * 8]
                    if c("eval_fp64_rank") == rank:  # high-precision eval on the reporting rank
                        xb = xb.double()
                    l = nn.functional.mse_loss(model(xb), xb.sum(1, keepdim=True) * 0.1)
                tot += torch.tensor([l.item(), 1.0])
                if c("eval_sleep"):
                    time.sleep(c("eval_sleep"))
                dist.all_reduce(tot[:1].clone())  # keep metric buffers in sync per batch
            metric = tot
            if c("metric_rank") == rank:
                metric = torch.cat([tot, torch.tensor([float(n_eval)])])  # also report batch count
            dist.all_reduce(metric)
            log.info("eval", step=step, eval_loss=round(metric[0].item() / max(metric[1].item(), 1), 5))

    log.info(f"training done in {time.time() - t0:.1f}s")

    # ---- shutdown
    if c("upload_hang_rank") == rank:
        log.info("uploading rank artifacts to the tracker...")
        th = threading.Thread(target=lambda: time.sleep(3600), name="artifact-upload")
        th.start()
        th.join()
    if c("final_monitored_barrier"):
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=c("timeout", 30)))
    else:
        dist.barrier()

    if rank == 0 and c("ckpt_dir"):
        path = os.path.join(c("ckpt_dir"), f"model_step{steps}.pt")
        log.info(f"saving checkpoint to {path}")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": steps,
                    "pad": torch.zeros(c("ckpt_pad", 0))}, path)
        log.info("checkpoint saved")
        if c("upload_url"):
            upload(c("upload_url"), path, log, fatal=c("upload_fatal", True))
    if c("metrics_rank") == rank:
        with open(os.path.join(c("out_dir", "/tmp"), f"metrics_{rank}.json"), "w") as f:
            json.dump({"final_loss": loss.detach(), "steps": steps}, f)
    if c("atexit_rank") == rank:
        def close_tracker():
            raise ConnectionResetError("tracker session already closed by server")
        atexit.register(close_tracker)
    if c("warn_at_exit"):
        import warnings
        warnings.warn("torch.distributed: destroy_process_group() will be deprecated in favour of shutdown()", FutureWarning)
    if not c("skip_destroy"):
        dist.destroy_process_group()
    log.info("exiting cleanly")


def spawn_entry(rank, world):
    os.environ["RANK"] = str(rank)
    os.environ["WORLD_SIZE"] = str(world)
    main(rank, world)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--spawn":
        import torch.multiprocessing as mp
        n = int(sys.argv[2])
        mp.spawn(spawn_entry, args=(n,), nprocs=n, join=True)
    else:
        main()
