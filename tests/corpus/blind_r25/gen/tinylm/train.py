"""tinylm pretraining entry point.

    torchrun --nproc-per-node 4 -m tinylm.train --config configs/base.toml [--set optim.lr=1e-3 ...]
    srun python -m tinylm.train --config ...          (rank/world from SLURM_*)
"""
import argparse
import logging
import math
import os
import signal
import socket
import sys
import time
import tomllib
import warnings
from datetime import timedelta

import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader

from tinylm.ckpt import Checkpointer
from tinylm.data import build_dataset
from tinylm.model import TinyLM, cosine_with_warmup, lm_loss, num_params
from tinylm.services import MetricsUploader, hub_download

log = logging.getLogger("tinylm.train")
EOS_ID = 2

FORMATS = {
    "default": "%(asctime)s %(levelname)s [rank%(rank)d] %(name)s: %(message)s",
    "hydra": "[%(asctime)s][%(name)s][%(levelname)s] - %(message)s",
    "bracket": "[%(asctime)s] [RANK %(rank)d] [%(levelname)s] %(message)s",
}


class _RankFilter(logging.Filter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def filter(self, record):
        record.rank = self.rank
        return True


def setup_logging(cfg, rank):
    style = cfg.get("style", "default")
    fmt = logging.Formatter(FORMATS[style])
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    stream = sys.stdout if cfg.get("stream", "stderr") == "stdout" else sys.stderr
    handlers = []
    if not cfg.get("dir") or cfg.get("console", True):
        handlers.append(logging.StreamHandler(stream))
    if cfg.get("dir"):
        os.makedirs(cfg["dir"], exist_ok=True)
        handlers.append(logging.FileHandler(os.path.join(cfg["dir"], f"rank{rank}.log")))
    for h in handlers:
        h.setFormatter(fmt)
        h.addFilter(_RankFilter(rank))
        root.addHandler(h)


def load_config(path, overrides):
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    for ov in overrides:
        key, val = ov.split("=", 1)
        *parents, leaf = key.split(".")
        d = cfg
        for p in parents:
            d = d.setdefault(p, {})
        try:
            val = tomllib.loads(f"v = {val}")["v"]
        except tomllib.TOMLDecodeError:
            pass
        d[leaf] = val
    return cfg


def dist_env():
    if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]
        os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
    return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ.get("LOCAL_RANK", 0))


class StopRequested:
    def __init__(self):
        self.signum = None
        for s in (signal.SIGTERM, signal.SIGUSR1):
            signal.signal(s, self._handler)

    def _handler(self, signum, frame):
        if self.signum is None:
            log.warning("received %s, will checkpoint and exit at the end of this step",
                        signal.Signals(signum).name)
        self.signum = signum


def infinite_batches(loader, start_epoch=0):
    epoch = start_epoch
    while True:
        if hasattr(loader.sampler, "set_epoch"):
            loader.sampler.set_epoch(epoch)
        it = iter(loader)
        batch = next(it)
        yield epoch, batch
        for batch in it:
            yield epoch, batch
        epoch += 1
        log.info("finished epoch %d", epoch - 1)


@torch.no_grad()
def evaluate(model, loader, max_batches, keep_predictions=False, log_local=False):
    model.eval()
    tot = torch.zeros(2)
    preds = []
    for i, batch in enumerate(loader):
        if i >= max_batches:
            break
        ids = batch["input_ids"]
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1), reduction="sum")
        tot += torch.tensor([loss.item(), ids[:, 1:].numel()])
        if keep_predictions:
            preds.append(logits.softmax(-1))
    if log_local:
        local_loss = tot[0].item() / tot[1].item()
        log.info("rank-local val loss %.4f over %d tokens", local_loss, int(tot[1].item()))
    dist.all_reduce(tot)
    model.train()
    if keep_predictions and preds:
        probs = torch.cat(preds)
        ece = (probs.max(-1).values.mean()).item()
    else:
        ece = float("nan")
    return tot[0].item() / tot[1].item(), ece


