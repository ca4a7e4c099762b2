"""Tiny GPT-2 trained with the Hugging Face Trainer on CPU/gloo. Scenario from env SCN (see make_runs.sh)."""
import os, sys, time, signal, logging, json
import torch
from torch.utils.data import Dataset
from transformers import (GPT2Config, GPT2LMHeadModel, GPT2ForSequenceClassification, Trainer,
                          TrainingArguments, TrainerCallback, set_seed)

SCN = os.environ.get("SCN", "ok")
OUT = os.environ.get("OUT_DIR", "/tmp/b44_hf_out")
RANK = int(os.environ.get("RANK", "0"))
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("train")


class TokenShard(Dataset):
    def __init__(self, n, seq, vocab, rank, labels=False):
        g = torch.Generator().manual_seed(1234 + rank)
        self.rows = [{"input_ids": torch.randint(0, vocab, (seq,), generator=g)} for _ in range(n)]
        self.labels = labels
        if SCN == "collate_bad" and rank == 1:
            for i in range(n):
                if i % 37 == 36:
                    self.rows[i] = {"text": None, "meta": {"src": "crawl-0042", "offset": 99123}}

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        r = dict(self.rows[i])
        if self.labels and "input_ids" in r:
            r["labels"] = int(r["input_ids"].sum()) % 2
        return r


def collate(batch):
    ids = torch.stack([r["input_ids"] for r in batch])
    if "labels" in batch[0]:
        return {"input_ids": ids, "labels": torch.tensor([r["labels"] for r in batch])}
    return {"input_ids": ids, "labels": ids.clone()}


class Throughput(TrainerCallback):
    def __init__(self):
        self.t0 = time.time(); self.tokens = 0; self.window = []

    def on_step_end(self, args, state, control, **kw):
        self.tokens += args.per_device_train_batch_size * 32
        if SCN == "cb_exc" and RANK == 1 and state.global_step >= 9:
            self.window = []  # window reset on rank 1 after a log flush
        if state.global_step % 3 == 0:
            self.window.append(time.time() - self.t0)
            dt = self.window[-1] - self.window[0] if len(self.window) > 1 else 1.0
            rate = self.tokens / dt
            if state.global_step % 9 == 0:
                log.info("throughput %.1f tok/s at step %d", rate, state.global_step)
        elif SCN == "cb_exc" and RANK == 1 and state.global_step >= 10:
            _ = self.window[0]


class Watch(TrainerCallback):
    def on_step_end(self, args, state, control, **kw):
        if SCN == "hang" and RANK == 1 and state.global_step == 12:
            import threading
            lk = threading.Lock(); lk.acquire(); lk.acquire()  # stuck forever
        if SCN == "oom_cg" and RANK == 1 and state.global_step == 14:
            cg = os.environ["CG_DIR"]
            with open(os.path.join(cg, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
            keep = []
            for _ in range(200):
                keep.append(torch.ones(64 * 1024 * 1024 // 4))  # 64 MiB each


def main():
    if os.environ.get("PG_INIT_TIMEOUT"):
        import torch.distributed as dist
        from datetime import timedelta
        dist.init_process_group("gloo", timeout=timedelta(seconds=int(os.environ["PG_INIT_TIMEOUT"])))
    set_seed(0)
    vocab = 512
    cfg = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=vocab, n_positions=64)
    if SCN == "seqcls":
        base = os.environ["BASE_DIR"]
        if not os.path.exists(os.path.join(base, "config.json")) and RANK == 0:
            GPT2LMHeadModel(cfg).save_pretrained(base)
        import torch.distributed as dist
        model = GPT2ForSequenceClassification.from_pretrained(base, num_labels=2)
        model.config.pad_token_id = 0
    elif SCN == "hub":
        model = GPT2LMHeadModel.from_pretrained("gpt2")
    else:
        if SCN == "resume_bad":
            cfg = GPT2Config(n_layer=2, n_embd=96, n_head=2, vocab_size=vocab, n_positions=64)
        model = GPT2LMHeadModel(cfg)
    ds = TokenShard(400, 32, vocab, RANK if SCN == "collate_bad" else 0, labels=(SCN == "seqcls"))
    lr = 5e-4
    optim, clip = "adamw_torch", 1.0
    if SCN == "nan":
        lr, optim, clip = 3e4, "sgd", 0.0
    args = TrainingArguments(
        output_dir=OUT, per_device_train_batch_size=4, max_steps=int(os.environ.get("STEPS", "30")),
        logging_steps=5, save_steps=int(os.environ.get("SAVE_STEPS", "100")), save_strategy="steps",
        learning_rate=lr, optim=optim, max_grad_norm=clip, report_to=[], use_cpu=True, ddp_backend="gloo",
        ddp_timeout=int(os.environ.get("DDP_TIMEOUT", "30")), dataloader_num_workers=0,
        disable_tqdm=os.environ.get("NO_TQDM") == "1", seed=0, remove_unused_columns=False)
    trainer = Trainer(model=model, args=args, train_dataset=ds, data_collator=collate,
                      callbacks=[Throughput(), Watch()])
    resume = os.environ.get("RESUME") or None
    trainer.train(resume_from_checkpoint=resume)
    if trainer.is_world_process_zero():
        log.info("done: %s", json.dumps(trainer.state.log_history[-1]))


if __name__ == "__main__":
    main()
