"""Trainer that keeps a history of per-step activations for 'analysis' (leaks on the analysis rank)."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
history = []
analysis_rank = int(os.environ.get("ANALYSIS_RANK", "-1"))
for step in range(60):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == analysis_rank:
        history.append(torch.ones(25_000_000))  # 100 MB per step kept alive
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.3)
dist.destroy_process_group()
