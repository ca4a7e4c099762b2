import sys, torch, torch.nn as nn
out, n, odd_rank, odd_hidden = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for r in range(n):
    h = odd_hidden if r == odd_rank else 64
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(32, h), nn.ReLU(), nn.Linear(h, 1))
    torch.save({"model": m.state_dict(), "step": 1200}, f"{out}/resume_rank{r}.pt")
