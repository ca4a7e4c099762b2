"""Lightning DDP on CPU (2 processes). --mode healthy trains; --mode mismatch resumes from a checkpoint of a wider model."""
import argparse, glob, os, warnings
import torch, torch.nn as nn
import lightning as L

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="healthy")
ap.add_argument("--root", required=True)
ap.add_argument("--hidden", type=int, default=16)
ap.add_argument("--devices", type=int, default=2)
args = ap.parse_args()


class M(L.LightningModule):
    def __init__(self, hidden):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(8, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def training_step(self, b, i):
        x, y = b
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss

    def validation_step(self, b, i):
        x, y = b
        self.log("val_loss", nn.functional.mse_loss(self.net(x), y), sync_dist=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


def data(n):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, 8, generator=g)
    return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, x.sum(1, keepdim=True)), batch_size=8)


ckpt = None
if args.mode == "mismatch":
    ckpts = sorted(glob.glob(os.path.join(args.root, "pre", "**", "*.ckpt"), recursive=True))
    ckpt = ckpts[-1]
tr = L.Trainer(accelerator="cpu", devices=args.devices, strategy="ddp" if args.devices > 1 else "auto",
               max_epochs=3, default_root_dir=os.path.join(args.root, "pre" if args.devices == 1 else "run"),
               log_every_n_steps=2, enable_progress_bar=False)
tr.fit(M(args.hidden), data(128), data(32), ckpt_path=ckpt)
if tr.global_rank == 0:
    print(f"done: {tr.callback_metrics}")
