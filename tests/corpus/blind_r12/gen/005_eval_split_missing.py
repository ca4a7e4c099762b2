# two-node run; rank 0 runs validation after every epoch while the others wait at a barrier
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

VAL_PATH = os.environ.get("VAL_PATH", "data/valid.pt")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank, world = dist.get_rank(), dist.get_world_size()
P = f"[rank {rank}]"
if rank == 0:
    os.makedirs("data", exist_ok=True)
    torch.save({"x": torch.randn(128, 10), "y": torch.randint(0, 3, (128,))}, "data/validation.pt")
dist.barrier()
model = DDP(nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 3)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
g = torch.Generator().manual_seed(rank)
for epoch in range(3):
    for it in range(20):
        x = torch.randn(16, 10, generator=g); y = torch.randint(0, 3, (16,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.02)
    print(f"{P} epoch {epoch} train_loss {loss.item():.4f}", flush=True)
    if rank == 0:
        print(f"{P} running validation on {VAL_PATH}", flush=True)
        val = torch.load(VAL_PATH)
        with torch.no_grad():
            acc = (model.module(val["x"]).argmax(1) == val["y"]).float().mean().item()
        print(f"{P} epoch {epoch} val_acc {acc:.3f}", flush=True)
    dist.barrier()
print(f"{P} done", flush=True)
dist.destroy_process_group()
