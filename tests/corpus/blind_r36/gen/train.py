"""Small DDP regression trainer used to produce the evaluation runs (CPU, gloo).

Config comes from a JSON file (--config). Data: <data_dir>/<rank:03d>/part-*.npy (or .csv) per rank.
"""
import argparse, concurrent.futures, ctypes, datetime, faulthandler, json, logging, math, os, queue, sys, threading, time
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

faulthandler.enable()


# ---------------------------------------------------------------- logging styles
class Out:
    def __init__(self, style, rank, world):
        self.style, self.rank, self.world = style, rank, world
        self.log = logging.getLogger("train")
        if style == "logging":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format=f"%(asctime)s %(levelname)s [%(name)s] [rank {rank}] %(message)s")
        elif style == "trainer":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format="[%(asctime)s,%(msecs)03d] [%(levelname)s] [minitrainer.%(module)s] %(message)s",
                                datefmt="%Y-%m-%d %H:%M:%S")
        self._t0 = time.time()

    def info(self, msg, **kv):
        if self.style == "print":
            print(msg, flush=True)
        elif self.style == "json":
            rec = {"ts": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds"),
                   "level": "info", "rank": self.rank, "msg": msg}
            rec.update(kv)
            print(json.dumps(rec), flush=True)
        elif self.style == "bar":
            print(msg, flush=True)
        else:
            self.log.info(msg)
        sys.stdout.flush()

    def warn(self, msg):
        if self.style in ("logging", "trainer"):
            self.log.warning(msg)
        elif self.style == "json":
            print(json.dumps({"ts": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds"),
                              "level": "warning", "rank": self.rank, "msg": msg}), flush=True)
        else:
            print("WARNING: " + msg, flush=True)

    def step(self, step, total, loss, lr, extra=None):
        if self.style == "print":
            print(f"step {step:5d}/{total} | loss {loss:.4f} | lr {lr:.2e}", flush=True)
        elif self.style == "logging":
            self.log.info("step=%d loss=%.5f lr=%.3g", step, loss, lr)
        elif self.style == "json":
            rec = {"ts": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds"),
                   "rank": self.rank, "step": step, "loss": round(loss, 6), "lr": lr}
            if extra:
                rec.update(extra)
            print(json.dumps(rec), flush=True)
        elif self.style == "bar":
            if self.rank == 0:
                el = time.time() - self._t0
                frac = step / total
                n = int(frac * 20)
                bar = "\u2588" * n + " " * (20 - n)
                rate = step / max(el, 1e-6)
                left = (total - step) / max(rate, 1e-6)
                sys.stderr.write(f"\rTraining: {int(frac*100):3d}%|{bar}| {step}/{total} "
                                 f"[{int(el)//60:02d}:{int(el)%60:02d}<{int(left)//60:02d}:{int(left)%60:02d}, "
                                 f"{rate:.2f}it/s, loss={loss:.4f}]")
                sys.stderr.flush()
        else:  # trainer
            if step % 5 == 0:
                self.log.info("{'loss': %.4f, 'learning_rate': %.3g, 'epoch': %.2f, 'step': %d}", loss, lr, step / total, step)


# ---------------------------------------------------------------- data
class Rows(Dataset):
    def __init__(self, arr):
        self.arr = arr

    def __len__(self):
        return len(self.arr)

    def __getitem__(self, i):
        row = torch.from_numpy(np.array(self.arr[i]))
        return row[:-1], row[-1:]


def load_part(path, preload):
    if preload:
        return np.load(path)
    return np.load(path, mmap_mode="r")


class CsvPrefetcher(threading.Thread):
    """Reads csv parts in a background thread and hands batches to the training loop."""

    def __init__(self, files, batch_size):
        super().__init__(name="csv-prefetch", daemon=True)
        self.files, self.bs, self.q = files, batch_size, queue.Queue(maxsize=8)
        self.failed = None

    def run(self):
        try:
            for f in self.files:
                with open(f, "rb") as fh:
                    rows = []
                    for raw in fh:
                        line = raw.decode("utf-8").strip()
                        rows.append([float(v) for v in line.split(",")])
                        if len(rows) == self.bs:
                            t = torch.tensor(rows, dtype=torch.float32)
                            self.q.put((t[:, :-1], t[:, -1:]))
                            rows = []
            self.q.put(None)
        except BaseException as e:  # noqa: BLE001 - reported to the main thread below
            self.failed = e
            raise

    def __iter__(self):
        while True:
            try:
                item = self.q.get(timeout=5)
            except queue.Empty:
                if self.failed is not None:
                    raise RuntimeError("csv prefetch thread died; no more batches") from self.failed
                if not self.is_alive():
                    raise RuntimeError("csv prefetch thread exited without finishing")
                continue
            if item is None:
                return
            yield item


