# Tiny HF Trainer run: local char-level tokenizer, small GPT-2 config built from scratch.
import os, sys, json, warnings
import torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments, PreTrainedTokenizerFast
from tokenizers import Tokenizer, models, pre_tokenizers
from datasets import Dataset

MODE = os.environ.get("MODE", "ok")
rank = int(os.environ.get("RANK", "0"))
vocab = {c: i for i, c in enumerate(["<pad>", "<unk>"] + list("abcdefghijklmnopqrstuvwxyz .,"))}
tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
tk.pre_tokenizer = pre_tokenizers.Split("", "isolated")
tok = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="<pad>", unk_token="<unk>")
texts = [("the quick brown fox jumps over the lazy dog " * 3)[i % 7:][:60] for i in range(64)]
if MODE == "bad_sample":
    texts[37] = None  # a record whose text field is null in the corpus
ds = Dataset.from_dict({"text": texts})

def collate(rows):
    enc = tok([r["text"] for r in rows], padding="max_length", truncation=True, max_length=32, return_tensors="pt")
    enc["labels"] = enc["input_ids"].clone()
    return enc

cfg = GPT2Config(vocab_size=len(vocab), n_positions=32, n_embd=32, n_layer=1, n_head=2)
if MODE == "embed_oob":
    cfg.vocab_size = 20  # config vocab smaller than tokenizer
model = GPT2LMHeadModel(cfg)
args = dict(output_dir=os.environ.get("OUT", "/tmp/hf63"), per_device_train_batch_size=4, num_train_epochs=1,
            logging_steps=1, save_strategy="no", report_to=[], use_cpu=True, remove_unused_columns=False,
            dataloader_num_workers=0, max_steps=int(os.environ.get("MAX_STEPS", "8")))
if MODE == "bad_config":
    args.update(load_best_model_at_end=True, eval_strategy="steps", save_strategy="epoch", eval_steps=2)
if MODE == "ckpt_save":
    args.update(save_strategy="steps", save_steps=4)
targs = TrainingArguments(**args)
trainer = Trainer(model=model, args=targs, train_dataset=ds, data_collator=collate)
trainer.train(resume_from_checkpoint=os.environ.get("RESUME") or None)
print("done", flush=True)
