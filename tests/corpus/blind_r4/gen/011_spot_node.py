import os, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn
r, w = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
m = nn.parallel.DistributedDataParallel(nn.Linear(128, 128))
o = torch.optim.SGD(m.parameters(), lr=0.01)
for s in range(1, 400):
    l = m(torch.randn(32, 128)).square().mean()
    o.zero_grad(); l.backward(); o.step()
    if s % 10 == 0:
        print(f"[{r}/{w}] step {s} loss {l.item():.5f}", flush=True)
    time.sleep(0.1)
dist.destroy_process_group()
