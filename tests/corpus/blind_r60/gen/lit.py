# Lightning DDP on CPU with injectable failures (LMODE env)
import os, sys, datetime, torch, torch.nn as nn
import lightning as L
from lightning.pytorch.strategies import DDPStrategy
from lightning.pytorch.callbacks import ModelCheckpoint
from torch.utils.data import DataLoader, TensorDataset

LMODE = os.environ.get("LMODE", "healthy")
FR = int(os.environ.get("FAIL_RANK", "1"))

class Tiny(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    def training_step(self, batch, i):
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        self.log("train_error_rate", loss.detach() * 0.5, sync_dist=True)
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        if LMODE == "val_exc" and self.global_rank == FR and i == 1:
            idx = torch.tensor([0, 1, 17])
            y = y[idx]
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("val_loss", loss, sync_dist=True)
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)

def dl(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    return DataLoader(TensorDataset(x, x.sum(1, keepdim=True) * 0.1), batch_size=8)

if __name__ == "__main__":
    L.seed_everything(0)
    ck = ModelCheckpoint(dirpath=os.environ.get("CKPT_DIR", "/tmp/b60lit/ckpt"), every_n_train_steps=10, save_last=True)
    tr = L.Trainer(accelerator="cpu", devices=int(os.environ.get("NDEV", "2")), max_epochs=2, limit_train_batches=12,
                   strategy=DDPStrategy(process_group_backend="gloo", timeout=datetime.timedelta(seconds=15)),
                   callbacks=[ck], log_every_n_steps=4, enable_progress_bar=os.environ.get("PBAR", "1") == "1",
                   default_root_dir="/tmp/b60lit", num_sanity_val_steps=0 if LMODE == "val_exc" else 2)
    tr.fit(Tiny(), dl(128, 1), dl(48, 2))
    if tr.global_rank == 0:
        print(f"best checkpoint: {ck.best_model_path}")
