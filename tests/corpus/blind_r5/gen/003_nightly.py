import os, fcntl, time, torch, torch.distributed as dist
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=10))
rank = dist.get_rank()
model = torch.nn.Linear(32, 8)
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
print(f"[rank{rank}] init done", flush=True)
for step in range(30):
    if step == 5 and rank == 1:
        # refresh shared vocab cache; holds an exclusive lock on the cache file
        with open(os.environ["CACHE_LOCK"], "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            time.sleep(1)
    loss = ddp(torch.randn(4, 32)).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"[rank{rank}] step={step} loss={loss.item():.3f}", flush=True)
    time.sleep(0.2)
dist.destroy_process_group()
