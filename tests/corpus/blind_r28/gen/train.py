"""Tiny distributed training job used to produce real failures. Fault chosen by env FAULT=kind, FAULT_RANK, FAULT_STEP."""
import logging
import os
import sys
import threading
import queue
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

try:
    from torch.distributed.elastic.multiprocessing.errors import record
except Exception:  # pragma: no cover
    def record(f):
        return f

FAULT = os.environ.get("FAULT", "none")
FAULT_RANK = int(os.environ.get("FAULT_RANK", "-1"))
FAULT_STEP = int(os.environ.get("FAULT_STEP", "5"))
STEPS = int(os.environ.get("STEPS", "20"))
STEP_SLEEP = float(os.environ.get("STEP_SLEEP", "0.2"))
TIMEOUT = int(os.environ.get("DIST_TIMEOUT", "30"))
LAYOUT = os.environ.get("LAYOUT", "ddp")
LOGFMT = os.environ.get("LOGFMT", "rank")
CKPT_DIR = os.environ.get("CKPT_DIR", "")
CKPT_EVERY = int(os.environ.get("CKPT_EVERY", "10"))
DATA_DIR = os.environ.get("DATA_DIR", "")
WORKERS = int(os.environ.get("WORKERS", "0"))


def env_rank():
    if "RANK" in os.environ:
        return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ.get("LOCAL_RANK", 0))
    return int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"]), int(os.environ.get("SLURM_LOCALID", 0))


RANK, WORLD, LOCAL = env_rank()
os.environ.setdefault("RANK", str(RANK))
os.environ.setdefault("WORLD_SIZE", str(WORLD))
if LOGFMT == "rank":
    fmt = f"%(asctime)s %(levelname)s [rank{RANK}] %(name)s: %(message)s"
else:
    fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s"
logging.basicConfig(level=logging.INFO, format=fmt, stream=sys.stdout)
log = logging.getLogger("train")


def is_fault(kind):
    return FAULT == kind and RANK == FAULT_RANK


class ToyData(Dataset):
    def __init__(self, n, rank):
        self.n = n
        self.rank = rank
        g = torch.Generator().manual_seed(1234 + rank)
        self.x = torch.randn(n, 32, generator=g)
        self.y = torch.randn(n, 1, generator=g)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if FAULT == "dl_exc" and self.rank == FAULT_RANK and i == FAULT_STEP * 8 + 3:
            # real bad sample: decode a record whose header is malformed
            rec = b"\x00\x01garbage"
            length = int(rec[:4].decode("ascii"))  # raises ValueError
            return length
        if FAULT == "dl_oom" and self.rank == FAULT_RANK and i == FAULT_STEP * 8 + 3:
            with open(os.path.join(os.environ["CGROUP"], "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
            aug = [torch.ones(16 * 1024 * 1024) for _ in range(60)]  # augmentation cache, 64 MiB each
        if FAULT == "dl_kill" and self.rank == FAULT_RANK and i == FAULT_STEP * 8 + 3:
            import signal
            os.kill(os.getpid(), signal.SIGKILL)
        return self.x[i], self.y[i]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(32, 64)
        self.l2 = nn.Linear(64, 1)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))


def save_ckpt(model, opt, step):
    cdir = CKPT_DIR.format(rank=RANK)
    os.makedirs(cdir, exist_ok=True)
    path = os.path.join(cdir, f"ckpt_step{step}_rank{RANK}.pt")
    if os.environ.get("SAVE_FH"):
        log.info("saving optimizer shard to %s", path)
        with open(path, "wb") as fh:
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                        "extra": torch.randn(300_000)}, fh)
        log.info("checkpoint shard saved: %s", path)
        return
    log.info("saving checkpoint to %s", path)
    extra = torch.randn(400_000) if FAULT in ("ckpt_full",) else torch.zeros(1)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "extra": extra}, path)
    log.info("checkpoint saved: %s", path)


