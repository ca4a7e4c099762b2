#!/usr/bin/env python
"""Tiny but chatty DDP trainer used to produce production-like logs with real faults."""
import sys, os
sys.path.insert(0, "/work/blind/r29/gen/pylib")
import json, math, time, random, logging, warnings, threading, queue, signal, socket, ctypes, resource
from datetime import timedelta, datetime, timezone

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import Dataset, DataLoader, IterableDataset
from tqdm import tqdm

E = os.environ.get
FAULT = E("FAULT", "none")
FRANK = int(E("FAULT_RANK", "-1"))
FSTEP = int(E("FAULT_STEP", "-1"))
RANK = int(E("RANK", E("SLURM_PROCID", "0")))
WORLD = int(E("WORLD_SIZE", E("SLURM_NTASKS", "1")))
LOCAL_RANK = int(E("LOCAL_RANK", E("SLURM_LOCALID", "0")))
os.environ.setdefault("RANK", str(RANK)); os.environ.setdefault("WORLD_SIZE", str(WORLD))
os.environ.setdefault("LOCAL_RANK", str(LOCAL_RANK))
HOST = socket.gethostname()
ME = (RANK == FRANK)

# ---------------------------------------------------------------- logging
LOGFMT = E("LOGFMT", "iso")


class JsonFmt(logging.Formatter):
    def format(self, rec):
        d = {"ts": datetime.fromtimestamp(rec.created, timezone.utc).isoformat(timespec="milliseconds"),
             "level": rec.levelname, "rank": RANK, "logger": rec.name, "msg": rec.getMessage()}
        if rec.exc_info:
            d["exc"] = self.formatException(rec.exc_info)
        return json.dumps(d)


def setup_logging():
    h = logging.StreamHandler(sys.stdout)
    if LOGFMT == "iso":
        f = logging.Formatter(f"%(asctime)s.%(msecs)03dZ %(levelname)-7s [rank{RANK}] %(name)s: %(message)s", "%Y-%m-%dT%H:%M:%S")
        f.converter = time.gmtime
    elif LOGFMT == "asctime":
        f = logging.Formatter(f"%(asctime)s - %(name)s - %(levelname)s - rank={RANK} - %(message)s")
    elif LOGFMT == "epoch":
        f = logging.Formatter(f"%(created).3f %(levelname).1s r{RANK} | %(message)s")
    elif LOGFMT == "json":
        f = JsonFmt()
    elif LOGFMT == "bracket":
        f = logging.Formatter(f"[%(asctime)s][%(levelname)s][{RANK}] %(message)s", "%H:%M:%S")
    else:  # plain: no time, no rank
        f = logging.Formatter("%(levelname)s:%(name)s:%(message)s")
    h.setFormatter(f)
    root = logging.getLogger()
    root.handlers[:] = [h]
    root.setLevel(logging.DEBUG if E("LOGLEVEL") == "DEBUG" else logging.INFO)
    logging.captureWarnings(True)


setup_logging()
log = logging.getLogger("trainer")
dlog = logging.getLogger("trainer.data")
clog = logging.getLogger("trainer.ckpt")
mlog = logging.getLogger("trainer.metrics")

# ---------------------------------------------------------------- config
CFG = dict(
    run_name=E("RUN_NAME", "lm-tiny-ablation"), vocab=int(E("VOCAB", "512")), seq=int(E("SEQ", "16")), dim=int(E("DIM", "64")),
    hidden=int(E("HIDDEN", "128")), classes=16, batch_size=32, lr=float(E("LR", "3e-3")), weight_decay=0.01,
    epochs=int(E("EPOCHS", "3")), steps_per_epoch=int(E("STEPS", "200")), eval_every=int(E("EVAL_EVERY", "100")),
    ckpt_every=int(E("CKPT_EVERY", "150")), ckpt_dir=E("CKPT_DIR", "/tmp/r29ckpt"), data_dir=E("DATA_DIR", ""),
    num_workers=int(E("NUM_WORKERS", "0")), log_every=int(E("LOG_EVERY", "10")), seed=1234,
    pg_timeout_s=int(E("PG_TIMEOUT", "30")), resume=E("RESUME", ""), step_sleep=float(E("STEP_SLEEP", "0.01")),
    grad_clip=1.0, amp=False, compile=False, activation_checkpointing=False,
)


class Model(nn.Module):
    def __init__(self, vocab, dim, hidden, classes):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, classes)

    def forward(self, ids):
        h = self.emb(ids).mean(1)
        h = F.gelu(self.fc1(h))
        h = F.gelu(self.fc2(h)) + h if h.shape[-1] == self.fc2.out_features else F.gelu(self.fc2(h))
        return self.head(h) * getattr(self, "temperature", 1.0)


