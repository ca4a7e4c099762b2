"""PyTorch Lightning DDP on CPU"""
import os, sys, datetime, time
import torch
import lightning as L
from lightning.pytorch.strategies import DDPStrategy
from lightning.pytorch.callbacks import ModelCheckpoint
sys.path.insert(0, os.path.dirname(__file__))
from common import *


def collate(rows):
    return {k: torch.stack([r[k] for r in rows]) for k in rows[0]}


class LitGPT(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.model = tiny_gpt2()

    def training_step(self, batch, idx):
        step = self.global_step
        batch = data_fault(step, self.global_rank, batch)
        batch = step_fault(step, self.global_rank, batch)
        if FAULT == "pl_dtype" and self.global_rank == FR and step == FS:
            # labels cast to float by a buggy label-smoothing path
            logits = self.model(input_ids=batch["input_ids"]).logits
            loss = torch.nn.functional.nll_loss(logits.log_softmax(-1).view(-1, VOCAB), batch["labels"].view(-1).float())
        else:
            loss = forward(self.model, batch).loss
        self.log("train_loss", loss, prog_bar=True)
        time.sleep(float(os.environ.get("SLEEP", "0")))
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-3)

    def train_dataloader(self):
        return torch.utils.data.DataLoader(SeqDataset(rank=self.global_rank), batch_size=8, shuffle=True, collate_fn=collate,
                                           num_workers=int(os.environ.get("WORKERS", "0")), persistent_workers=int(os.environ.get("WORKERS", "0")) > 0)


def main():
    torch.set_num_threads(1)
    L.seed_everything(0)
    cbs = []
    if os.environ.get("CKPT_DIR"):
        cbs.append(ModelCheckpoint(dirpath=os.environ["CKPT_DIR"], every_n_train_steps=int(os.environ.get("CKPT_EVERY", "10")), save_top_k=-1))
    trainer = L.Trainer(accelerator="cpu", devices=int(os.environ.get("DEVICES", "2")), num_nodes=int(os.environ.get("NUM_NODES", "1")),
                        strategy=DDPStrategy(process_group_backend="gloo", timeout=datetime.timedelta(seconds=30)),
                        max_steps=int(os.environ.get("STEPS", "40")), log_every_n_steps=2, callbacks=cbs,
                        enable_checkpointing=bool(cbs), logger=L.pytorch.loggers.CSVLogger(os.environ.get("LOGDIR", "/tmp/r31_pl_logs")),
                        detect_anomaly=bool(os.environ.get("ANOMALY")))
    model = LitGPT()
    trainer.fit(model, ckpt_path=os.environ.get("RESUME"))
    if trainer.is_global_zero and os.environ.get("FINAL_CKPT"):
        trainer.save_checkpoint(os.environ["FINAL_CKPT"])


if __name__ == "__main__":
    main()