def pipeline_main():
    # 4-stage pipeline: rank r receives activations from r-1 and sends to r+1; loss on last stage
    torch.manual_seed(RANK)
    stage = nn.Linear(16, 16)
    for step in range(STEPS):
        t0 = time.time()
        if RANK == 0:
            act = torch.randn(8, 16)
        else:
            act = torch.empty(8, 16)
            dist.recv(act, src=RANK - 1)
        if is_fault("hang_sleep") and step == FAULT_STEP:
            log.info("stage %d: prefetching next micro-batch", RANK)
            time.sleep(100000)
        if is_fault("exc") and step == FAULT_STEP:
            raise RuntimeError(f"stage {RANK}: activation checkpoint buffer not initialised for micro-batch {step}")
        out = stage(act).detach()
        if RANK < WORLD - 1:
            dist.send(out, dst=RANK + 1)
        else:
            loss = out.pow(2).mean()
            log.info("step %d loss %.4f step_time %.3fs", step, loss.item(), time.time() - t0)
        time.sleep(STEP_SLEEP)
    dist.barrier()
    log.info("pipeline finished")


@record
def main():
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    log.info("starting rank %d/%d local %d pid %d host %s restart %d", RANK, WORLD, LOCAL, os.getpid(),
             os.uname().nodename, restart)
    if is_fault("cfgkey"):
        cfg = {"model": {"d_model": 64}, "data": {"seq_len": 128}}
        log.info("building tokenizer for vocab %s", cfg["data"]["vocab_size"])
    if is_fault("hub"):
        import urllib.request
        log.info("downloading tokenizer from hub")
        urllib.request.urlopen("https://huggingface.co/gpt2/resolve/main/tokenizer.json", timeout=15).read()
    if FAULT == "restart_pre" and RANK == FAULT_RANK and restart == 0:
        import socket
        log.info("fetching run config from config service")
        socket.create_connection(("127.0.0.1", 34999), timeout=5)  # service not up yet: ConnectionRefusedError
    dist.init_process_group("gloo", timeout=timedelta(seconds=TIMEOUT))
    log.info("process group initialised (gloo), world %d", dist.get_world_size())
    if os.environ.get("FUSED_OPT"):
        from apex.optimizers import FusedAdam  # optional fused optimizer
    if LAYOUT == "pipeline":
        pipeline_main()
        dist.destroy_process_group()
        return

    if FAULT == "restart_once" and RANK == FAULT_RANK and restart == 0:
        raise ConnectionError("transient: could not reach parameter cache at startup (attempt %d)" % restart)

    torch.manual_seed(0)
    if os.environ.get("NOISY"):
        import warnings
        scaler = torch.amp.GradScaler("cuda")  # warns: CUDA not available, disabling
    model = Net()
    if is_fault("ckpt_load_mismatch") or is_fault("ckpt_corrupt"):
        path = os.environ["RESUME"]
        log.info("resuming from %s", path)
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd["model"])
    ddp = nn.parallel.DistributedDataParallel(model) if LAYOUT != "plain" else model
    opt = torch.optim.SGD(ddp.parameters(), lr=float(os.environ.get("LR", "0.01")))

    sub = None
    if LAYOUT == "subgroups":
        groups = [dist.new_group([0, 1]), dist.new_group([2, 3])]
        sub = groups[RANK // 2]
        log.info("joined subgroup %s", [0, 1] if RANK < 2 else [2, 3])

    if DATA_DIR:
        if is_fault("nofile"):
            import resource
            resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        handles = []
        shard = os.path.join(DATA_DIR, f"shard_{RANK}.bin")
        log.info("opening data shard %s", shard)
        handles.append(open(shard, "rb"))
        if is_fault("nofile"):
            for i in range(200):  # memory-mapped index files, one per sub-shard
                handles.append(open(os.path.join(DATA_DIR, f"shard_{RANK}.bin"), "rb"))

    n = 8 * STEPS
    if is_fault("exit0"):
        n = 8 * FAULT_STEP  # uneven data: this rank's shard is shorter
    ds = ToyData(n, RANK)
    dl = DataLoader(ds, batch_size=8, num_workers=WORKERS)
    it = iter(dl)

    helper_q = None
    if is_fault("thread_exc"):
        helper_q = queue.Queue()

        def prefetch():
            time.sleep(STEP_SLEEP * FAULT_STEP)
            cfg = {"seq_len": 128}
            helper_q.put(cfg["micro_batches"])  # KeyError in the helper thread
        threading.Thread(target=prefetch, name="prefetcher", daemon=True).start()

    for step in range(STEPS):
        t0 = time.time()
        try:
            x, y = next(it)
        except StopIteration:
            log.info("rank %d: data exhausted after %d steps, done", RANK, step)
            return
        if is_fault("thread_exc") and step == FAULT_STEP + 2:
            helper_q.get()  # waits forever: the helper died
        if is_fault("survive") and step in (FAULT_STEP, FAULT_STEP + 3):
            try:
                rec = b"\xff\xfe" + bytes(x[0, :4].abs().mul(50).int().tolist())
                rec.decode("utf-8")
            except UnicodeDecodeError:
                log.exception("skipping sample with undecodable text at step %d", step)
        if is_fault("shape") and step == FAULT_STEP:
            x = x[:, :30]  # a feature column dropped on this rank
        if is_fault("dtype") and step == FAULT_STEP:
            x = x.double()
        if is_fault("nan") and step >= FAULT_STEP:
            x = x.clone()
            x[0, 0] = float("inf")
        if is_fault("exc") and step == FAULT_STEP:
            sched = {"warmup": 100}
            lr = sched["warmup"] / (step - FAULT_STEP)  # ZeroDivisionError
        if is_fault("hang_sleep") and step == FAULT_STEP:
            log.info("rank %d: running eval callback", RANK)
            time.sleep(100000)
        if is_fault("slow") and step == FAULT_STEP:
            time.sleep(float(os.environ.get("SLOW_SECONDS", "90")))
        if is_fault("read_block") and step == FAULT_STEP:
            r, w = os.pipe()
            os.read(r, 1)  # blocks forever, nobody writes
        if is_fault("rlimit_as") and step == FAULT_STEP:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, 3 * 1024 ** 3))
            buf = torch.empty(6 * 1024 ** 3 // 4, dtype=torch.float32)  # activation cache
        if is_fault("memlimit") and step == FAULT_STEP:
            cg = os.environ["CGROUP"]
            with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
            cache = []
            for i in range(40):
                cache.append(torch.ones(64 * 1024 * 1024 // 4 * 4))  # 64 MiB each, touched
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}, stopping training")
        opt.zero_grad()
        loss.backward()
        if LAYOUT == "plain":
            for p_ in model.parameters():
                dist.all_reduce(p_.grad)
                p_.grad /= WORLD
        opt.step()

        metric = loss.detach().clone().reshape(1)
        if is_fault("mismatch_size") and step == FAULT_STEP:
            metric = torch.cat([metric, torch.zeros(3)])
        if is_fault("mismatch_op") and step == FAULT_STEP:
            outl = [torch.zeros(1) for _ in range(WORLD)]
            dist.all_gather(outl, metric)
        elif is_fault("skip_coll") and step == FAULT_STEP:
            log.info("rank %d: skipping metric sync (no valid tokens this step)", RANK)
        else:
            dist.all_reduce(metric, group=sub)
        if RANK == 0 or LAYOUT == "subgroups" or os.environ.get("ALL_LOG"):
            log.info("step %d loss %.4f avg_loss %.4f step_time %.3fs", step, loss.item(),
                     metric[0].item() / (2 if sub is not None else WORLD), time.time() - t0)
        if CKPT_DIR and (step + 1) % CKPT_EVERY == 0:
            if RANK == 0 or os.environ.get("ALL_SAVE"):
                save_ckpt(model, opt, step + 1)
            dist.barrier()
        time.sleep(STEP_SLEEP)
    dist.barrier()
    log.info("training finished")
    dist.destroy_process_group()


def dump_fr(reason):
    prefix = os.environ.get("TORCH_FR_DUMP_TEMP_FILE")
    if not prefix:
        return
    try:
        data = torch._C._distributed_c10d._dump_fr_trace()
        with open(f"{prefix}{RANK}", "wb") as f:
            f.write(data)
        log.info("flight recorder trace dumped to %s%d (%s)", prefix, RANK, reason)
    except Exception as e:  # noqa
        log.warning("could not dump flight recorder trace: %s", e)


if __name__ == "__main__":
    if os.environ.get("TORCH_FR_DUMP_TEMP_FILE"):
        import signal

        def _on_term(signum, frame):
            dump_fr("SIGTERM")
            sys.exit(128 + signum)
        signal.signal(signal.SIGTERM, _on_term)
        try:
            main()
        except Exception:
            dump_fr("exception")
            raise
    else:
        main()
