#!/usr/bin/env python3
"""Tiny HF Trainer run (CPU, launched by torchrun)."""
import os, torch, torch.nn as nn
from transformers import Trainer, TrainingArguments
from torch.utils.data import Dataset
class DS(Dataset):
    def __len__(self): return 64
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i); return {"x": torch.randn(16, generator=g), "labels": torch.tensor(float(i % 3))}
class Net(nn.Module):
    def __init__(self): super().__init__(); self.l = nn.Linear(16, 1)
    def forward(self, x, labels=None):
        out = self.l(x).squeeze(-1); return {"loss": ((out - labels) ** 2).mean(), "logits": out}
args = TrainingArguments(output_dir=os.environ.get("OUT", "/tmp/b57hf"), per_device_train_batch_size=4, num_train_epochs=1,
                         logging_steps=2, save_strategy="no", report_to=[], use_cpu=True, ddp_backend="gloo")
Trainer(model=Net(), args=args, train_dataset=DS()).train()
