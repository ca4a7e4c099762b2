#!/usr/bin/env python
"""Tabular regression model trained with the Lightning-like mini trainer."""
import argparse
import glob
import logging
import os
import queue
import shutil
import sys
import threading
import time
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import minilightning as ml  # noqa: E402


def make_feature_shards(d, n=8, rows=4096, dim=32, seed=0):
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(seed)
    w = rng.normal(size=(dim,))
    for i in range(n):
        x = rng.normal(size=(rows, dim)).astype(np.float32)
        y = (np.tanh(x @ w / 4) + 0.05 * rng.normal(size=rows)).astype(np.float32)
        np.savez(os.path.join(d, f"part-{i:04d}.npz"), x=x, y=y)


class Regressor(nn.Module):
    def __init__(self, dim=32, hidden=128, lr=1e-3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(),
                                 nn.Linear(hidden, 1))
        self.lr = lr
        self.log_ = logging.getLogger("model")

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, bi, model):
        x, y = batch
        loss = F.mse_loss(model(x), y)
        return loss

    def validation_step(self, batch, bi, model):
        x, y = batch
        return F.mse_loss(model(x), y)

    def configure_optimizers(self):
        opt = torch.optim.Adam(self.parameters(), lr=self.lr)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.lr, total_steps=100000)
        return opt, sched


class ModelCheckpoint(ml.Callback):
    def __init__(self, dirpath):
        self.dirpath = dirpath

    def on_validation_end(self, trainer, module):
        if trainer.global_rank == 0:
            p = os.path.join(self.dirpath, f"epoch={trainer.current_epoch}-step={trainer.global_step}.ckpt")
            torch.save({"state_dict": module.state_dict(), "global_step": trainer.global_step}, p)
            logging.getLogger("minilightning.callbacks.model_checkpoint").info("saved %s", p)


class MetricsUploader(ml.Callback):
    """Ships metrics/ckpt copies to the 'artifact store' from a background thread."""

    def __init__(self, dest, src_dir):
        self.dest, self.src_dir = dest, src_dir
        self.q = queue.Queue()
        self.t = threading.Thread(target=self._run, name="artifact-uploader", daemon=True)
        self.t.start()
        self.failed = None

    def _run(self):
        lg = logging.getLogger("uploader")
        while True:
            item = self.q.get()
            if item is None:
                return
            step, payload = item
            os.makedirs(self.dest, exist_ok=True)
            p = os.path.join(self.dest, f"metrics-step{step:06d}.pt")
            torch.save(payload, p)
            lg.info("uploaded %s (%d bytes)", p, os.path.getsize(p))

    def on_train_batch_end(self, trainer, module, outputs, bi):
        if trainer.global_step % 50 == 0:
            # per-rank copy of weights + metrics for the experiment tracker
            self.q.put((trainer.global_step, {"loss": float(outputs), "weights": module.state_dict()}))
        if not self.t.is_alive():
            raise RuntimeError("artifact uploader thread died; refusing to continue without metrics export")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--detect-anomaly", action="store_true")
    p.add_argument("--ckpt-dir", default="")
    p.add_argument("--upload-dir", default="", help="per-rank artifact dir; {rank} is substituted")
    p.add_argument("--timeout", type=int, default=30)
    p.add_argument("--val-every", type=int, default=0)
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--limit-train-batches", type=int, default=None)
    args = p.parse_args()

    rank, world = common.env_rank(), common.env_world()
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s",
                        stream=sys.stderr)
    logging.captureWarnings(True)
    log = logging.getLogger("__main__")
    log.info("Global seed set to %d", 42)
    common.seed_all(42)

    parts = sorted(glob.glob(os.path.join(args.data_dir, "part-*.npz")))
    mine = parts[rank:-1:world]
    xs, ys = [], []
    for f in mine:
        z = np.load(f)
        xs.append(z["x"])
        ys.append(z["y"])
    x, y = torch.from_numpy(np.concatenate(xs)), torch.from_numpy(np.concatenate(ys))
    log.info("rank %d: %d training rows from %s", rank, len(x), [os.path.basename(m) for m in mine])
    ds = torch.utils.data.TensorDataset(x, y)
    train_loader = torch.utils.data.DataLoader(ds, batch_size=args.batch, shuffle=False,
                                               num_workers=args.workers)
    z = np.load(parts[-1])
    val = torch.utils.data.TensorDataset(torch.from_numpy(z["x"][:512]), torch.from_numpy(z["y"][:512]))
    val_loader = torch.utils.data.DataLoader(val, batch_size=256)
    if len(train_loader) < 100:
        warnings.warn(f"The number of training batches ({len(train_loader)}) is smaller than the logging "
                      "interval Trainer(log_every_n_steps=50). Set a lower value for log_every_n_steps if "
                      "you want to see logs for the training epoch.", UserWarning)

    callbacks = []
    if args.ckpt_dir:
        os.makedirs(args.ckpt_dir, exist_ok=True)
        callbacks.append(ModelCheckpoint(args.ckpt_dir))
    module = Regressor(lr=args.lr)
    if args.upload_dir:
        callbacks.append(MetricsUploader(args.upload_dir.format(rank=rank), args.ckpt_dir))
    trainer = ml.Trainer(max_epochs=args.epochs, detect_anomaly=args.detect_anomaly, callbacks=callbacks,
                         timeout_s=args.timeout, val_check_interval=args.val_every,
                         limit_train_batches=args.limit_train_batches)
    trainer.fit(module, train_loader, val_loader)


if __name__ == "__main__":
    main()
