"""transformers Trainer (tiny BERT built from a config, no download) on CPU gloo DDP via torchrun/accelerate.
--mode ok | loadmismatch (after training, reload the 'best' checkpoint into a model of another config)"""
import argparse, os
import torch
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments
p = argparse.ArgumentParser(); p.add_argument("--mode", default="ok"); p.add_argument("--steps", type=int, default=600)
p.add_argument("--out", default="/tmp/r46_hf")
a = p.parse_args()

class DS(torch.utils.data.Dataset):
    def __len__(self): return 20000
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        ids = torch.randint(5, 500, (24,), generator=g)
        return {"input_ids": ids, "attention_mask": torch.ones(24, dtype=torch.long), "labels": int(ids[0] % 2)}

cfg = BertConfig(vocab_size=512, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 max_position_embeddings=64, num_labels=2)
model = BertForSequenceClassification(cfg)
args = TrainingArguments(output_dir=a.out, max_steps=a.steps, per_device_train_batch_size=8, logging_steps=5,
                         save_steps=200, save_total_limit=2, report_to=[], ddp_backend="gloo", use_cpu=True,
                         dataloader_num_workers=0, disable_tqdm=False, learning_rate=5e-4)
tr = Trainer(model=model, args=args, train_dataset=DS())
tr.train()
if a.mode == "loadmismatch":
    ck = sorted(d for d in os.listdir(a.out) if d.startswith("checkpoint-"))[-1]
    from safetensors.torch import load_file
    sd = load_file(os.path.join(a.out, ck, "model.safetensors"))
    cfg2 = BertConfig(vocab_size=512, hidden_size=48, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                      max_position_embeddings=64, num_labels=2)
    export = BertForSequenceClassification(cfg2)
    print(f"loading {ck} into export model (hidden_size={cfg2.hidden_size})", flush=True)
    export.load_state_dict(sd)
print("done", flush=True)
