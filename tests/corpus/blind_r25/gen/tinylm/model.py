"""Small decoder-only transformer used for the tinylm experiments."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab_size=512, d_model=64, n_layers=2, n_heads=4, max_seq_len=64,
                 dropout=0.0, aux_head=False):
        super().__init__()
        self.max_seq_len = max_seq_len
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(max_seq_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=4 * d_model,
                                           dropout=dropout, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layers)
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)
        # optional document-boundary head (predicts "next token is EOS"), only trained on
        # batches that contain document boundaries
        self.boundary_head = nn.Linear(d_model, 1) if aux_head else None
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, std=0.02)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, std=0.02)

    def forward(self, x, return_hidden=False):
        B, T = x.shape
        pos = torch.arange(T, device=x.device)
        h = self.tok(x) + self.pos(pos)[None]
        mask = torch.triu(torch.full((T, T), float("-inf"), device=x.device), diagonal=1)
        h = self.blocks(h, mask=mask, is_causal=True)
        h = self.norm(h)
        logits = self.head(h)
        if return_hidden:
            return logits, h
        return logits


def num_params(model):
    return sum(p.numel() for p in model.parameters())


def cosine_with_warmup(warmup, total, min_ratio=0.1):
    def fn(step):
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / (total - warmup)
        return min_ratio + (1 - min_ratio) * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))
    return fn


def lm_loss(logits, targets, weights=None):
    B, T, V = logits.shape
    per_tok = F.cross_entropy(logits.reshape(B * T, V).float(), targets.reshape(B * T), reduction="none")
    per_sample = per_tok.view(B, T).mean(dim=1)
    if weights is None:
        return per_sample.mean()
    return (per_sample * weights).sum() / weights.sum()
