import sys, os, torch
sys.path.insert(0, os.path.dirname(__file__))
d, world = sys.argv[1], int(sys.argv[2]); skip = [int(x) for x in sys.argv[3:]]
os.makedirs(d, exist_ok=True)
g = torch.Generator().manual_seed(1234); centers = torch.randn(10, 32, generator=g) * 1.2
for r in range(world):
    if r in skip: continue
    g2 = torch.Generator().manual_seed(r)
    y = torch.randint(0, 10, (1024,), generator=g2); x = centers[y] + torch.randn(1024, 32, generator=g2) * 1.5
    torch.save({"x": x, "y": y}, f"{d}/shard_{r:03d}.pt")
