import sys, os, torch, torch.nn.functional as F; sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
for r in range(3):
    m = tiny_model(); o = torch.optim.Adam(m.parameters(), lr=1e-3)
    x, y = batch(0, r); F.cross_entropy(m(x), y).backward(); o.step()
    p = f"{d}/shard_{r:02d}-of-03.pt"; torch.save({"model": m.state_dict(), "optim": o.state_dict(), "step": 3000}, p)
    if r == 2:   # torn write: only the first 60% of the bytes reached disk
        b = open(p, "rb").read(); open(p, "wb").write(b[: int(len(b) * 0.6)])
