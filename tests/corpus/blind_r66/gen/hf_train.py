# HF Trainer on a tiny randomly initialised GPT-2 (no hub), healthy run
import torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments
from datasets import Dataset
cfg = GPT2Config(vocab_size=128, n_positions=32, n_embd=32, n_layer=2, n_head=2)
model = GPT2LMHeadModel(cfg)
g = torch.Generator().manual_seed(0)
ids = torch.randint(0, 128, (128, 32), generator=g).tolist()
ds = Dataset.from_dict({"input_ids": ids, "labels": ids})
args = TrainingArguments(output_dir="/tmp/r66_hf_out", per_device_train_batch_size=8, num_train_epochs=2, logging_steps=2, save_strategy="no", report_to=[], use_cpu=True, ddp_backend="gloo")
Trainer(model=model, args=args, train_dataset=ds).train()
