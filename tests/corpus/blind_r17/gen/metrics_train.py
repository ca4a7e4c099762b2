"""Trainer that gathers per-rank metric dicts with all_gather_object every few steps."""
import os, time, threading
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
profiler_rank = int(os.environ.get("PROFILE_RANK", "-1"))
metrics = {"rank": rank, "seen": 0}
for step in range(12):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    metrics["seen"] += x.shape[0]
    if rank == profiler_rank and step == 4:
        metrics["timer_lock"] = threading.Lock()  # profiler attaches its lock to the metrics dict
    if step % 4 == 3 or step == 4:
        gathered = [None] * world
        dist.all_gather_object(gathered, metrics)
        log(f"step {step} gathered metrics from {len(gathered)} ranks, total seen={sum(m['seen'] for m in gathered)}")
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.2)
dist.destroy_process_group()
