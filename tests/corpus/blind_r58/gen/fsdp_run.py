"""FSDP (v1) on CPU/gloo. Rank-independent config bug: a buffer-like parameter left in float64 inside an FSDP unit."""
import os, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank = dist.get_rank()
print(f"[rank{rank}] init done, wrapping model with FSDP", flush=True)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
model[2].double()  # head converted to fp64 for 'numerical stability' -- mixed dtypes in one flat param
model = FSDP(model, device_id=torch.device("cpu"), use_orig_params=False)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    loss = model(torch.randn(8, 16)).float().pow(2).mean()
    loss.backward(); opt.step(); opt.zero_grad()
    print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
dist.destroy_process_group()
