"""HF Trainer on a tiny local BERT (CPU, gloo). Modes: train, eval_only, hub_error, hub_fallback, predict."""
import argparse, logging, os, sys
import torch
from torch.utils.data import Dataset
import transformers
from transformers import (BertForSequenceClassification, Trainer, TrainingArguments, EarlyStoppingCallback)

p = argparse.ArgumentParser()
p.add_argument("--mode", default="train")
p.add_argument("--model", default="/work/blind/r45/work/tiny-bert")
p.add_argument("--out", default="/work/blind/r45/work/hf_out")
p.add_argument("--steps", type=int, default=40)
args = p.parse_args()
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
log = logging.getLogger("finetune")
transformers.logging.set_verbosity_warning()


class Toy(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(5, 500, (n, 24), generator=g)
        self.labels = (self.ids[:, 0] > 250).long()

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones(24, dtype=torch.long), "labels": self.labels[i]}


def metrics(ev):
    preds = ev.predictions.argmax(-1)
    acc = float((preds == ev.label_ids).mean())
    return {"accuracy": acc, "error_rate": 1 - acc, "fail_count": int((preds != ev.label_ids).sum())}


targs = TrainingArguments(output_dir=args.out, use_cpu=True, ddp_backend="gloo", ddp_timeout=60,
                          per_device_train_batch_size=8, per_device_eval_batch_size=16, max_steps=args.steps,
                          learning_rate=5e-4, logging_steps=5, eval_strategy="steps" if args.mode == "train_es" else "no",
                          eval_steps=10, save_strategy="steps" if args.mode == "train_es" else "no", save_steps=10,
                          load_best_model_at_end=args.mode == "train_es", metric_for_best_model="eval_loss",
                          report_to=[], dataloader_num_workers=0, seed=0)

name = args.model
if args.mode in ("hub_error", "hub_fallback"):
    name = "acme-research/bert-tiny-sst2"
with targs.main_process_first(desc="loading model"):
    try:
        model = BertForSequenceClassification.from_pretrained(name, num_labels=2)
    except OSError:
        if args.mode != "hub_fallback":
            raise
        log.warning("could not fetch %s from the hub; falling back to the local copy %s", name, args.model,
                    exc_info=True)
        model = BertForSequenceClassification.from_pretrained(args.model, num_labels=2)

cbs = [EarlyStoppingCallback(early_stopping_patience=1, early_stopping_threshold=0.5)] if args.mode == "train_es" else []
trainer = Trainer(model=model, args=targs, train_dataset=Toy(512, 0), eval_dataset=Toy(128, 1),
                  compute_metrics=metrics, callbacks=cbs)
if args.mode in ("train", "train_es", "hub_fallback"):
    trainer.train()
    m = trainer.evaluate()
    log.info("final eval: %s", m)
elif args.mode == "eval_only":
    m = trainer.evaluate()
    log.info("eval-only run: %s", m)
    pr = trainer.predict(Toy(64, 2))
    log.info("predict metrics: %s", pr.metrics)
