"""Tiny Lightning DDP (CPU, gloo) run. FAIL_RANK env: rank that raises in training_step at step FAIL_STEP."""
import os, sys, warnings
import torch, torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
import lightning as L

FAIL_RANK = int(os.environ.get("FAIL_RANK", "-1"))
FAIL_STEP = int(os.environ.get("FAIL_STEP", "6"))


class M(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
        self.vocab = {i: f"tok{i}" for i in range(4)}

    def training_step(self, batch, i):
        x, y = batch
        if self.global_rank == FAIL_RANK and self.global_step == FAIL_STEP:
            # label lookup for logging: an id outside the label vocab
            names = [self.vocab[int(v)] for v in torch.tensor([1, 3, 7])]
        loss = nn.functional.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        self.log("train_error_rate", (self.net(x).argmax(1) != y).float().mean())
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


if __name__ == "__main__":
    torch.manual_seed(0)
    ds = TensorDataset(torch.randn(256, 16), torch.randint(0, 4, (256,)))
    t = L.Trainer(accelerator="cpu", devices=int(os.environ.get("NDEV", "2")), strategy="ddp",
                  max_epochs=2, logger=False, enable_checkpointing=False, log_every_n_steps=2)
    t.fit(M(), DataLoader(ds, batch_size=16))
    print(f"rank {t.global_rank} finished fit")
