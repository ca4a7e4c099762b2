"""HF Trainer on a tiny GPT-2 built from a config (no downloads), DDP over gloo on CPU."""
import os, sys
import torch
from torch.utils.data import Dataset
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments

class Toks(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        base = torch.randint(0, 64, (n, 8), generator=g)
        self.ids = base.repeat(1, 4)  # repeating pattern, learnable
    def __len__(self):
        return len(self.ids)
    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.ids[i]}

out = sys.argv[1]
cfg = GPT2Config(vocab_size=64, n_positions=32, n_embd=32, n_layer=2, n_head=2)
model = GPT2LMHeadModel(cfg)
args = TrainingArguments(output_dir=out, per_device_train_batch_size=8, per_device_eval_batch_size=8,
                         num_train_epochs=2, logging_steps=5, eval_strategy="steps", eval_steps=20,
                         save_strategy="epoch", report_to="none", use_cpu=True, ddp_backend="gloo",
                         dataloader_num_workers=0, learning_rate=5e-3, seed=0, disable_tqdm=False)
tr = Trainer(model=model, args=args, train_dataset=Toks(256, 0), eval_dataset=Toks(64, 1))
res = tr.train()
print(res)
print(tr.evaluate())
