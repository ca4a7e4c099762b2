# healthy run: a malformed logging call produces '--- Logging error ---' tracebacks, training completes
import os, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("trainer")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank, world = dist.get_rank(), dist.get_world_size()
model = DDP(nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), 0.05)
g = torch.Generator().manual_seed(rank)
w = torch.randn(10, 1, generator=torch.Generator().manual_seed(0))
for step in range(1, 41):
    x = torch.randn(32, 10, generator=g); y = x @ w
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        log.info("rank %d step %d loss %.4f", rank, step, loss.item())
        if rank == 0:
            # bug in the throughput line: one placeholder, two args -> logging prints a traceback and moves on
            log.info("throughput %.1f samples/s", 32 * world / 0.02, "per-rank")
    time.sleep(0.02)
log.info("rank %d finished training, final loss %.4f", rank, loss.item())
dist.barrier()
dist.destroy_process_group()
