# 012: trivial trainer; the failure happens before any worker starts (rendezvous).
import os, torch, torch.distributed as dist
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
print("rank", dist.get_rank(), "up", flush=True)
t = torch.ones(2); dist.all_reduce(t); print(t, flush=True)
