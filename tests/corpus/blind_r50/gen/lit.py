#!/usr/bin/env python3
"""Lightning (its own DDP launcher on CPU). JOBCFG: fk=dtype,fr=1,fs=N ; steps=N"""
import os, torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
CFG = dict(kv.split("=", 1) for kv in os.environ.get("JOBCFG", "").split(",") if "=" in kv)
FK, FR, FS = CFG.get("fk", ""), int(CFG.get("fr", "-1")), int(CFG.get("fs", "-1"))

class M(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    def training_step(self, batch, i):
        x, y = batch
        out = self.net(x)
        if FK == "dtype" and self.global_rank == FR and i >= FS:
            y = y.to(torch.float32) / 2.0  # label smoothing applied to the wrong tensor
            loss = F.nll_loss(F.log_softmax(out, -1), y)
        else:
            loss = F.cross_entropy(out, y)
        self.log("train_loss", loss, prog_bar=True)
        return loss
    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)

if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(640, 16); y = (x.sum(1) > 0).long()
    dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=16)
    t = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_epochs=int(CFG.get("epochs", "2")),
                  log_every_n_steps=5, enable_checkpointing=False, logger=False)
    t.fit(M(), dl)
    print("fit done", flush=True)
