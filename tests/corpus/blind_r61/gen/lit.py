import os, torch, torch.nn as nn, lightning as L
from torch.utils.data import DataLoader, TensorDataset

class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    def training_step(self, b, i):
        x, y = b; loss = nn.functional.cross_entropy(self.net(x), y); self.log("train_loss", loss, sync_dist=True); return loss
    def validation_step(self, b, i):
        x, y = b
        batch = {"features": x, "labels": y}
        if os.environ.get("FAULT") == "val_keyerror" and self.global_rank == int(os.environ.get("FRANK", 1)) and i == 1:
            batch = {"features": x, "label": y}
        logits = self.net(batch["features"])
        self.log("val_error_rate", (logits.argmax(-1) != batch["labels"]).float().mean(), sync_dist=True)
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

if __name__ == "__main__":
    torch.manual_seed(0)
    ds = TensorDataset(torch.randn(256, 16), torch.randint(0, 4, (256,)))
    t = L.Trainer(accelerator="cpu", devices=int(os.environ.get("NDEV", 2)), strategy="ddp", max_epochs=1,
                  limit_train_batches=8, limit_val_batches=3, val_check_interval=4, logger=False,
                  enable_checkpointing=False, enable_model_summary=False)
    t.fit(M(), DataLoader(ds, batch_size=8), DataLoader(ds, batch_size=8))
