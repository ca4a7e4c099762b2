# HF transformers Trainer / datasets / accelerate runs on CPU. MODE picks the breakage.
import os, sys, json
MODE = sys.argv[1]
RANK = int(os.environ.get("RANK", "0")); WORLD = int(os.environ.get("WORLD_SIZE", "1"))
import torch
from datasets import load_dataset
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments, AutoModelForCausalLM, TrainerCallback

if MODE == "hub":
    model = AutoModelForCausalLM.from_pretrained("openai-community/gpt2")
data = os.environ.get("R55_DATA", "/tmp/r55_data/train.jsonl")
ds = load_dataset("json", data_files=data, split="train")
def tok(ex):
    t = ex["text"]
    if not isinstance(t, str):
        raise TypeError(f"expected str for field 'text', got {type(t).__name__}: {t!r}")
    ids = [ord(c) % 256 for c in t][:32]
    ids = ids + [0] * (32 - len(ids))
    return {"input_ids": ids, "labels": ids, "attention_mask": [1] * 32}
if MODE == "map_bad":
    ds = ds.shard(WORLD, RANK)
ds = ds.map(tok, remove_columns=["text"])
cfg = GPT2Config(vocab_size=256, n_positions=32, n_embd=32, n_layer=2, n_head=2)
model = GPT2LMHeadModel(cfg)
class Raiser(TrainerCallback):
    def on_step_end(self, args, state, control, **kw):
        if MODE == "cb_raise" and RANK == 1 and state.global_step == 7:
            raise RuntimeError("metrics sink rejected payload: field 'grad_norm' is not a float")
args = TrainingArguments(output_dir="/tmp/r55_hfout_" + MODE, per_device_train_batch_size=8, max_steps=int(os.environ.get("R55_STEPS", "30")),
                         logging_steps=5, save_steps=15, report_to=[], use_cpu=True, ddp_backend="gloo",
                         dataloader_num_workers=0, learning_rate=float(os.environ.get("R55_LR", "5e-4")))
tr = Trainer(model=model, args=args, train_dataset=ds, callbacks=[Raiser()])
tr.train()
print(f"rank {RANK}: training done", flush=True)
