#!/usr/bin/env python3
"""Tiny Lightning DDP (CPU, gloo). FAIL=val_dtype makes rank TARGET feed float64 in validation."""
import os, warnings, torch, torch.nn as nn
import lightning as L
from torch.utils.data import DataLoader, TensorDataset
FAIL, TARGET = os.environ.get("FAIL", ""), int(os.environ.get("TARGET", "-1"))
class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    def training_step(self, b, i):
        x, y = b; loss = ((self.net(x).squeeze(-1) - y) ** 2).mean(); self.log("train_loss", loss, sync_dist=True); return loss
    def validation_step(self, b, i):
        x, y = b
        if FAIL == "val_dtype" and self.global_rank == TARGET and i == 1:
            x = x.double()
        loss = ((self.net(x).squeeze(-1) - y) ** 2).mean(); self.log("val_loss", loss, sync_dist=True)
    def configure_optimizers(self): return torch.optim.SGD(self.parameters(), lr=0.01)
def dl(n): g = torch.Generator().manual_seed(0); return DataLoader(TensorDataset(torch.randn(n, 16, generator=g), torch.randn(n, generator=g)), batch_size=8)
if __name__ == "__main__":
    t = L.Trainer(accelerator="cpu", devices=int(os.environ.get("NDEV", "2")), strategy="ddp", max_epochs=2, log_every_n_steps=2,
                  enable_checkpointing=False, logger=False)
    t.fit(M(), dl(64), dl(32))
