"""Lightning (CPU, ddp/gloo). Modes: early_stop, ckpt (checkpoint to --ckpt-dir), slurm."""
import argparse, os, sys, time
import torch, torch.nn as nn
import lightning as L
from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--mode", default="early_stop")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--epochs", type=int, default=30)
p.add_argument("--ckpt-dir", default="/work/blind/r45/work/pl_ckpt")
p.add_argument("--width", type=int, default=64)
args = p.parse_args()


class Reg(L.LightningModule):
    def __init__(self, width):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 1))

    def training_step(self, b, i):
        x, y = b
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss

    def validation_step(self, b, i):
        x, y = b
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("val_loss", loss, prog_bar=True, sync_dist=True)
        self.log("val_abs_error", (self.net(x) - y).abs().mean(), sync_dist=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=3e-3)


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    return TensorDataset(x, x[:, :3].sum(1, keepdim=True) + 0.3 * torch.randn(n, 1, generator=g))


if __name__ == "__main__":
    L.seed_everything(0)
    cbs = []
    if args.mode == "early_stop":
        cbs.append(EarlyStopping(monitor="val_loss", patience=2, min_delta=0.01, verbose=True))
    if args.mode in ("ckpt", "slurm"):
        cbs.append(ModelCheckpoint(dirpath=args.ckpt_dir, filename="step{step}", every_n_train_steps=20,
                                   save_top_k=-1, save_last=True))
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, strategy="ddp", max_epochs=args.epochs,
                        callbacks=cbs, log_every_n_steps=5, enable_progress_bar=True, logger=False,
                        enable_checkpointing=bool(cbs) and args.mode != "early_stop",
                        num_nodes=int(os.environ.get("SLURM_NNODES", 1)) if args.mode == "slurm" else 1)
    model = Reg(args.width)
    trainer.fit(model, DataLoader(data(1024, 0), batch_size=64, shuffle=True),
                DataLoader(data(256, 1), batch_size=64))
    if trainer.global_rank == 0:
        print(f"done: epochs={trainer.current_epoch} val_loss={trainer.callback_metrics.get('val_loss')}", flush=True)
