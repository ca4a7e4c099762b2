# Lightning DDP on CPU; FAULT=val_error on rank FRANK
import os, torch, torch.nn as nn, lightning as L
from torch.utils.data import DataLoader, TensorDataset
FAULT = os.environ.get("FAULT", "none"); FRANK = int(os.environ.get("FRANK", "1"))
class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    def training_step(self, b, i):
        x, y = b; loss = nn.functional.mse_loss(self.net(x), y); self.log("train_loss", loss); return loss
    def validation_step(self, b, i):
        x, y = b
        if FAULT == "val_error" and self.global_rank == FRANK and i == 3:
            metrics = {"mse": 0.1}
            raise ValueError(f"validation metric 'bleu' not found in computed metrics {list(metrics)}")
        self.log("val_loss", nn.functional.mse_loss(self.net(x), y), sync_dist=True)
    def configure_optimizers(self): return torch.optim.SGD(self.parameters(), lr=0.05)
if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(512, 16); y = x.sum(1, keepdim=True) * 0.1
    dl = DataLoader(TensorDataset(x, y), batch_size=16); vl = DataLoader(TensorDataset(x[:128], y[:128]), batch_size=16)
    t = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_epochs=int(os.environ.get("EPOCHS", "2")), enable_checkpointing=False, logger=False)
    t.fit(M(), dl, vl)
