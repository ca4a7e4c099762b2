import torch, torch.nn as nn, sys, os
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
# older model config: hidden 64 instead of 32
m = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
torch.save({"model": m.state_dict(), "step": 1000}, os.path.join(d, "model_step1000.pt"))
for r in range(4):
    p = os.path.join(d, f"shard_rank{r:02d}.pt")
    torch.save({"exp_avg": torch.randn(20000), "step": 1000}, p)
p = os.path.join(d, "shard_rank03.pt"); sz = os.path.getsize(p)
with open(p, "r+b") as f: f.truncate(sz // 3)   # torn write on rank 3's shard
