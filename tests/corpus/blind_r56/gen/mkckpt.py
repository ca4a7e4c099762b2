"""mkckpt.py PATH NRANKS HIDDEN: write a real checkpoint of the tiny model (per rank when PATH has {rank})."""
import sys, torch, torch.nn as nn
path, n, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(8, h), nn.ReLU(), nn.Linear(h, 1))
for r in (range(n) if "{rank}" in path else [None]):
    torch.save({"model": m.state_dict(), "step": 2000}, path.format(rank=r) if r is not None else path)
