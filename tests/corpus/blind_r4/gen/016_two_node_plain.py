import os, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
r = dist.get_rank()
m = nn.parallel.DistributedDataParallel(nn.Linear(20, 5)); o = torch.optim.SGD(m.parameters(), lr=0.1)
for s in range(1, 26):
    l = m(torch.randn(8, 20)).pow(2).mean(); o.zero_grad(); l.backward(); o.step()
    if s % 5 == 0: print(f"rank {r} step {s} loss {l.item():.4f}", flush=True)
    time.sleep(0.05)
dist.barrier()
if r == 0: print("done.", flush=True)
dist.destroy_process_group()
