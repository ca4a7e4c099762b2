import os, sys, datetime, torch, torch.nn as nn
import lightning as L
from lightning.pytorch.strategies import DDPStrategy
FAIL_RANK = int(os.environ.get("FAIL_RANK", "-1"))
class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    def training_step(self, batch, i):
        x, y = batch
        if self.global_rank == FAIL_RANK and i == 3:
            x = x[:, :12]   # feature slicing bug on this rank's branch
        loss = ((self.net(x) - y) ** 2).mean()
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)
if __name__ == "__main__":
    n = int(sys.argv[1])
    x = torch.randn(256, 16); y = x.sum(1, keepdim=True)
    dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=8)
    tr = L.Trainer(accelerator="cpu", devices=n, strategy=DDPStrategy(process_group_backend="gloo", timeout=datetime.timedelta(seconds=20)),
                   max_epochs=1, limit_train_batches=8, enable_checkpointing=False, logger=False)
    tr.fit(M(), dl)
