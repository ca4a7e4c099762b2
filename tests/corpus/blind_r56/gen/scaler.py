"""fp16 autocast on CPU with a dynamic GradScaler started too high: a few overflow/skip steps at warm-up, then fine."""
import os
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

rank = int(os.environ["RANK"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
torch.manual_seed(0)
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
scaler = torch.amp.GradScaler("cpu", init_scale=float(os.environ.get("INIT_SCALE", 2.0**40)), growth_interval=int(os.environ.get("GROWTH_INTERVAL", 5)))
g = torch.Generator().manual_seed(rank)
for step in range(int(os.environ.get("STEPS", 25))):
    x = torch.randn(16, 32, generator=g)
    y = x.sum(1, keepdim=True)
    with torch.autocast("cpu", dtype=torch.float16):
        loss = nn.functional.mse_loss(model(x).float(), y)
    opt.zero_grad()
    before = scaler.get_scale()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    after = scaler.get_scale()
    msg = f"[rank{rank}] step {step} loss {loss.item():.4f} scale {after:.1f}"
    if after < before:
        msg += f" (gradient overflow, skipping step, loss scale reduced from {before:.1f})"
    print(msg, flush=True)
dist.destroy_process_group()
print(f"[rank{rank}] training complete", flush=True)
