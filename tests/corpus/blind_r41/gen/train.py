"""Tiny CPU/gloo training programs with several topologies and injectable real faults.

Configured by environment variables:
  MODE       pipe | sub | ddp | fsdp
  FAULT      none | raise_shape | wrong_shape | hang | dtype | inplace | unused | compile | early_exit | segv
             | oom | thread_data | dlworker | jsonl | emfile | ckpt_full | ckpt_corrupt | ckpt_keys | nan
             | diverge | mismatch | slow_barrier | p2p_retry | warnings | forever
  BAD_RANK, BAD_STEP, STEPS, PG_TIMEOUT, LOGSTYLE (print | logging | json | bar | trainer)
Works under torchrun (RANK env), srun (SLURM_PROCID) or mp.spawn (--spawn N).
"""
import datetime
import io
import json
import logging
import os
import queue
import sys
import threading
import time
import warnings

import torch
import torch.distributed as dist
import torch.nn as nn

FAULT = os.environ.get("FAULT", "none")
WARN = os.environ.get("WARN", "0") == "1"
MODE = os.environ.get("MODE", "ddp")
STYLE = os.environ.get("LOGSTYLE", "print")
STEPS = int(os.environ.get("STEPS", "200"))
BAD = int(os.environ.get("BAD_RANK", "-1"))
BAD_STEP = int(os.environ.get("BAD_STEP", "50"))
PG_TIMEOUT = int(os.environ.get("PG_TIMEOUT", "30"))
LOG_EVERY = int(os.environ.get("LOG_EVERY", "10"))
WORKDIR = os.environ.get("WORKDIR", "/tmp")
RANK = 0
WORLD = 1
log = None


def setup_log(rank):
    global log
    if STYLE == "logging":
        logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                            format=f"%(asctime)s %(levelname)s [Rank {rank}] %(name)s: %(message)s")
        lg = logging.getLogger("train")
        log = lambda msg, lvl="info": getattr(lg, lvl)(msg)  # noqa: E731
    elif STYLE == "json":
        def log(msg, lvl="info"):
            print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": lvl,
                              "rank": rank, "msg": msg}), flush=True)
    elif STYLE == "trainer":
        def log(msg, lvl="info"):
            print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} | {lvl.upper():7s} | minitrainer.loop:{rank} - {msg}",
                  flush=True)
    else:
        def log(msg, lvl="info"):
            print(f"rank={rank} {msg}", flush=True)
    globals()["log"] = log


def step_line(step, loss, extra=""):
    if STYLE == "bar":
        pct = int(100 * step / STEPS)
        sys.stdout.write(f"\rrank {RANK} train: {pct:3d}%|{'#' * (pct // 10):10s}| {step}/{STEPS} [loss={loss:.4f}]")
        sys.stdout.flush()
        if step % (LOG_EVERY * 10) == 0:
            sys.stdout.write("\n")
    elif STYLE == "json":
        print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "rank": RANK,
                          "step": step, "loss": round(loss, 5), **({"note": extra} if extra else {})}), flush=True)
    else:
        log(f"step {step} loss {loss:.4f}{extra}")


def init():
    global RANK, WORLD
    if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]
        os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ.setdefault("LOCAL_RANK", os.environ.get("SLURM_LOCALID", "0"))
    RANK = int(os.environ["RANK"])
    WORLD = int(os.environ["WORLD_SIZE"])
    setup_log(RANK)
    os.makedirs(WORKDIR, exist_ok=True)
    with open(f"{WORKDIR}/pid_rank{RANK}", "w") as f:
        f.write(str(os.getpid()))
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=PG_TIMEOUT))
    log(f"initialized process group backend=gloo world_size={WORLD} pid={os.getpid()} host={os.uname().nodename}")


def bad_here(step):
    return RANK == BAD and step == BAD_STEP


