"""Tiny Lightning DDP run on CPU. MODE: healthy | val_shape (rank FAULT_RANK gets a bad last val batch) | gpu"""
import os, torch, torch.nn as nn, lightning as L
from torch.utils.data import DataLoader, TensorDataset
MODE = os.environ.get("MODE", "healthy"); FR = int(os.environ.get("FAULT_RANK", "1"))
class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)); self.head = nn.Linear(4, 1)
    def training_step(self, b, i):
        x, y = b; loss = ((self.head(self.net(x)) - y) ** 2).mean(); self.log("train_loss", loss, prog_bar=True, sync_dist=True); return loss
    def validation_step(self, b, i):
        x, y = b
        feats = self.net(x)
        if MODE == "val_shape" and self.global_rank == FR and i == 3:
            feats = feats.view(-1, 8)  # reshape for the pooled head (a bug only reached on the short last batch)
            out = self.head(feats)
        else:
            out = self.head(feats)
        self.log("val_loss", ((out - y) ** 2).mean(), sync_dist=True)
    def configure_optimizers(self): return torch.optim.Adam(self.parameters(), 1e-2)
def dl(n, seed):
    g = torch.Generator().manual_seed(seed); x = torch.randn(n, 16, generator=g); return DataLoader(TensorDataset(x, x.sum(1, keepdim=True)), batch_size=16)
if __name__ == "__main__":
    acc = "gpu" if MODE == "gpu" else "cpu"
    t = L.Trainer(accelerator=acc, devices=2, strategy="ddp", max_epochs=int(os.environ.get("EPOCHS", "3")), log_every_n_steps=5, enable_checkpointing=False, logger=False)
    t.fit(M(), dl(640, 0), dl(200, 1))
    print("fit finished")