def probe_batch_size(model, seq_len, vocab, candidates):
    for bs in candidates:
        try:
            x = torch.randint(0, vocab, (bs, seq_len))
            out = model(x)
            out.float().logsumexp(-1).sum().backward()
            model.zero_grad(set_to_none=True)
            log.info("autobatch: batch size %d fits", bs)
            return bs
        except RuntimeError:
            log.warning("autobatch: batch size %d does not fit, halving", bs, exc_info=True)
            model.zero_grad(set_to_none=True)
    raise RuntimeError("autobatch: no batch size fits")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    cfg = load_config(args.config, args.set)

    rank, world, local_rank = dist_env()
    setup_logging(cfg.get("log", {}), rank)
    rc, mc, dc, oc = cfg["run"], cfg["model"], cfg["data"], cfg["optim"]
    log.info("tinylm starting on %s (pid %d): rank %d/%d local_rank %d, torch %s, python %s",
             socket.gethostname(), os.getpid(), rank, world, local_rank, torch.__version__,
             sys.version.split()[0])
    if rank == 0:
        log.info("config: %s", {k: v for k, v in cfg.items() if k != "log"})
    if mc.get("fused_ops"):
        import tinylm_fused
        log.info("fused ops: tinylm_fused %s", tinylm_fused.version())

    torch.manual_seed(rc.get("seed", 0))
    torch.set_num_threads(1)
    dist.init_process_group("gloo", timeout=timedelta(seconds=cfg.get("dist", {}).get("timeout_s", 30)))
    log.info("process group ready (backend=%s, world_size=%d)", dist.get_backend(), dist.get_world_size())

    tok_cfg = cfg.get("tokenizer")
    if tok_cfg:
        if local_rank == 0:
            path = hub_download(tok_cfg["repo"], tok_cfg.get("file", "tokenizer.json"),
                                os.path.expandvars(tok_cfg["cache_dir"]))
            log.info("tokenizer ready: %s", path)
        dist.barrier()

    model = TinyLM(mc["vocab_size"], mc["d_model"], mc["n_layers"], mc["n_heads"], mc["seq_len"],
                   aux_head=mc.get("aux_head", False))
    log.info("model: %.2fM parameters", num_params(model) / 1e6)

    ab = cfg.get("autobatch")
    if ab and ab.get("probe"):
        bs = probe_batch_size(model, mc["seq_len"], mc["vocab_size"], ab["candidates"])
        dc["batch_size"] = min(dc["batch_size"], bs)

    use_ddp = cfg.get("dist", {}).get("ddp", True)
    if use_ddp:
        ddp_model = DDP(model, find_unused_parameters=cfg.get("dist", {}).get("find_unused", False))
    else:
        ddp_model = model
        for p in model.parameters():
            dist.broadcast(p.data, 0)

    train_ds = build_dataset(dc["train_dir"], rank, world, skip_bad=dc.get("skip_bad_samples", False))
    eval_ds = build_dataset(dc["eval_dir"], rank, world) if dc.get("eval_dir") else None
    g = torch.Generator().manual_seed(rc.get("seed", 0) + rank)
    loader = DataLoader(train_ds, batch_size=dc["batch_size"], shuffle=True, drop_last=True,
                        num_workers=dc.get("num_workers", 2), generator=g,
                        persistent_workers=dc.get("num_workers", 2) > 0, prefetch_factor=2 if dc.get("num_workers", 2) else None)
    eval_loader = None
    if eval_ds is not None:
        eval_loader = DataLoader(eval_ds, batch_size=dc.get("eval_batch_size", dc["batch_size"]),
                                 num_workers=dc.get("eval_workers", 1))

    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": oc.get("weight_decay", 0.1)},
                             {"params": no_decay, "weight_decay": 0.0}], lr=oc["lr"],
                            betas=tuple(oc.get("betas", (0.9, 0.95))))
    max_steps = rc["max_steps"]
    sched = torch.optim.lr_scheduler.LambdaLR(opt, cosine_with_warmup(oc.get("warmup_steps", 10), max_steps))

    ck = Checkpointer(cfg["ckpt"], rank, world)
    start_step = 0
    if rc.get("resume") == "auto":
        start_step, rank_state = ck.load(model, opt, sched)
        if rank_state is not None:
            torch.set_rng_state(rank_state["rng"])

    mcfg = cfg.get("metrics")
    uploader = None
    if mcfg and mcfg.get("endpoint"):
        uploader = MetricsUploader(os.path.expandvars(mcfg["endpoint"]), rank, rc["name"],
                                   batch=mcfg.get("batch", 8), timeout=mcfg.get("timeout"))

    stop = StopRequested()
    ecfg = cfg.get("eval", {})
    log_every, eval_every, ckpt_every = rc.get("log_every", 10), rc.get("eval_every", 50), rc.get("ckpt_every", 50)
    best, bad_logs = float("inf"), 0
    batches = infinite_batches(loader)
    model.train()
    t_last, tokens = time.time(), 0
    if start_step:
        log.info("resuming training at step %d", start_step)
    for step in range(start_step + 1, max_steps + 1):
        epoch, batch = next(batches)
        ids, w = batch["input_ids"], batch["weight"]
        x, y = ids[:, :-1], ids[:, 1:]
        logits, h = ddp_model(x, return_hidden=True)
        loss = lm_loss(logits, y, w)
        if model.boundary_head is not None and (y == EOS_ID).any():
            tgt = (y == EOS_ID).float()
            loss = loss + 0.1 * F.binary_cross_entropy_with_logits(model.boundary_head(h).squeeze(-1), tgt)
        if not torch.isfinite(loss):
            raise FloatingPointError(
                f"non-finite loss {loss.item()} at step {step} (epoch {epoch}); batch weight sum "
                f"{w.sum().item():.4g}, min {w.min().item():.4g}, max {w.max().item():.4g}")
        loss.backward()
        if not use_ddp:
            for p in model.parameters():
                if p.grad is not None:
                    dist.all_reduce(p.grad)
                    p.grad.div_(world)
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), oc.get("grad_clip", 1.0))
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        tokens += x.numel()

        if step % log_every == 0:
            l = loss.detach().clone()
            dist.all_reduce(l)
            l = l.item() / world
            dt = time.time() - t_last
            log.info("step %d/%d | epoch %d | loss %.4f | lr %.3e | grad_norm %.3f | %.0f tok/s",
                     step, max_steps, epoch, l, sched.get_last_lr()[0], gnorm.item(), tokens / dt)
            t_last, tokens = time.time(), 0
            if uploader:
                uploader.log(step=step, loss=l, lr=sched.get_last_lr()[0], grad_norm=gnorm.item())
            if rc.get("divergence_guard"):
                best = min(best, l)
                bad_logs = bad_logs + 1 if (step > min(2 * oc.get("warmup_steps", 10), 200) and l > 3 * best) else 0
                if bad_logs >= 3:
                    raise RuntimeError(f"training diverged: loss {l:.4f} at step {step} is above 3x the best "
                                       f"{best:.4f} for {bad_logs} consecutive logs")

        if eval_loader is not None and step % eval_every == 0:
            if uploader:
                uploader.flush()
            if ecfg.get("rank0_only"):
                if rank == 0:
                    vl, ece = evaluate(model, eval_loader, dc.get("eval_batches", 4), ecfg.get("keep_predictions", False))
                    log.info("eval step %d | val_loss %.4f | val_ppl %.2f", step, vl, math.exp(vl))
            else:
                vl, ece = evaluate(model, eval_loader, dc.get("eval_batches", 4), ecfg.get("keep_predictions", False),
                                   ecfg.get("log_local", False))
                log.info("eval step %d | val_loss %.4f | val_ppl %.2f | conf %.3f", step, vl, math.exp(vl), ece)

        if step % ckpt_every == 0 or step == max_steps:
            ck.save(step, model, opt, sched, {"rng": torch.get_rng_state(), "epoch": epoch, "step": step},
                    final=(step == max_steps))

        if stop.signum is not None:
            log.warning("stop requested (%s): writing checkpoint at step %d and exiting for requeue",
                        signal.Signals(stop.signum).name, step)
            ck.save_local_only(step, model, opt, sched, {"rng": torch.get_rng_state(), "epoch": epoch, "step": step})
            sys.exit(0)

    ck.wait()
    if uploader:
        uploader.close()
    log.info("training complete: %d steps", max_steps)
    dist.barrier()
    dist.destroy_process_group()


def _entry():
    try:
        main()
    except Exception:
        if os.environ.get("TINYLM_LOG_EXCEPTIONS", "0") == "1":
            log.exception("fatal error in training loop, exiting")
        raise


if __name__ == "__main__":
    _entry()