class NativeIndexReader:
    """Record reader over an in-memory buffer with a byte-offset index (as a C decoder would do)."""

    def __init__(self, blob_path, index_path):
        self.blob = open(blob_path, "rb").read()
        self.buf = ctypes.create_string_buffer(self.blob, len(self.blob))
        self.base = ctypes.addressof(self.buf)
        self.index = [tuple(map(int, l.split())) for l in open(index_path) if l.strip()]

    def read(self, k):
        off, n = self.index[k]
        raw = ctypes.string_at(self.base + off, n)
        return np.frombuffer(raw, dtype=np.float32).copy()


# ---------------------------------------------------------------- model
class MLP(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))

    def forward(self, x):
        return self.net(x)


class DynamicLossScaler:
    def __init__(self, init_scale=2.0 ** 16, min_scale=1.0, window=20):
        self.scale, self.min_scale, self.window, self.good = init_scale, min_scale, window, 0

    def update(self, overflow, out):
        if overflow:
            if self.scale <= self.min_scale:
                raise RuntimeError(f"Current loss scale already at minimum ({self.min_scale}) - cannot decrease "
                                   "scale anymore. Exiting run.")
            self.scale = max(self.scale / 2, self.min_scale)
            out.info(f"[fp16] OVERFLOW! Skipping step. Attempted loss scale: {self.scale*2:g}, reducing to {self.scale:g}")
            self.good = 0
        else:
            self.good += 1
            if self.good % self.window == 0:
                self.scale *= 2


# ---------------------------------------------------------------- checkpoints
class Checkpointer:
    def __init__(self, cfg, out):
        self.dir, self.out = cfg.get("ckpt_dir"), out
        self.every = cfg.get("ckpt_every", 0)
        self.timeout = cfg.get("save_timeout")
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ckpt-writer")
        self.pending = None

    def _write(self, state, path):
        tmp = path + ".tmp" if not os.path.exists(path) else path
        with open(tmp, "wb") as f:
            torch.save(state, f)
        if tmp != path:
            os.replace(tmp, path)
        return path

    def wait(self):
        if self.pending is None:
            return
        step = self.pending.step
        try:
            p = self.pending.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError as e:
            raise RuntimeError(f"async checkpoint save for step {step} did not complete within "
                               f"{self.timeout}s (writer still running)") from e
        self.out.info(f"checkpoint saved: {p}")
        self.pending = None

    def save(self, step, model, opt):
        self.wait()
        path = os.path.join(self.dir, f"step_{step:06d}.pt")
        state = {"step": step, "model": {k: v.detach().clone() for k, v in model.state_dict().items()},
                 "optim": opt.state_dict()}
        self.out.info(f"saving checkpoint (async) -> {path}")
        self.pending = self.pool.submit(self._write, state, path)
        self.pending.step = step


# ---------------------------------------------------------------- main
def rank_world():
    if "RANK" in os.environ:
        return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ.get("LOCAL_RANK", 0))
    if "SLURM_PROCID" in os.environ:
        return int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"]), int(os.environ.get("SLURM_LOCALID", 0))
    return 0, 1, 0


