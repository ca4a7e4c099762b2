# create checkpoints used by the load-failure runs
import torch, torch.nn as nn, os
os.makedirs("/tmp/b60ck/resume", exist_ok=True)
# wrong architecture (hidden 64 instead of 32, and an extra layer)
m = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
torch.save(m.state_dict(), "/tmp/b60ck/resume/model.pt")
for d in ("shards_corrupt", "shards_missing"):
    os.makedirs(f"/tmp/b60ck/{d}", exist_ok=True)
    for r in range(4):
        torch.save({"state": {0: {"momentum_buffer": torch.randn(32, 16)}}, "step": 1200}, f"/tmp/b60ck/{d}/optim_rank{r:03d}.pt")
# torn write on rank 1's shard
p = "/tmp/b60ck/shards_corrupt/optim_rank001.pt"
b = open(p, "rb").read()
open(p, "wb").write(b[: len(b) // 3])
os.remove("/tmp/b60ck/shards_missing/optim_rank002.pt")
