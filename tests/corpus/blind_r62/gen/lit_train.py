# Lightning DDP (CPU/gloo) trainer for the r62 runs.
import os, datetime, torch, torch.nn as nn
import lightning as L
from lightning.pytorch.strategies import DDPStrategy

FAULT = os.environ.get("FAULT", "none"); FR = int(os.environ.get("FAULT_RANK", "-1")); FS = int(os.environ.get("FAULT_STEP", "3"))

class Reg(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
        if os.environ.get("UNUSED_HEAD"): self.head = nn.Linear(64, 1)   # run 037: an unused layer (made by accident, kept)
    def forward(self, x): return self.net(x)
    def training_step(self, b, i):
        x, y = b; loss = nn.functional.mse_loss(self(x), y); self.log("train_loss", loss, prog_bar=True, sync_dist=True); return loss
    def validation_step(self, b, i):
        x, y = b
        if FAULT == "val_shape" and self.global_rank == FR and self.current_epoch == 1 and i == FS:
            x = x[:, :30]    # a feature-column bug in this shard's val batches
        self.log("val_loss", nn.functional.mse_loss(self(x), y), sync_dist=True)
    def configure_optimizers(self): return torch.optim.Adam(self.parameters(), lr=1e-3)

def data(n, seed):
    g = torch.Generator().manual_seed(seed); x = torch.randn(n, 32, generator=g); return torch.utils.data.TensorDataset(x, x[:, :1] * 2)

if __name__ == "__main__":
    L.seed_everything(7)
    tr = L.Trainer(accelerator="cpu", devices=int(os.environ.get("NPROCS", "2")), strategy=DDPStrategy(timeout=datetime.timedelta(seconds=20)),
                   max_epochs=int(os.environ.get("EPOCHS", "3")), log_every_n_steps=5, enable_checkpointing=False, logger=False)
    tr.fit(Reg(), torch.utils.data.DataLoader(data(512, 1), batch_size=16), torch.utils.data.DataLoader(data(128, 2), batch_size=16))
