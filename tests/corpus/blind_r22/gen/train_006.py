# 006: torchrun --log-dir --redirects 3 (per-rank files only), TORCH_DISTRIBUTED_DEBUG=DETAIL.
# Each rank all-reduces a label histogram built with torch.bincount(y) -- whose length
# depends on the largest label present. At step 6 rank 2's batch has no label 4, so it
# all-reduces a shape-[4] tensor while ranks 0/1 use shape [5].
import os, sys, time, torch, torch.distributed as dist, torch.nn as nn
import torch.nn.functional as F
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
r = dist.get_rank()
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 5))
W = dist.get_world_size()
# (DDP is not used: with TORCH_DISTRIBUTED_DEBUG=DETAIL, DDP init segfaults in this torch build)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
SEED = 0
for step in range(30):
    g = torch.Generator().manual_seed(SEED * 7919 + 1000 * r + step)
    y = torch.randint(0, 5, (24,), generator=g); x = torch.randn(24, 16, generator=g)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad); p.grad /= W
    opt.step()
    hist = torch.bincount(y).float()          # bug: needs minlength=5
    dist.all_reduce(hist)
    print(f"[{time.strftime('%H:%M:%S')}] step {step} loss {loss.item():.4f} label_hist {hist.tolist()}", flush=True)
    time.sleep(0.2)
dist.destroy_process_group()