# ---------------------------------------------------------------- pipeline of stages (send/recv)
def run_pipe():
    torch.manual_seed(RANK)
    B, H = 8, 16
    out_features = H
    if FAULT == "wrong_shape" and RANK == BAD:
        out_features = H  # changed at BAD_STEP below (a config flip on this stage only)
    layer = nn.Linear(H, out_features)
    opt = torch.optim.SGD(layer.parameters(), lr=0.01)
    last = WORLD - 1
    use_async = os.environ.get("PIPE_ASYNC", "0") == "1"
    log(f"pipeline stage {RANK}/{WORLD} holds layers [{RANK * 2}, {RANK * 2 + 1}] async_p2p={use_async}")
    for step in range(1, STEPS + 1):
        if WARN and step % 40 == 0:
            warnings.warn(f"stage {RANK}: activation memory high water mark 81% of budget", ResourceWarning)
            log(f"WARNING stage {RANK} bubble fraction 0.{30 + RANK} above target 0.25", "warning")
        if RANK == 0:
            x = torch.randn(B, H)
        else:
            x = torch.empty(B, H)
            if use_async:
                w = dist.irecv(x, src=RANK - 1)
                w.wait()
            else:
                dist.recv(x, src=RANK - 1)
            x.requires_grad_(True)
        if FAULT == "hang" and bad_here(step):
            log(f"stage {RANK}: waiting for activation offload lock {WORKDIR}/offload.lock")
            while not os.path.exists(os.path.join(WORKDIR, "offload.lock.never")):
                time.sleep(0.5)
        inp = x
        if FAULT == "raise_shape" and RANK == BAD and step >= BAD_STEP:
            inp = torch.cat([x, torch.ones(B, 1)], dim=1)  # a feature column appended by a bad config path
        if FAULT == "dtype" and RANK == BAD and step >= BAD_STEP:
            inp = x.double()
        y = layer(inp)
        if FAULT == "wrong_shape" and RANK == BAD and step >= BAD_STEP:
            y = y[:, : H // 2].contiguous()
        if RANK != last:
            if step % LOG_EVERY == 0 or (FAULT == "wrong_shape" and RANK == BAD and step == BAD_STEP):
                log(f"stage {RANK} step {step} send activation shape={tuple(y.shape)} to stage {RANK + 1}")
            if use_async:
                dist.isend(y.detach(), dst=RANK + 1).wait()
            else:
                dist.send(y.detach(), dst=RANK + 1)
            g = torch.empty_like(y)
            dist.recv(g, src=RANK + 1)
            opt.zero_grad()
            y.backward(g)
        else:
            loss = (y ** 2).mean()
            opt.zero_grad()
            loss.backward()
            if step % LOG_EVERY == 0:
                step_line(step, loss.item())
        if RANK != 0:
            dist.send(x.grad.contiguous(), dst=RANK - 1)
        opt.step()
        if FAULT == "p2p_retry" and RANK == 1 and step == BAD_STEP:
            # a side-channel handshake through the store with a short timeout, caught and retried
            st = dist.distributed_c10d._get_default_store()
            for attempt in range(1, 4):
                try:
                    st.set_timeout(datetime.timedelta(seconds=2))
                    st.wait([f"stage_ready_{step}"])
                    break
                except Exception as e:  # noqa: BLE001
                    log(f"p2p handshake with stage 2 failed (attempt {attempt}/3): {type(e).__name__}: {e}; retrying",
                        "warning")
                    if attempt == 2:
                        st.set(f"stage_ready_{step}", "1")
            st.set_timeout(datetime.timedelta(seconds=PG_TIMEOUT))
            log("p2p handshake recovered, continuing")
    dist.barrier()
    log("pipeline training complete")


# ---------------------------------------------------------------- data-parallel x model-parallel subgroups
def run_sub():
    tp = int(os.environ.get("TP", "2"))
    dp = WORLD // tp
    tp_groups, dp_groups = [], []
    for d in range(dp):
        ranks = list(range(d * tp, (d + 1) * tp))
        tp_groups.append((ranks, dist.new_group(ranks, timeout=datetime.timedelta(seconds=PG_TIMEOUT))))
    for t in range(tp):
        ranks = list(range(t, WORLD, tp))
        dp_groups.append((ranks, dist.new_group(ranks, timeout=datetime.timedelta(seconds=PG_TIMEOUT))))
    my_tp = [g for r, g in tp_groups if RANK in r][0]
    my_dp = [g for r, g in dp_groups if RANK in r][0]
    my_tp_ranks = [r for r, g in tp_groups if RANK in r][0]
    my_dp_ranks = [r for r, g in dp_groups if RANK in r][0]
    log(f"parallel layout tp={tp} dp={dp}: tensor-parallel group {my_tp_ranks}, data-parallel group {my_dp_ranks}")
    torch.manual_seed(0)
    w = nn.Parameter(torch.randn(16, 16) * 0.1)
    opt = torch.optim.SGD([w], lr=0.01)
    for step in range(1, STEPS + 1):
        x = torch.randn(8, 16)
        part = x @ w
        if FAULT == "inplace" and bad_here(step):
            h = torch.sigmoid(part)
            h.mul_(2)  # in-place on a tensor autograd saved
            part = h
        dist.all_reduce(part.detach(), group=my_tp)
        if FAULT == "hang" and bad_here(step):
            log(f"step {step}: fetching next microbatch from remote reader")
            time.sleep(3600)
        loss = (part ** 2).mean()
        opt.zero_grad()
        loss.backward()
        g = w.grad
        if FAULT == "mismatch" and bad_here(step):
            g = torch.cat([g.flatten(), torch.zeros(16)])
        dist.all_reduce(g, group=my_dp)
        opt.step()
        if step % LOG_EVERY == 0:
            step_line(step, loss.item())
        if step % 50 == 0:
            t0 = time.time()
            if FAULT == "slow_barrier" and RANK == BAD and step == BAD_STEP:
                log(f"rank {RANK} flushing metrics to disk before barrier (slow filesystem)", "warning")
                time.sleep(12)
            dist.barrier()
            dt = time.time() - t0
            if dt > 5:
                log(f"WARNING: barrier at step {step} took {dt:.1f}s (threshold 5.0s), straggler suspected", "warning")
    dist.barrier()
    log("training finished")


# ---------------------------------------------------------------- plain DDP (with many fault options)
class Net(nn.Module):
    def __init__(self, extra=False):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 1)
        self.aux = nn.Linear(32, 1)

    def forward(self, x, use_aux=True):
        h = torch.relu(self.fc1(x))
        out = self.fc2(h)
        if use_aux:
            out = out + 0.1 * self.aux(h)
        return out


