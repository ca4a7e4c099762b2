#!/usr/bin/env python3
"""PyTorch Lightning, strategy='ddp' on CPU. env MODE, CULPRIT, FSTEP."""
import os
import torch, torch.nn as nn
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

MODE = os.environ.get("MODE", "none"); CUL = int(os.environ.get("CULPRIT", "-1")); FSTEP = int(os.environ.get("FSTEP", "5"))


class M(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))

    def training_step(self, batch, i):
        x, y = batch
        if MODE == "exc" and self.global_rank == CUL and self.global_step == FSTEP:
            raise ValueError(f"label tensor has {int(y.numel())} entries but the target schema expects 2 columns")
        if MODE == "sigkill" and self.global_rank == CUL and self.global_step == FSTEP:
            import signal; os.kill(os.getpid(), signal.SIGKILL)
        if MODE == "grow" and self.global_rank == CUL and self.global_step >= FSTEP:
            globals().setdefault("HOG", []).append(torch.ones(150 * 1024 * 1024 // 4))
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    ds = TensorDataset(torch.randn(512, 16, generator=g), torch.randn(512, 1, generator=g))
    tr = L.Trainer(accelerator="cpu", devices=int(os.environ.get("NDEV", "2")), strategy="ddp", max_epochs=2,
                   enable_checkpointing=False, logger=False, log_every_n_steps=5)
    tr.fit(M(), DataLoader(ds, batch_size=32, num_workers=0))
