# 018: three torchrun agents (3 simulated nodes, 1 proc each, c10d rendezvous).
# The custom op _fastnorm is imported at the top; node 1 has a stale build on its
# PYTHONPATH whose .so needs a symbol this node's library lacks -> ImportError there.
import os, sys, time, torch, torch.distributed as dist
import _fastnorm
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
r = dist.get_rank()
print(f"rank {r}: fastnorm ok ({_fastnorm.forward(1.0)})", flush=True)
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(20):
    x, y = batch(step, r); loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"rank {r} step {step} loss {loss.item():.4f}", flush=True); time.sleep(0.2)