def make_example(g, vocab, seq, classes):
    ids = torch.randint(0, vocab, (seq,), generator=g)
    label = int(ids[0].item()) % classes
    return ids, label


class SynthData(Dataset):
    def __init__(self, n, seed, cfg):
        self.n, self.seed, self.cfg = n, seed, cfg

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if FAULT == "worker_kill" and ME and i == FSTEP and torch.utils.data.get_worker_info() is not None:
            # a real SIGKILL of this worker process
            os.kill(os.getpid(), signal.SIGKILL)
        g = torch.Generator().manual_seed(self.seed * 100003 + i)
        ids, label = make_example(g, self.cfg["vocab"], self.cfg["seq"], self.cfg["classes"])
        return ids, label


class ShardData(Dataset):
    """jsonl shards: {"ids": [...], "label": k}"""

    def __init__(self, files):
        self.files = files
        self.index = []
        for fi, fn in enumerate(files):
            with open(fn) as fh:
                n = sum(1 for _ in fh)
            self.index += [(fi, j) for j in range(n)]
        self.cache = {}

    def __len__(self):
        return len(self.index)

    def __getitem__(self, i):
        fi, j = self.index[i]
        if fi not in self.cache:
            with open(self.files[fi]) as fh:
                self.cache[fi] = fh.readlines()
        rec = json.loads(self.cache[fi][j])
        return torch.tensor(rec["ids"], dtype=torch.long), int(rec["label"])


