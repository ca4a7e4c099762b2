"""Small regression model trained with Lightning's Trainer on CPU (ddp/gloo). Scenario from env SCN."""
import os, sys, time, math
import torch
from torch import nn
from torch.utils.data import Dataset, DataLoader
import lightning as L
from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint, Callback

SCN = os.environ.get("SCN", "ok")
DATA = os.environ.get("DATA_DIR", "/tmp/b44_pl_data")


def grank():
    for k in ("RANK", "SLURM_PROCID", "LOCAL_RANK"):
        if k in os.environ:
            return int(os.environ[k])
    return 0


class Samples(Dataset):
    def __init__(self, n=512, dim=16, rank=0):
        g = torch.Generator().manual_seed(7 + rank)
        self.x = torch.randn(n, dim, generator=g)
        self.w = torch.randn(dim, 1, generator=torch.Generator().manual_seed(3))
        self.y = self.x @ self.w + 0.01 * torch.randn(n, 1, generator=g)
        self.rank = rank
        if SCN == "anomaly" and rank == 1:
            self.x[200:] = self.x[200:] * 1e30
            self.y[200:] = float("inf")

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if SCN == "ds_missing" and self.rank == 1 and i % 50 == 49:
            path = os.path.join(DATA, f"shard-{self.rank:02d}", f"sample-{i:05d}.pt")
            return torch.load(path)
        if SCN == "worker_kill" and self.rank == 0 and i % 60 == 59:
            import signal
            info = torch.utils.data.get_worker_info()
            if info is not None:
                os.kill(os.getpid(), signal.SIGKILL)
        x = self.x[i]
        if SCN == "shape" and self.rank == 0 and i % 97 == 96:
            x = torch.cat([x, x[:4]])
        if SCN == "dtype" and self.rank == 0 and i % 97 == 96:
            x = x.double()
        return x, self.y[i]


def collate_keep(batch):
    xs, ys = zip(*batch)
    if len({t.shape for t in xs}) > 1:
        return [list(xs), torch.stack(ys)]
    return [torch.stack(xs), torch.stack(ys)]


class Reg(L.LightningModule):
    def __init__(self, lr=1e-2, dim=16):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, x):
        if isinstance(x, list):
            return torch.cat([self.net(t.unsqueeze(0)) for t in x])
        return self.net(x)

    def training_step(self, batch, idx):
        x, y = batch
        loss = nn.functional.mse_loss(self(x), y)
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss

    def validation_step(self, batch, idx):
        x, y = batch
        self.log("val_loss", nn.functional.mse_loss(self(x), y), sync_dist=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)


class Report(Callback):
    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        r = trainer.global_rank
        if SCN == "cb_exc" and r == 1 and trainer.global_step == 25:
            metrics = trainer.callback_metrics
            print(f"[report] step {trainer.global_step} lr={metrics['lr-SGD']:.4g}")
        if SCN in ("slow", "cancel") and trainer.global_step % 10 == 0:
            time.sleep(1.0)
        if SCN == "oom_cg_pl" and r == 1 and trainer.global_step >= 20:
            if not hasattr(self, "_keep"):
                with open(os.path.join(os.environ["CG_DIR"], "cgroup.procs"), "w") as f:
                    f.write(str(os.getpid()))
                self._keep = []
            self._keep.append(torch.ones(8 * 1024 * 1024))  # 32 MiB of per-step history
        if SCN == "hang" and r == 1 and trainer.global_step == 20:
            while True:
                time.sleep(5)


def main():
    rank = grank()
    L.seed_everything(0)
    nproc = int(os.environ.get("DEVICES", "2"))
    num_nodes = int(os.environ.get("NUM_NODES", "1"))
    epochs = int(os.environ.get("EPOCHS", "3"))
    lr = float(os.environ.get("LR", "0.01"))
    workers = int(os.environ.get("WORKERS", "0"))
    ds = Samples(rank=rank)
    dl = DataLoader(ds, batch_size=16, shuffle=False, num_workers=workers,
                    collate_fn=collate_keep if SCN == "shape" else None, persistent_workers=workers > 0)
    vdl = DataLoader(Samples(n=128, rank=99), batch_size=32)
    cbs = [Report(), ModelCheckpoint(dirpath=os.environ.get("CKPT_DIR", "/tmp/b44_pl_ckpt"), save_last=True)]
    if SCN in ("earlystop", "nan_es"):
        cbs.append(EarlyStopping(monitor="val_loss" if SCN == "earlystop" else "train_loss",
                                 patience=2, min_delta=0.05 if SCN == "earlystop" else 0.0,
                                 check_finite=True, verbose=True))
    logger = True
    if SCN == "tblogger":
        from lightning.pytorch.loggers import TensorBoardLogger
        logger = TensorBoardLogger(save_dir=os.environ.get("CKPT_DIR", "/tmp/b44_pl_ckpt"), name="tb")
    from datetime import timedelta
    from lightning.pytorch.strategies import DDPStrategy
    strat = DDPStrategy(process_group_backend="gloo", timeout=timedelta(seconds=int(os.environ.get("PG_TIMEOUT", "30"))))
    trainer = L.Trainer(accelerator="cpu", strategy=strat, devices=nproc, num_nodes=num_nodes, max_epochs=epochs,
                        log_every_n_steps=5, callbacks=cbs, use_distributed_sampler=False, logger=logger,
                        detect_anomaly=(SCN == "anomaly"), default_root_dir=os.environ.get("CKPT_DIR", "/tmp/b44_pl_ckpt"),
                        enable_progress_bar=os.environ.get("NO_BAR") != "1")
    model = Reg(lr=lr)
    trainer.fit(model, dl, vdl, ckpt_path=os.environ.get("CKPT_PATH") or None)
    if trainer.is_global_zero:
        print(f"finished: epochs={trainer.current_epoch} step={trainer.global_step} metrics="
              f"{ {k: round(float(v), 4) for k, v in trainer.callback_metrics.items()} }")


if __name__ == "__main__":
    main()
