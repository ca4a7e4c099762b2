# Lightning DDP (CPU, gloo) run; FAULT=worker_kill kills a DataLoader worker on FAULT_RANK
import os, signal, sys, torch, torch.nn as nn
import lightning as L
from torch.utils.data import Dataset, DataLoader
FAULT = os.environ.get("FAULT", "none"); FR = int(os.environ.get("FAULT_RANK", "-1"))
class DS(Dataset):
    def __len__(self): return 256
    def __getitem__(self, i):
        if FAULT == "worker_kill" and int(os.environ.get("RANK_FOR_DS", "-9")) == FR and i >= 100:
            os.kill(os.getpid(), signal.SIGKILL)
        g = torch.Generator().manual_seed(i)
        return torch.randn(16, generator=g), torch.randn(4, generator=g)
class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    def training_step(self, b, i):
        x, y = b; loss = nn.functional.mse_loss(self.net(x), y); self.log("train_loss", loss, prog_bar=True); return loss
    def configure_optimizers(self): return torch.optim.SGD(self.parameters(), lr=0.05)
    def train_dataloader(self):
        os.environ["RANK_FOR_DS"] = str(self.global_rank)
        return DataLoader(DS(), batch_size=8, num_workers=int(os.environ.get("NW", "1")))
if __name__ == "__main__":
    t = L.Trainer(accelerator="cpu", devices=int(os.environ.get("NDEV", "2")), strategy="ddp", max_epochs=int(os.environ.get("EPOCHS", "2")), log_every_n_steps=4, enable_checkpointing=False, logger=False)
    t.fit(M())