class ShardDataset(torch.utils.data.Dataset):
    def __init__(self, rank):
        self.rank = rank

    def __len__(self):
        return 100000

    def __getitem__(self, i):
        if FAULT == "dlworker" and self.rank == BAD and i >= BAD_STEP * 16:
            os.kill(os.getpid(), 9)
        g = torch.Generator().manual_seed(i)
        x = torch.randn(16, generator=g)
        return x, x.sum(0, keepdim=True) * 0.1


def run_ddp():
    from torch.nn.parallel import DistributedDataParallel as DDP
    torch.manual_seed(0)
    model = Net()
    if FAULT == "ckpt_keys" and os.environ.get("RESUME"):
        model.fc2 = nn.Linear(32, 2)  # new head size, old checkpoint
    if FAULT == "ckpt_corrupt" or FAULT == "ckpt_keys":
        path = os.environ["RESUME"]
        if RANK == 0 or FAULT == "ckpt_keys":
            log(f"resuming from {path}")
            sd = torch.load(path, map_location="cpu")
            model.load_state_dict(sd["model"])
            log(f"resumed at step {sd['step']}")
    if FAULT == "compile" and RANK == BAD:
        log("torch.compile enabled on this rank (TORCH_COMPILE_RANKS includes it)")
    ddp = DDP(model, find_unused_parameters=False)
    fwd = torch.compile(ddp) if FAULT == "compile" and RANK == BAD else ddp
    lr = float(os.environ.get("LR", "0.01"))
    opt = torch.optim.SGD(ddp.parameters(), lr=lr)
    lim = None
    if FAULT == "emfile" and RANK == BAD:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    if FAULT in ("dlworker",):
        dl = torch.utils.data.DataLoader(ShardDataset(RANK), batch_size=16, num_workers=2)
        it = iter(dl)
    else:
        it = None
    prefetch_q = queue.Queue(maxsize=4)
    thread_err = []
    if FAULT == "thread_data":
        def prefetch():
            try:
                for s in range(1, STEPS + 1):
                    if RANK == BAD and s == BAD_STEP:
                        open(f"{WORKDIR}/shards/train-{RANK:05d}-of-{WORLD:05d}.bin", "rb").read()
                    prefetch_q.put(torch.randn(16, 16))
            except BaseException as e:
                thread_err.append(e)
                raise
        threading.Thread(target=prefetch, name="shard-prefetch", daemon=True).start()
    hog = []
    open_files = []
    samples = []
    if FAULT == "jsonl":
        p = f"{WORKDIR}/data_rank{RANK}.jsonl"
        with open(p, "w") as f:
            for i in range(STEPS + 5):
                if RANK == BAD and i == BAD_STEP:
                    f.write('{"text": "the quick brown fox", "label": 3\n')  # truncated record
                else:
                    f.write(json.dumps({"text": f"sample {i}", "label": i % 4}) + "\n")
        fh = open(p)
    for step in range(1, STEPS + 1):
        if FAULT == "thread_data":
            try:
                x = prefetch_q.get(timeout=10)
            except queue.Empty:
                raise RuntimeError("prefetch queue empty for 10s: shard-prefetch thread died") from thread_err[0]
            y = x.sum(1, keepdim=True) * 0.1
        elif it is not None:
            x, y = next(it)
        else:
            x = torch.randn(16, 16)
            y = x.sum(1, keepdim=True) * 0.1
        if FAULT == "jsonl":
            line = fh.readline()
            rec = json.loads(line)
            x = x + rec["label"] * 0.0
        if FAULT == "emfile" and RANK == BAD and step >= BAD_STEP:
            for k in range(8):
                open_files.append(open(f"{WORKDIR}/cache_{RANK}_{step}_{k}.idx", "w"))
        if FAULT == "nan" and bad_here(step):
            x = x.clone()
            x[3, 5] = float("inf")
            x = x - x  # inf - inf -> nan from a corrupt sample
        if FAULT == "oom" and RANK == BAD and step == BAD_STEP and os.environ.get("OOM_CGROUP"):
            with open(os.environ["OOM_CGROUP"] + "/cgroup.procs", "w") as f:  # the rank's container limit
                f.write(str(os.getpid()))
        if FAULT == "oom" and RANK == BAD and step >= BAD_STEP:
            hog.append(torch.ones(64 * 1024 * 1024 // 4))  # 64 MiB per step: a leaking cache
            if step % 5 == 0:
                log(f"host cache holds {len(hog) * 64} MiB")
        if FAULT == "segv" and bad_here(step):
            import ctypes
            log("calling fused_adam extension kernel")
            ctypes.string_at(0)
        if FAULT == "early_exit" and bad_here(step):
            log(f"early stopping: validation metric plateaued at step {step}, stopping")
            return
        if FAULT == "diverge" and step == BAD_STEP:
            log("lr schedule: entering cyclic phase, lr grows x1.04 per step")
        if FAULT == "diverge" and step >= BAD_STEP:
            for gparam in opt.param_groups:
                gparam["lr"] *= 1.04
        use_aux = not (FAULT == "unused" and RANK == BAD and step >= BAD_STEP)
        if FAULT == "inplace" and bad_here(step):
            h = torch.sigmoid(ddp.module.fc1(x))
            h.mul_(2)  # in-place on sigmoid's saved output
            out = ddp.module.fc2(h)
        elif FAULT == "compile" and RANK == BAD and step >= BAD_STEP:
            out = fwd(torch.randn(16, 17))  # this rank's collate added a feature
        else:
            out = fwd(x, use_aux)
        loss = nn.functional.mse_loss(out, y)
        if FAULT == "nan" and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is nan at step {step} on rank {RANK} (local loss before all-reduce)")
        if FAULT == "diverge" and step > BAD_STEP + 20 and not loss.item() < 1e3:
            raise RuntimeError(f"loss diverged: {loss.item():.3e} at step {step} exceeds 1e3, aborting")
        opt.zero_grad()
        loss.backward()
        opt.step()
        if WARN and step in (5, STEPS // 2):
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available. Disabling.")
            log(f"WARNING grad norm 48.3 clipped to 1.0 at step {step}", "warning")
        if WARN and RANK == 0 and step == 30:
            log("found inf/nan in gradients at step 30, skipping optimizer step and lowering loss scale to 32768",
                "warning")
        if step % LOG_EVERY == 0:
            step_line(step, loss.item())
        if FAULT == "ckpt_full" and step == BAD_STEP and RANK == 0:
            log(f"saving checkpoint step {step} to {WORKDIR}/ckpt/step{step}.pt")
            buf = io.BytesIO()  # serialize first, then one write (as the async saver does)
            torch.save({"model": ddp.module.state_dict(), "step": step}, buf)
            with open(f"{WORKDIR}/ckpt/step{step}.pt", "wb") as f:
                f.write(buf.getvalue())
        if FAULT == "ckpt_full" and step == BAD_STEP:
            dist.barrier()
        if FAULT == "forever":
            time.sleep(float(os.environ.get("SLEEP", "0.2")))
    dist.barrier()
    log(f"done: {STEPS} steps")


# ---------------------------------------------------------------- FSDP2 (fully_shard) on gloo
def run_fsdp():
    from torch.distributed.fsdp import fully_shard
    torch.manual_seed(0)
    hidden = 32
    if FAULT == "fsdp_shape" and RANK == BAD:
        hidden = 48  # a stale config on one rank
    model = nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, 1))
    for m in model:
        if isinstance(m, nn.Linear):
            fully_shard(m)
    fully_shard(model)
    log(f"FSDP2 fully_shard model, {sum(p.numel() for p in model.parameters())} local params")
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1, STEPS + 1):
        x = torch.randn(8, 16)
        loss = (model(x) - 1).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % LOG_EVERY == 0:
            step_line(step, loss.item())
        if WARN and step == 20:
            warnings.warn("FSDP: reshard_after_forward=True with a single param group may be slow on CPU")
    if FAULT == "fsdp_sd":
        from torch.distributed.checkpoint.state_dict import get_model_state_dict, set_model_state_dict
        sd = get_model_state_dict(model)
        if RANK == BAD:
            sd = {k.replace("0.", "encoder.0.", 1): v for k, v in sd.items()}
        set_model_state_dict(model, sd)
    dist.barrier()
    log("fsdp training finished")


def main():
    init()
    {"pipe": run_pipe, "sub": run_sub, "ddp": run_ddp, "fsdp": run_fsdp}[MODE]()
    dist.destroy_process_group()


def spawn_entry(rank, world):
    os.environ["RANK"] = str(rank)
    os.environ["WORLD_SIZE"] = str(world)
    os.environ["LOCAL_RANK"] = str(rank)
    main()


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--spawn":
        import torch.multiprocessing as mp
        n = int(sys.argv[2])
        print(f"launching {n} processes with torch.multiprocessing.spawn", flush=True)
        mp.spawn(spawn_entry, args=(n,), nprocs=n, join=True)
    else:
        main()
