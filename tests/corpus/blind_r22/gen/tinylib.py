"""Small shared helpers for the r22 blind runs (tiny model, synthetic data)."""
import os, torch, torch.nn as nn

def tiny_model(hidden=32, inp=16, out=4, seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, out))

def batch(step, rank, bs=8, inp=16, out=4):
    g = torch.Generator().manual_seed(1000 * rank + step)
    x = torch.randn(bs, inp, generator=g)
    y = torch.randint(0, out, (bs,), generator=g)
    return x, y

def env_rank():
    return int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))

def env_world():
    return int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))
