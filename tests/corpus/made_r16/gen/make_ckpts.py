# Write one checkpoint per rank, then damage rank TARGET's: cut it to SIZE bytes ("half" or a number), or
# remove it (SIZE = "missing").
import sys, os, torch
world, target, size = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
os.makedirs("ckpt", exist_ok=True)
for r in range(world):
    torch.manual_seed(r)
    torch.save({"model": torch.nn.Linear(64, 64).state_dict(), "step": 100}, f"ckpt/rank{r}.pt")
p = f"ckpt/rank{target}.pt"
n = os.path.getsize(p)
if size == "missing":
    os.remove(p)
    print(f"removed {p}")
else:
    keep = n // 2 if size == "half" else int(size)
    with open(p, "r+b") as f:
        f.truncate(keep)
    print(f"cut {p} from {n} to {keep} bytes")
