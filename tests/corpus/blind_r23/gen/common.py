"""Shared pieces of the small 'production-like' training jobs used for blind eval r23.

Nothing here writes log lines by hand: all output comes from the real training
processes (logging module, tracebacks, torch/torchrun/slurm messages).
"""
import json
import logging
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


def env_rank():
    for k in ("RANK", "SLURM_PROCID", "PMI_RANK"):
        if k in os.environ:
            return int(os.environ[k])
    return 0


def env_world():
    for k in ("WORLD_SIZE", "SLURM_NTASKS"):
        if k in os.environ:
            return int(os.environ[k])
    return 1


class _RankFilter(logging.Filter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def filter(self, record):
        record.rank = self.rank
        return True


FORMATS = {
    "std": "%(asctime)s [%(levelname)s] [rank%(rank)d] %(name)s: %(message)s",
    "hydra": "[%(asctime)s][%(name)s][%(levelname)s] - %(message)s",
    "accel": "%(asctime)s - %(levelname)s - %(name)s - %(message)s",
    "bare": "%(levelname)s:%(name)s:%(message)s",
    "iso": "%(asctime)s.%(msecs)03d %(levelname).1s r%(rank)d %(filename)s:%(lineno)d] %(message)s",
}


def setup_logging(rank, style="std", quiet_nonzero=False, stream=None):
    fmt = FORMATS[style]
    datefmt = "%Y-%m-%d %H:%M:%S" if style != "iso" else "%m%d %H:%M:%S"
    h = logging.StreamHandler(stream or sys.stdout)
    h.setFormatter(logging.Formatter(fmt, datefmt=datefmt))
    h.addFilter(_RankFilter(rank))
    root = logging.getLogger()
    root.handlers[:] = [h]
    root.setLevel(logging.WARNING if (quiet_nonzero and rank != 0) else logging.INFO)
    logging.captureWarnings(True)
    return logging.getLogger("train")


# ---------------------------------------------------------------- data
def make_shards(data_dir, n_shards, tokens_per_shard=40000, vocab=512, seed=0):
    os.makedirs(data_dir, exist_ok=True)
    rng = np.random.default_rng(seed)
    for i in range(n_shards):
        p = os.path.join(data_dir, f"shard_{i:05d}.npy")
        # a little structure so loss actually goes down: repeated n-grams
        base = rng.integers(0, vocab, size=(tokens_per_shard // 16, 16), dtype=np.int64)
        base[:, 8:] = base[:, :8]
        np.save(p, base.reshape(-1).astype(np.uint16))
    with open(os.path.join(data_dir, "tokenizer.json"), "w") as f:
        json.dump({"type": "byte-bpe", "vocab_size": vocab, "bos": 1, "eos": 2, "pad": 0}, f)


class TokenShards(torch.utils.data.Dataset):
    def __init__(self, paths, seq_len, log=None, hf=False):
        self.seq_len = seq_len
        self.hf = hf
        self.arrs = []
        for p in paths:
            if log:
                log.info("opening shard %s", p)
            self.arrs.append(np.load(p, mmap_mode="r"))
        self.index = []
        for a_i, a in enumerate(self.arrs):
            n = (len(a) - 1) // seq_len
            self.index += [(a_i, j * seq_len) for j in range(n)]

    def __len__(self):
        return len(self.index)

    def __getitem__(self, i):
        a_i, off = self.index[i]
        chunk = np.asarray(self.arrs[a_i][off: off + self.seq_len + 1]).astype(np.int64)
        t = torch.from_numpy(chunk)
        if self.hf:
            return {"input_ids": t[:-1].clone(), "labels": t[1:].clone(),
                    "attention_mask": torch.ones(self.seq_len, dtype=torch.long),
                    "position_ids": torch.arange(self.seq_len), "doc_ids": torch.zeros(self.seq_len, dtype=torch.long),
                    "loss_mask": torch.ones(self.seq_len)}
        return t[:-1], t[1:]


# ---------------------------------------------------------------- model
class TinyGPT(nn.Module):
    def __init__(self, vocab=512, d_model=64, n_layer=2, n_head=4, seq_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(seq_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_head, 4 * d_model, dropout=0.0,
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layer)
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)
        self.register_buffer("mask", torch.triu(torch.full((seq_len, seq_len), float("-inf")), 1),
                             persistent=False)

    def forward(self, x):
        T = x.shape[1]
        h = self.tok(x) + self.pos(torch.arange(T, device=x.device))[None]
        h = self.blocks(h, mask=self.mask[:T, :T], is_causal=True)
        return self.head(self.ln(h))


def cosine_lr(step, base, warmup, total):
    if step < warmup:
        return base * (step + 1) / warmup
    p = (step - warmup) / max(1, total - warmup)
    return base * 0.5 * (1 + math.cos(math.pi * min(1.0, p)))


def seed_all(s):
    random.seed(s)
    np.random.seed(s)
    torch.manual_seed(s)
