import torch, torch.nn as nn, os, sys
d = sys.argv[1]; mode = sys.argv[2]; os.makedirs(d, exist_ok=True)
for r in range(3):
    h = 48 if (mode == "mismatch" and r == 2) else 32
    m = nn.Sequential(nn.Linear(16, h), nn.ReLU(), nn.Linear(h, 4))
    o = torch.optim.SGD(m.parameters(), lr=0.05)
    torch.save({"model": m.state_dict(), "opt": o.state_dict(), "step": 400}, f"{d}/rank{r}.pt")
if mode == "corrupt":
    p = f"{d}/rank1.pt"; b = open(p, "rb").read(); open(p, "wb").write(b[: len(b) // 2])