class Wrap(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.module = m

    def forward(self, x):
        return self.module(x)


class MetricsUploader(threading.Thread):
    def __init__(self):
        super().__init__(name="metrics-uploader", daemon=True)
        self.q = queue.Queue()
        self.sent = 0

    def run(self):
        while True:
            item = self.q.get()
            if item is None:
                return
            payload = json.dumps({"run": CFG["run_name"], "rank": RANK, **item})
            self.sent += 1
            if self.sent % 25 == 0:
                mlog.debug("uploader: flushed %d records (%d bytes last)", self.sent, len(payload))


def pbar(it, total, desc):
    disable = RANK != 0 and E("TQDM_ALL", "0") != "1"
    return tqdm(it, total=total, desc=desc, disable=disable, file=sys.stderr, mininterval=0.5, ncols=100)


STOP = {"flag": False}


def _usr1(signum, frame):
    STOP["flag"] = True


if E("USR1_CKPT") == "1":
    signal.signal(signal.SIGUSR1, _usr1)


def main():
    t0 = time.time()
    cfg = CFG
    torch.manual_seed(cfg["seed"] + RANK)
    random.seed(cfg["seed"] + RANK)
    log.info("starting %s on %s pid=%d rank=%d/%d local_rank=%d", cfg["run_name"], HOST, os.getpid(), RANK, WORLD, LOCAL_RANK)
    if RANK == 0:
        log.info("config:\n%s", json.dumps(cfg, indent=2, sort_keys=True))
        for k in sorted(os.environ):
            if k.startswith(("TORCH", "MASTER", "SLURM_JOB", "SLURM_NTASKS", "OMP", "LOGLEVEL", "NCCL", "GLOO")):
                log.info("env %s=%s", k, os.environ[k])
    warnings.warn("torch.utils._pytree._register_pytree_node is deprecated. Please use torch.utils._pytree.register_pytree_node instead.", FutureWarning)
    if FAULT == "cgroup_oom" and ME:
        cg = E("CGROUP_DIR")
        with open(os.path.join(cg, "cgroup.procs"), "w") as fh:
            fh.write(str(os.getpid()))
    if FAULT == "emfile" and ME:
        resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))

    # optional: tokenizer vocab download on rank 0
    if E("VOCAB_URL"):
        if RANK == 0:
            import urllib.request
            url = E("VOCAB_URL")
            for attempt in range(1, 3):
                try:
                    log.info("fetching vocab from %s (attempt %d)", url, attempt)
                    with urllib.request.urlopen(url, timeout=5) as r:
                        open("/tmp/vocab.json", "wb").write(r.read())
                    break
                except Exception as e:
                    if attempt == 2:
                        raise
                    log.warning("vocab fetch failed: %r, retrying in 2s", e)
                    time.sleep(2)

    dist.init_process_group("gloo", timeout=timedelta(seconds=cfg["pg_timeout_s"]))
    log.info("process group initialised backend=gloo world_size=%d (%.2fs)", dist.get_world_size(), time.time() - t0)
    if E("VOCAB_URL"):
        dist.barrier()

    model = Model(cfg["vocab"], cfg["dim"], cfg["hidden"], cfg["classes"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    start_step = 0
    if cfg["resume"]:
        path = cfg["resume"].format(rank=RANK)
        per_rank = "{rank}" in cfg["resume"]
        if per_rank or RANK == 0:
            clog.info("resuming from %s", path)
            sd = torch.load(path, map_location="cpu", weights_only=True)
            model.load_state_dict(sd["model"])
            opt.load_state_dict(sd["optim"])
            start_step = int(sd["step"])
            clog.info("resumed at step %d", start_step)
        if not per_rank:
            for p in model.parameters():
                dist.broadcast(p.data, 0)
            t = torch.tensor([start_step]); dist.broadcast(t, 0); start_step = int(t.item())
    nparams = sum(p.numel() for p in model.parameters())
    log.info("model params=%d (%.2f MB)", nparams, nparams * 4 / 2**20)
    if E("MANUAL_DDP") == "1":
        log.info("using manual gradient all-reduce (DDP disabled)")
        ddp = Wrap(model)
    else:
        ddp = DDP(model)

    files = None
    if cfg["data_dir"]:
        files = sorted(os.path.join(cfg["data_dir"], f) for f in os.listdir(cfg["data_dir"]) if f.endswith(".jsonl"))
        mine = files[RANK::WORLD]
        if FAULT == "missing_shard" and ME:
            mine = mine + [os.path.join(cfg["data_dir"], "train-%05d-of-00032.jsonl" % (32 + RANK))]
        dlog.info("rank %d reads shards %s", RANK, [os.path.basename(f) for f in mine])
    else:
        mine = None

    uploader = MetricsUploader(); uploader.start()
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0**16) if E("AMP") == "fp16" else None
    lock = threading.Lock()
    writer = None
    global_step = start_step
    total_steps = cfg["epochs"] * cfg["steps_per_epoch"]
    best = float("inf")
    open_files = []
    for epoch in range(cfg["epochs"]):
        if mine is not None:
            shards_now = mine[:-1] if (FAULT == "missing_shard" and ME and epoch < cfg["epochs"] - 1) else mine
            ds = ShardData(shards_now)
        else:
            ds = SynthData(cfg["steps_per_epoch"] * cfg["batch_size"], cfg["seed"] + 7919 * RANK + epoch, cfg)
        dl = DataLoader(ds, batch_size=cfg["batch_size"], shuffle=False, num_workers=cfg["num_workers"],
                        drop_last=True, persistent_workers=False)
        log.info("epoch %d/%d: %d batches, workers=%d", epoch + 1, cfg["epochs"], len(dl), cfg["num_workers"])
        bar = pbar(dl, len(dl), f"epoch {epoch + 1}")
        tstep = time.time()
        for ids, labels in bar:
            global_step += 1
            s = global_step
            if FAULT == "lr_spike" and s == FSTEP:
                for g_ in opt.param_groups:
                    g_["lr"] = g_["lr"] * 150  # warm restart bug: schedule restarts at 150x the peak lr
            if FAULT == "shuffle_labels" and s >= FSTEP:
                labels = labels[torch.randperm(labels.shape[0])] if s % 2 else (labels * 7 + 3) % cfg["classes"]
            if ME and s == FSTEP:
                if FAULT == "nan_raise" or FAULT == "nan_print":
                    ddp.module.fc1.weight.data[0, 0] = float("inf")
                elif FAULT == "shape":
                    labels = labels[: ids.shape[0] - 3]  # packed-sequence collate drops trailing samples' labels
                elif FAULT == "dtype":
                    ids = ids.float() / 1.0
                elif FAULT == "assert":
                    ids = ids[:-3]; labels = labels[:-3]
                elif FAULT == "segv":
                    log.info("calling native fast-path tokenizer")
                    ctypes.string_at(0)
                elif FAULT == "abort":
                    log.info("native gradient compressor: entering compress()")
                    os.abort()
                elif FAULT == "hang":
                    dlog.debug("refreshing shard cache under lock")
                    with lock:
                        with lock:  # non-reentrant: real deadlock
                            pass
                elif FAULT == "sigkill_ext":
                    open(E("PIDFILE"), "w").write(str(os.getpid()))
                elif FAULT == "cgroup_oom":
                    dlog.info("enabling in-memory replay buffer")
                elif FAULT == "ulimit_memerr":
                    soft = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
                    resource.setrlimit(resource.RLIMIT_AS, (soft + 300 * 2**20, resource.RLIM_INFINITY))
                    dlog.info("allocating pinned prefetch buffer")
                    buf = torch.empty(int(1.5 * 2**30), dtype=torch.uint8)
                elif FAULT == "coll_mismatch":
                    stats = torch.tensor([float(ids.shape[0]), float(ids.shape[1]), 0.0])
                    dist.all_reduce(stats)
                elif FAULT == "key_err":
                    batch = {"input_ids": ids, "labels": labels}
                    mask = batch["attention_mask"]
                elif FAULT == "thread_exc":
                    pass
            if FAULT == "cgroup_oom" and ME and s >= FSTEP:
                open_files.append(torch.ones(64 * 2**20 // 4))  # replay buffer grows 64MB per step
            if FAULT == "assert" and ids.shape[0] != cfg["batch_size"]:
                pass
            if FAULT == "assert":
                assert ids.shape[0] == cfg["batch_size"], f"rank {RANK}: got batch of {ids.shape[0]} samples, expected {cfg['batch_size']}"
            if FAULT == "emfile" and ME and s >= FSTEP:
                open_files.append(open(__file__))  # leaky shard index reader
            if FAULT == "emfile" and ME and s >= FSTEP and s % 5 == 0:
                dlog.debug("shard index handles open: %d", len(open_files))
            if E("HEALTHY_NOISE") == "1" and s in (37, 211, 389):
                try:
                    resp = '{"status": "ok", "queue_depth": 3' if s != 389 else '{"status": "ok"}'
                    json.loads(resp)
                except json.JSONDecodeError:
                    mlog.exception("failed to parse sidecar response at step %d; will retry next interval", s)
                if s == 211:
                    warnings.warn("The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible.", UserWarning)
            if E("USR1_CKPT") == "1":
                fl = torch.tensor([1.0 if STOP["flag"] else 0.0]); dist.all_reduce(fl, op=dist.ReduceOp.MAX)
                STOP["flag"] = bool(fl.item() > 0)
            if STOP["flag"]:
                log.warning("SIGUSR1 received: writing emergency checkpoint at step %d before the time limit", s)
                save_ckpt(ddp, opt, cfg, s, writer, lock)
                log.warning("emergency checkpoint done; exiting so the job can be requeued")
                dist.destroy_process_group()
                sys.exit(0)
            if E("AMP") == "fp16":
                with torch.autocast("cpu", dtype=torch.float16):
                    if FAULT == "fp16_overflow" and ME and s >= FSTEP:
                        ddp.module.temperature = 3e4  # config typo: logit temperature 3e4 instead of 3e-4... applied in forward
                    logits = ddp(ids)
                    loss = F.cross_entropy(logits.float(), labels)
            else:
                logits = ddp(ids)
                loss = F.cross_entropy(logits, labels)
            if FAULT == "nan_raise" and not torch.isfinite(loss):
                raise FloatingPointError(f"Loss is {loss.item()} at step {s} on rank {RANK}; aborting (see --detect-anomaly)")
            opt.zero_grad(set_to_none=True)
            if E("AMP") == "fp16":
                scale_before = scaler.get_scale()
                scaler.scale(loss).backward()
            else:
                loss.backward()
            if E("MANUAL_DDP") == "1":
                for p in ddp.parameters():
                    dist.all_reduce(p.grad); p.grad /= WORLD
            if E("AMP") == "fp16":
                scaler.unscale_(opt)
                gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), cfg["grad_clip"])
                scaler.step(opt); scaler.update()
                if scaler.get_scale() < scale_before:
                    logging.getLogger("trainer.amp").warning("step %d: gradient overflow, skipping optimizer step; loss scale %g -> %g", s, scale_before, scaler.get_scale())
                if scaler.get_scale() < float(E("MIN_LOSS_SCALE", "1e-4")):
                    raise RuntimeError(f"loss scale {scaler.get_scale():g} fell below min_loss_scale {E('MIN_LOSS_SCALE', '1e-4')} at step {s}; training cannot make progress")
            else:
                gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), cfg["grad_clip"])
                opt.step()
            if cfg["step_sleep"]:
                time.sleep(cfg["step_sleep"])
            if s % cfg["log_every"] == 0:
                dt = (time.time() - tstep) / cfg["log_every"]; tstep = time.time()
                lr = opt.param_groups[0]["lr"]
                log.info("step %d/%d epoch %d loss %.4f lr %.2e grad_norm %.3f step_time %.3fs throughput %.1f samples/s",
                         s, total_steps, epoch + 1, loss.item(), lr, gn.item(), dt, cfg["batch_size"] / max(dt, 1e-6))
                rec = {"step": s, "loss": loss.item(), "grad_norm": gn.item()}
                if FAULT == "thread_exc" and ME and s >= FSTEP:
                    rec["grad_norm"] = gn  # tensor slipped in -> json.dumps fails in the thread
                uploader.q.put(rec)
                if FAULT == "thread_exc" and not uploader.is_alive():
                    raise RuntimeError(f"metrics uploader thread died (sent {uploader.sent} records); refusing to train without metrics")
            if s % cfg["eval_every"] == 0:
                evaluate(ddp, cfg, s)
            if s % cfg["ckpt_every"] == 0:
                writer = save_ckpt(ddp, opt, cfg, s, writer, lock)
        bar.close()
    if writer is not None:
        writer.join()
    uploader.q.put(None); uploader.join(timeout=5)
    dist.barrier()
    log.info("training complete: %d steps in %.1fs", global_step, time.time() - t0)
    dist.destroy_process_group()


