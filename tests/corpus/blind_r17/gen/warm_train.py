"""Trainer with LR warmup; the rank that owns the scheduler logs warmup progress."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched_rank = int(os.environ.get("SCHED_LOG_RANK", "0"))
for step in range(20):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    if rank == sched_rank and step < 8 and step % 2 == 1:
        log(f"lr warmup {100 * (step + 1) // 8}% complete")
    time.sleep(0.3)
log("done")
dist.destroy_process_group()
