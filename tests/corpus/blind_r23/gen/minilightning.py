"""A small Lightning-like Trainer in plain torch (Lightning is not installed here).

Prints the kind of banners a Lightning job prints (rank-zero info, distributed
init, model summary, epoch progress) from the real running processes.
"""
import datetime
import logging
import os
import sys
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("minilightning.trainer")


def rank_zero_info(msg):
    if int(os.environ.get("RANK", 0)) == 0:
        log.info(msg)


class Callback:
    def on_train_batch_end(self, trainer, module, outputs, batch_idx):
        pass

    def on_validation_end(self, trainer, module):
        pass

    def on_train_epoch_end(self, trainer, module):
        pass


class Trainer:
    def __init__(self, max_epochs=1, detect_anomaly=False, log_every_n_steps=20, callbacks=(),
                 timeout_s=30, val_check_interval=None, enable_progress_bar=True, limit_train_batches=None):
        self.max_epochs = max_epochs
        self.detect_anomaly = detect_anomaly
        self.log_every_n_steps = log_every_n_steps
        self.callbacks = list(callbacks)
        self.timeout_s = timeout_s
        self.val_check_interval = val_check_interval
        self.enable_progress_bar = enable_progress_bar
        self.limit_train_batches = limit_train_batches
        self.global_step = 0
        self.current_epoch = 0
        self.callback_metrics = {}

    # -- distributed
    def _setup(self):
        self.global_rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", 0)))
        self.world_size = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", 1)))
        os.environ.setdefault("RANK", str(self.global_rank))
        os.environ.setdefault("WORLD_SIZE", str(self.world_size))
        os.environ.setdefault("LOCAL_RANK", os.environ.get("SLURM_LOCALID", "0"))
        rank_zero_info("GPU available: False, used: False")
        rank_zero_info("TPU available: False, using: 0 TPU cores")
        rank_zero_info("HPU available: False, using: 0 HPUs")
        log.info("Initializing distributed: GLOBAL_RANK: %d, MEMBER: %d/%d", self.global_rank,
                 self.global_rank + 1, self.world_size)
        dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=self.timeout_s))
        rank_zero_info("-" * 100 + "\ndistributed_backend=gloo\nAll distributed processes registered. "
                       f"Starting with {self.world_size} processes\n" + "-" * 100 + "\n")

    def _summary(self, module):
        rows = [(n, type(m).__name__, sum(p.numel() for p in m.parameters()))
                for n, m in module.named_children()]
        lines = ["  | Name | Type | Params", "-" * 40]
        for i, (n, t, c) in enumerate(rows):
            lines.append(f"{i} | {n} | {t} | {c}")
        tot = sum(p.numel() for p in module.parameters())
        lines += ["-" * 40, f"{tot}     Trainable params", "0         Non-trainable params",
                  f"{tot}     Total params", f"{tot * 4 / 1e6:.3f}     Total estimated model params size (MB)"]
        rank_zero_info("\n".join(lines))

    def fit(self, module, train_loader, val_loader=None):
        self._setup()
        module.trainer = self
        self._summary(module)
        torch.autograd.set_detect_anomaly(self.detect_anomaly)
        model = DDP(module)
        opt, sched = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            self.current_epoch = epoch
            if hasattr(train_loader.sampler, "set_epoch"):
                train_loader.sampler.set_epoch(epoch)
            model.train()
            n = len(train_loader) if self.limit_train_batches is None else min(len(train_loader), self.limit_train_batches)
            t0 = time.time()
            for bi, batch in enumerate(train_loader):
                if bi >= n:
                    break
                loss = module.training_step(batch, bi, model)
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()
                self.global_step += 1
                for cb in self.callbacks:
                    cb.on_train_batch_end(self, module, loss, bi)
                if self.enable_progress_bar and self.global_rank == 0 and (bi + 1) % self.log_every_n_steps == 0:
                    el = time.time() - t0
                    print(f"Epoch {epoch}:  {int(100 * (bi + 1) / n):3d}%|{'#' * int(20 * (bi + 1) / n):<20}| "
                          f"{bi + 1}/{n} [{int(el // 60):02d}:{int(el % 60):02d}, {(bi + 1) / max(el, 1e-6):.2f}it/s, "
                          f"v_num=0, train_loss={loss.item():.4f}]", file=sys.stderr, flush=True)
                if self.val_check_interval and self.global_step % self.val_check_interval == 0 and val_loader:
                    self._validate(module, model, val_loader)
            if val_loader is not None:
                self._validate(module, model, val_loader)
            for cb in self.callbacks:
                cb.on_train_epoch_end(self, module)
        rank_zero_info(f"`Trainer.fit` stopped: `max_epochs={self.max_epochs}` reached.")
        dist.destroy_process_group()

    def _validate(self, module, model, val_loader):
        model.eval()
        tot, cnt = torch.zeros(1), torch.zeros(1)
        with torch.no_grad():
            for bi, batch in enumerate(val_loader):
                tot += module.validation_step(batch, bi, model)
                cnt += 1
        dist.all_reduce(tot)
        dist.all_reduce(cnt)
        self.callback_metrics["val_loss"] = (tot / cnt).item()
        rank_zero_info(f"Epoch {self.current_epoch}, global step {self.global_step}: 'val_loss' reached "
                       f"{self.callback_metrics['val_loss']:.5f}")
        for cb in self.callbacks:
            cb.on_validation_end(self, module)
        model.train()
