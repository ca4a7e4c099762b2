"""Lightning CPU DDP run. --mode ok | valshape (rank --frank hits a shape bug in validation at epoch --fepoch)"""
import argparse, os, warnings
import torch, torch.nn as nn
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--mode", default="ok"); p.add_argument("--frank", type=int, default=1)
p.add_argument("--fepoch", type=int, default=6); p.add_argument("--epochs", type=int, default=8)
p.add_argument("--devices", type=int, default=2)
a = p.parse_args()

class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)); self.head2 = nn.Linear(48, 1)
    def training_step(self, b, i):
        x, y = b; loss = ((self.net(x).squeeze(-1) - y) ** 2).mean()
        self.log("train_loss", loss, prog_bar=True)
        if i % 50 == 0:
            print(f"[rank{self.global_rank}] epoch {self.current_epoch} batch {i} train_loss {loss.item():.4f}", flush=True)
        return loss
    def validation_step(self, b, i):
        x, y = b
        out = self.net(x).squeeze(-1)
        if a.mode == "valshape" and self.global_rank == a.frank and self.current_epoch == a.fepoch:
            out = self.head2(self.net[1](self.net[0](x)))  # aux head built for the old 48-wide trunk
        loss = ((out - y) ** 2).mean(); self.log("val_loss", loss, sync_dist=True)
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)

if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    x = torch.randn(4096, 32, generator=g); y = x.sum(1) * 0.1
    tr = DataLoader(TensorDataset(x, y), batch_size=16); va = DataLoader(TensorDataset(x[:512], y[:512]), batch_size=64)
    t = L.Trainer(accelerator="cpu", devices=a.devices, strategy="ddp_find_unused_parameters_true", max_epochs=a.epochs, log_every_n_steps=20,
                  enable_checkpointing=False, logger=False)
    t.fit(M(), tr, va)
    if t.global_rank == 0:
        print("fit finished", flush=True)
