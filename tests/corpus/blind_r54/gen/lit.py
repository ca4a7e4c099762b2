# Tiny Lightning DDP (CPU, gloo) run; healthy.
import os, torch, torch.nn as nn, lightning as L
from torch.utils.data import DataLoader, TensorDataset
class M(L.LightningModule):
    def __init__(s): super().__init__(); s.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    def training_step(s, b, i):
        x, y = b; loss = ((s.net(x) - y) ** 2).mean(); s.log("train_loss", loss, prog_bar=True); return loss
    def validation_step(s, b, i):
        x, y = b; s.log("val_loss", ((s.net(x) - y) ** 2).mean(), sync_dist=True)
    def configure_optimizers(s): return torch.optim.SGD(s.parameters(), lr=0.01)
torch.manual_seed(0); x = torch.randn(512, 16); ds = TensorDataset(x, x.sum(1, keepdim=True) * 0.1)
t = L.Trainer(accelerator="cpu", devices=int(os.environ.get("DEV", "4")), strategy="ddp", max_epochs=int(os.environ.get("EPOCHS", "3")),
              log_every_n_steps=5, default_root_dir="/tmp/r54/lit", enable_checkpointing=True)
t.fit(M(), DataLoader(ds, batch_size=16), DataLoader(ds, batch_size=64))
