"""Tiny HF Trainer run (model from config, no hub). Launch with torchrun."""
import os, torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments
class DS(torch.utils.data.Dataset):
    def __len__(self): return 256
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i); ids = torch.randint(0, 128, (32,), generator=g); return {"input_ids": ids, "labels": ids}
cfg = GPT2Config(vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=2)
args = TrainingArguments(output_dir=os.environ.get("OUT", "/tmp/b64/hfout"), per_device_train_batch_size=8, num_train_epochs=2, logging_steps=4,
                         save_steps=16, save_total_limit=1, report_to=[], use_cpu=True, ddp_backend="gloo", eval_strategy="steps", eval_steps=16, per_device_eval_batch_size=8)
tr = Trainer(model=GPT2LMHeadModel(cfg), args=args, train_dataset=DS(), eval_dataset=torch.utils.data.Subset(DS(), range(32)))
tr.train(); print("train done")