def run(rank, world, cfg):
    out = Out(cfg.get("log_style", "print"), rank, world)
    timeout = datetime.timedelta(seconds=cfg.get("pg_timeout", 30))
    if "MASTER_ADDR" not in os.environ:
        os.environ["MASTER_ADDR"] = "127.0.0.1"
        os.environ["MASTER_PORT"] = str(cfg["port"])
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timeout)
    out.info(f"process group ready: rank {rank}/{world} backend=gloo host={os.uname().nodename} pid={os.getpid()}")
    torch.manual_seed(cfg.get("seed", 0))

    if cfg.get("optimizer") == "fused_adam":
        from apex.optimizers import FusedAdam as Opt  # noqa: N813
    else:
        Opt = torch.optim.AdamW if cfg.get("optimizer", "adamw") == "adamw" else torch.optim.SGD

    d, h = cfg.get("dim", 16), cfg.get("hidden", 64)
    model = MLP(d, h)
    if cfg.get("init_from_url") and rank == 0:
        import urllib.request
        out.info(f"downloading initial weights from {cfg['init_from_url']}")
        local = os.path.join(cfg.get("cache_dir", "/tmp"), "init.pt")
        urllib.request.urlretrieve(cfg["init_from_url"], local)
        model.load_state_dict(torch.load(local))
    if cfg.get("resume_from") and rank == 0:
        out.info(f"resuming from {cfg['resume_from']}")
        ck = torch.load(cfg["resume_from"], map_location="cpu")
        model.load_state_dict(ck["model"])
        out.info(f"resumed at step {ck['step']}")
    if cfg.get("init_from_url") or cfg.get("resume_from"):
        dist.barrier()
    ddp = DDP(model)
    opt = Opt(ddp.parameters(), lr=cfg.get("lr", 1e-3))
    ck = Checkpointer(cfg, out) if rank == 0 and cfg.get("ckpt_dir") else None

    base = os.path.join(cfg["data_dir"], f"{rank:03d}")
    files = sorted(os.path.join(base, f) for f in os.listdir(base))
    bs = cfg.get("batch_size", 16)
    out.info(f"data: {len(files)} part file(s) under {base}")
    handles = []
    if cfg.get("open_all_parts"):
        for f in files:
            handles.append(open(f, "rb"))  # kept open: parts are mmapped lazily below
        out.info(f"opened {len(handles)} part files")

    def batches():
        if cfg.get("format") == "csv":
            pf = CsvPrefetcher(files, bs)
            pf.start()
            yield from pf
            return
        if cfg.get("format") == "native":
            rd = NativeIndexReader(files[0], files[1])
            for k in range(0, len(rd.index) - bs + 1, bs):
                t = torch.from_numpy(np.stack([rd.read(j) for j in range(k, k + bs)]))
                yield t[:, :-1], t[:, -1:]
            return
        for f in files:
            out.info(f"loading part {os.path.basename(f)}")
            arr = load_part(f, cfg.get("preload", False))
            dl = DataLoader(Rows(arr), batch_size=bs, num_workers=cfg.get("num_workers", 0), drop_last=True)
            yield from dl

    total = cfg.get("steps", 60)
    sched = cfg.get("lr_schedule")
    scaler = DynamicLossScaler(cfg.get("init_scale", 2.0 ** 16)) if cfg.get("fp16") else None
    metric_names = ["loss", "grad_norm"]
    step, losses, t_last = 0, [], time.time()
    for epoch in range(cfg.get("epochs", 100)):
        for x, y in batches():
            step += 1
            lr = cfg.get("lr", 1e-3)
            if "lr_mult" in cfg:
                lr *= cfg["lr_mult"][str(rank)]
            if sched == "warmup_const":
                lr = lr * min(1.0, step / cfg.get("warmup", 10))
            for g in opt.param_groups:
                g["lr"] = lr
            if scaler:
                with torch.autocast("cpu", dtype=torch.float16):
                    pred = ddp(x.half() if cfg.get("fp16_inputs") else x)
                loss = ((pred.float() - y) ** 2).mean()
                (loss * scaler.scale).backward()
                flag = torch.tensor([0.0 if all(torch.isfinite(p.grad).all() for p in ddp.parameters()) else 1.0])
                dist.all_reduce(flag)
                overflow = flag.item() > 0
                if not overflow:
                    for p in ddp.parameters():
                        p.grad /= scaler.scale
                    opt.step()
                opt.zero_grad()
                scaler.update(overflow, out)
            else:
                pred = ddp(x)
                loss = nn.functional.mse_loss(pred, y)
                if cfg.get("check_finite", True) and not torch.isfinite(loss):
                    raise FloatingPointError(f"loss is {loss.item()} at step {step} (epoch {epoch})")
                loss.backward()
                gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), cfg.get("clip", 1e9))
                opt.step()
                opt.zero_grad()
            if cfg.get("extra_metrics") and step % 10 == 0:
                names = metric_names + list(cfg["extra_metrics"].get(str(rank), []))
                m = torch.zeros(len(names))
                m[0] = loss.item()
                dist.all_reduce(m)
            lv = loss.item()
            losses.append(lv)
            if step % cfg.get("log_every", 1) == 0:
                out.step(step, total, lv, lr)
            if ck and ck.every and step % ck.every == 0:
                ck.save(step, model, opt)
            time.sleep(cfg.get("step_sleep", 0.1))
            if step >= total:
                break
        if step >= total or not cfg.get("loop_data", True):
            break
        out.info(f"epoch {epoch} done at step {step}")
    if out.style == "bar" and rank == 0:
        sys.stderr.write("\n")
    if ck:
        ck.wait()
    out.info(f"training finished: {step} steps, final loss {losses[-1] if losses else float('nan'):.4f}")
    if cfg.get("final_barrier", True):
        dist.barrier()
    dist.destroy_process_group()


def spawn_entry(local_rank, world, cfg):
    run(local_rank, world, cfg)


@record
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--spawn", type=int, default=0, help="use torch.multiprocessing.spawn with N processes")
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    for w in cfg.get("warnings", []):
        import warnings
        warnings.warn(w, UserWarning)
    if a.spawn:
        import torch.multiprocessing as mp
        mp.spawn(spawn_entry, args=(a.spawn, cfg), nprocs=a.spawn, join=True)
    else:
        r, w, _ = rank_world()
        run(r, w, cfg)


if __name__ == "__main__":
    main()
