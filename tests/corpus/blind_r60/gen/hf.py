# HF Trainer DDP on CPU (launch with torchrun); HMODE env selects failure
import os, torch
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments
from datasets import Dataset

HMODE = os.environ.get("HMODE", "healthy")
FR = int(os.environ.get("FAIL_RANK", "1"))
rank = int(os.environ.get("RANK", "0"))
cfg = BertConfig(vocab_size=500, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 max_position_embeddings=64, num_labels=2)
model = BertForSequenceClassification(cfg)
g = torch.Generator().manual_seed(0)
ids = torch.randint(5, 500, (256, 24), generator=g)
ds = Dataset.from_dict({"input_ids": ids.tolist(), "labels": (ids[:, 0] % 2).tolist()})
calls = {"n": 0}

def collate(feats):
    calls["n"] += 1
    if HMODE == "collate" and rank == FR and calls["n"] == 7:
        raise ValueError("Unable to create tensor, you should probably activate truncation and/or padding with "
                         "'padding=True' 'truncation=True' to have batched tensors with the same length. "
                         "Perhaps your features (`input_ids` in this case) have excessive nesting (inputs type `list` where type `int` is expected).")
    return {"input_ids": torch.tensor([f["input_ids"] for f in feats]),
            "attention_mask": torch.ones(len(feats), 24, dtype=torch.long),
            "labels": torch.tensor([f["labels"] for f in feats])}

def metrics(p):
    import numpy as np
    preds = p.predictions.argmax(-1)
    return {"accuracy": float((preds == p.label_ids).mean()), "error_rate": float((preds != p.label_ids).mean())}

args = TrainingArguments(output_dir=os.environ.get("OUT", "/tmp/b60hf"), use_cpu=True, ddp_backend="gloo", ddp_timeout=15,
                         per_device_train_batch_size=8, per_device_eval_batch_size=8, max_steps=int(os.environ.get("MAXSTEPS", "16")),
                         logging_steps=2, eval_strategy="steps", eval_steps=8, save_steps=int(os.environ.get("SAVESTEPS", "8")),
                         report_to=[], dataloader_num_workers=0, disable_tqdm=os.environ.get("NOTQDM") == "1", learning_rate=5e-4)
tr = Trainer(model=model, args=args, train_dataset=ds, eval_dataset=ds.select(range(64)), data_collator=collate,
             compute_metrics=metrics)
tr.train()
final = tr.evaluate()  # every rank takes part (gather inside)
if rank == 0:
    print("training finished; final eval:", final)
