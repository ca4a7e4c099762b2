"""A Lightning run (its own DDP launcher on CPU) with the usual summaries and warnings."""
import sys
import torch, torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from common import MLP, make_data

class Lit(L.LightningModule):
    def __init__(self):
        super().__init__(); self.m = MLP()
    def training_step(self, b, i):
        loss = F.cross_entropy(self.m(b[0]), b[1]); self.log("train_loss", loss, prog_bar=True); return loss
    def validation_step(self, b, i):
        loss = F.cross_entropy(self.m(b[0]), b[1]); self.log("val_loss", loss, prog_bar=True, sync_dist=True)
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=3e-3)

if __name__ == "__main__":
    torch.set_num_threads(1)
    x, y = make_data(n=1024, seed=13)
    tr_dl = DataLoader(TensorDataset(x[:896], y[:896]), batch_size=32)
    va_dl = DataLoader(TensorDataset(x[896:], y[896:]), batch_size=32)
    t = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_epochs=3, default_root_dir=sys.argv[1],
                  log_every_n_steps=5, enable_checkpointing=True)
    t.fit(Lit(), tr_dl, va_dl)
