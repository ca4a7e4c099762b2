"""HF Trainer run whose eval set contains one truncated sample (index 5, which the distributed sampler gives to rank 1)."""
import os, torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments
class DS(torch.utils.data.Dataset):
    def __init__(self, n, bad=None): self.n, self.bad = n, bad
    def __len__(self): return self.n
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i); L = 31 if i == self.bad else 32
        ids = torch.randint(0, 128, (L,), generator=g); return {"input_ids": ids, "labels": ids}
cfg = GPT2Config(vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=2)
args = TrainingArguments(output_dir=os.environ.get("OUT", "/tmp/b64/hfout2"), per_device_train_batch_size=8, max_steps=40, logging_steps=4,
                         save_strategy="no", report_to=[], use_cpu=True, ddp_backend="gloo", eval_strategy="steps", eval_steps=20, per_device_eval_batch_size=4,
                         disable_tqdm=True, log_level="info")
tr = Trainer(model=GPT2LMHeadModel(cfg), args=args, train_dataset=DS(256), eval_dataset=DS(32, bad=5))
tr.train(); print("train done")
