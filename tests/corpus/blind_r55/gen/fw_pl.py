# Lightning runs (DDP on CPU/gloo). MODE picks the breakage.
import os, sys, signal, time, math
import torch, torch.nn as nn
import lightning as L
from torch.utils.data import Dataset, DataLoader
MODE = sys.argv[1]; CK = sys.argv[2] if len(sys.argv) > 2 else None
H = int(os.environ.get("R55_H", "32"))
RANK = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))

class DS(Dataset):
    def __init__(s, n=256, split="train"): s.n = n; s.split = split
    def __len__(s): return s.n
    def __getitem__(s, i):
        g = torch.Generator().manual_seed(i)
        x = torch.randn(16, generator=g); y = x[:4].sum().unsqueeze(0)
        if MODE == "worker_kill" and RANK == 1 and i >= 120 and s.split == "train":
            os.kill(os.getpid(), signal.SIGKILL)
        if MODE == "bad_sample" and RANK == 1 and i == 137 and s.split == "train":
            raise ValueError(f"sample {i}: expected 16 features, got record of length 0 (truncated line in shard train-00003.jsonl)")
        if MODE == "nan_anomaly" and RANK == 1 and i >= 150 and s.split == "train":
            x = x * float("inf")
        return x, y

class M(L.LightningModule):
    def __init__(s):
        super().__init__(); s.save_hyperparameters()
        s.net = nn.Sequential(nn.Linear(16, H), nn.ReLU(), nn.Linear(H, 1))
    def training_step(s, b, i):
        x, y = b; loss = nn.functional.mse_loss(s.net(x), y)
        s.log("train_loss", loss, prog_bar=True); return loss
    def validation_step(s, b, i):
        x, y = b; loss = nn.functional.mse_loss(s.net(x), y)
        if MODE == "es_nan" and s.current_epoch >= 2: loss = loss * float("nan")
        if MODE == "es_patience" and s.current_epoch >= 1: loss = loss + 0.1 * s.current_epoch
        s.log("val_loss", loss, sync_dist=True)
    def configure_optimizers(s): return torch.optim.SGD(s.parameters(), lr=0.01)

class Raiser(L.Callback):
    def on_train_batch_end(s, trainer, pl_module, outputs, batch, batch_idx):
        if trainer.global_rank == int(os.environ.get("R55_BADRANK", "1")) and trainer.global_step == 23:
            raise KeyError("lr_history")  # bug in a custom LR-tracking callback

class Slow(L.Callback):
    def on_train_batch_end(s, *a): time.sleep(0.5)

cbs = []
if MODE == "callback_raise": cbs.append(Raiser())
if MODE in ("es_nan", "es_patience"):
    from lightning.pytorch.callbacks import EarlyStopping
    cbs.append(EarlyStopping("val_loss", patience=2, check_finite=True, verbose=True))
if MODE in ("slow", "sigterm"): cbs.append(Slow())
from lightning.pytorch.callbacks import ModelCheckpoint
cbs.append(ModelCheckpoint(dirpath=os.environ.get("R55_CKDIR", "/tmp/r55_plck"), save_last=True))
nw = 2 if MODE in ("worker_kill", "healthy_warn") else 0
epochs = int(os.environ.get("R55_EPOCHS", "4"))
tr = L.Trainer(accelerator="cpu", devices=int(os.environ.get("R55_DEV", "2")), strategy="ddp", max_epochs=epochs,
               detect_anomaly=(MODE == "nan_anomaly"), callbacks=cbs, log_every_n_steps=5,
               default_root_dir="/tmp/r55_plroot", enable_progress_bar=False)
tr.fit(M(), DataLoader(DS(), batch_size=8, num_workers=nw), DataLoader(DS(64, "val"), batch_size=16),
       ckpt_path=CK)
print(f"[rank {tr.global_rank}] fit finished at global_step={tr.global_step}", flush=True)