def evaluate(ddp, cfg, step):
    ddp.eval()
    n_batches = int(E("EVAL_BATCHES", "8"))
    correct = 0; seen = 0; tot = 0.0
    with torch.no_grad():
        g = torch.Generator().manual_seed(999 + RANK)
        for b in pbar(range(n_batches), n_batches, "eval"):
            ids = torch.randint(0, cfg["vocab"], (cfg["batch_size"], cfg["seq"]), generator=g)
            labels = ids[:, 0] % cfg["classes"]
            if FAULT == "eval_exc" and RANK == FRANK and step >= FSTEP:
                keep = labels >= 0
                keep[:] = False  # filter for "valid" labels dropped everything on this rank
                ids, labels = ids[keep], labels[keep]
            out = ddp.module(ids)
            tot += F.cross_entropy(out, labels, reduction="sum").item() if len(labels) else 0.0
            correct += (out.argmax(-1) == labels).sum().item(); seen += len(labels)
    acc = correct / seen
    t = torch.tensor([tot / seen, acc]); dist.all_reduce(t); t /= dist.get_world_size()
    logging.getLogger("trainer.eval").info("eval step %d: loss %.4f acc %.3f (%d samples/rank)", step, t[0].item(), t[1].item(), seen)
    ddp.train()


def _write(sd, path, lock):
    if E("CKPT_FORMAT") == "pickle":
        import pickle
        with lock:
            with open(path + ".tmp", "wb") as fh:
                pickle.dump({k: (v if not isinstance(v, dict) else {kk: vv for kk, vv in v.items()}) for k, v in sd.items()}, fh)
            os.replace(path + ".tmp", path)
            clog.info("checkpoint shard written: %s (%.1f MB)", path, os.path.getsize(path) / 2**20)
        return
    with lock:
        torch.save(sd, path + ".tmp")
        os.replace(path + ".tmp", path)
        clog.info("checkpoint written: %s (%.1f MB)", path, os.path.getsize(path) / 2**20)


