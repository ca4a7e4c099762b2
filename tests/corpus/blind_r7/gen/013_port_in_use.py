# train_small.py -- trivial DDP job; launched with a fixed master port from the team's launch script
import os, torch, torch.nn as nn, torch.distributed as dist
dist.init_process_group("gloo")
r = dist.get_rank()
m = nn.parallel.DistributedDataParallel(nn.Linear(8, 8)); o = torch.optim.SGD(m.parameters(), 0.1)
for s in range(20):
    l = m(torch.randn(4, 8)).sum(); o.zero_grad(); l.backward(); o.step()
    if r == 0 and s % 5 == 0: print("step", s, "loss", round(l.item(), 4), flush=True)
print(f"rank {r} ok", flush=True)
