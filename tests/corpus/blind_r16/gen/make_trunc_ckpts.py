import os, sys, torch, torch.nn as nn
out, n, bad = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
for r in range(n):
    p = f"{out}/ckpt_step3000_rank{r}.pt"
    torch.save({"model": m.state_dict(), "step": 3000, "pad": torch.zeros(20000)}, p)
    if r == bad:  # torn write: node lost power mid-copy
        sz = os.path.getsize(p)
        with open(p, "r+b") as f:
            f.truncate(sz // 2)