def save_ckpt(ddp, opt, cfg, step, writer, lock):
    if writer is not None:
        clog.info("waiting for previous async checkpoint writer")
        writer.join()
    dist.barrier()
    if RANK == 0 or E("CKPT_ALL_RANKS") == "1":
        d = os.path.join(E(f"CKPT_DIR_RANK{RANK}", cfg["ckpt_dir"]), f"step_{step:06d}")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, f"rank{RANK}.pt" if E("CKPT_ALL_RANKS") == "1" else "model.pt")
        sd = {"model": ddp.module.state_dict(), "optim": opt.state_dict(), "step": step,
              "cfg": {k: v for k, v in cfg.items()}}
        clog.info("saving checkpoint step %d -> %s (async=%s)", step, path, E("ASYNC_CKPT", "0"))
        if E("ASYNC_CKPT") == "1":
            if FAULT == "writer_hang" and ME and step >= FSTEP:
                lock.acquire()  # the main thread holds the writer's lock and forgets to release it
            w = threading.Thread(target=_write, args=(sd, path, lock), name=f"ckpt-writer-{step}", daemon=True)
            w.start()
            return w
        _write(sd, path, lock)
    return None


if __name__ == "__main__":
    if E("RECORD") == "1":
        from torch.distributed.elastic.multiprocessing.errors import record
        main = record(main)
    main()
