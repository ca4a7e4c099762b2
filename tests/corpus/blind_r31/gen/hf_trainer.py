"""HF Trainer with a tiny GPT-2"""
import os, sys
import torch
from transformers import Trainer, TrainingArguments, TrainerCallback
sys.path.insert(0, os.path.dirname(__file__))
from common import *


class MyTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        step = self.state.global_step
        rank = self.args.process_index
        inputs = data_fault(step, rank, inputs)
        inputs = step_fault(step, rank, inputs)
        out = forward(model, inputs)
        return (out.loss, out) if return_outputs else out.loss


class LRFault(TrainerCallback):
    def on_step_begin(self, args, state, control, optimizer=None, lr_scheduler=None, **kw):
        if FAULT == "diverge" and state.global_step >= FS and lr_scheduler is not None:
            lr_scheduler.base_lrs = [float(os.environ.get("BAD_LR", "0.5"))] * len(lr_scheduler.base_lrs)


def main():
    torch.set_num_threads(1)
    if os.environ.get("TOKENIZER"):
        from transformers import AutoTokenizer
        tok = AutoTokenizer.from_pretrained(os.environ["TOKENIZER"])
    model = tiny_gpt2()
    args = TrainingArguments(
        output_dir=os.environ.get("OUT", "/tmp/r31_hf_out"),
        per_device_train_batch_size=8,
        max_steps=int(os.environ.get("STEPS", "40")),
        learning_rate=float(os.environ.get("LR", "3e-3")),
        lr_scheduler_type="constant",
        logging_steps=2,
        save_strategy="steps" if os.environ.get("SAVE_STEPS") else "no",
        save_steps=int(os.environ.get("SAVE_STEPS", "500")),
        report_to=[],
        use_cpu=True,
        ddp_backend="gloo",
        ddp_timeout=30,
        dataloader_num_workers=int(os.environ.get("WORKERS", "0")),
        seed=0,
    )
    trainer = MyTrainer(model=model, args=args, train_dataset=SeqDataset(), callbacks=[LRFault()])
    trainer.train(resume_from_checkpoint=os.environ.get("RESUME"))
    if args.process_index == 0:
        print("final train loss history:", [round(h["loss"], 4) for h in trainer.state.log_history if "loss" in h][-5:])


if __name__ == "__main__":
    main()
