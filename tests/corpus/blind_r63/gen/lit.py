# Lightning DDP on CPU (2 devices) with optional faults.
import os, sys, torch, torch.nn as nn
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

MODE = os.environ.get("MODE", "ok")

class LitReg(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    def training_step(self, batch, i):
        x, y = batch
        if MODE == "dtype" and self.global_rank == int(os.environ.get("FAULT_RANK", 1)) and i == 3:
            x = x.double()  # features from a float64 numpy shard
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        self.log("val_loss", nn.functional.mse_loss(self.net(x), y), sync_dist=True)
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)

def loader(n):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, 16, generator=g)
    return DataLoader(TensorDataset(x, x.sum(1, keepdim=True)), batch_size=8)

if __name__ == "__main__":
    L.seed_everything(0)
    kw = {}
    if MODE == "ckpt_ro":
        from lightning.pytorch.callbacks import ModelCheckpoint
        kw["callbacks"] = [ModelCheckpoint(dirpath=os.environ["CKPT_DIR"], every_n_train_steps=5)]
    trainer = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_epochs=int(os.environ.get("EPOCHS", "2")),
                        log_every_n_steps=2, enable_checkpointing=(MODE == "ckpt_ro"), logger=False, **kw)
    trainer.fit(LitReg(), loader(256), loader(64))
    print("fit done", flush=True)
