"""Trainer that builds an in-memory embedding cache after warmup."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
cache = None
for step in range(14):
    if step == 6:
        n = int(os.environ.get("CACHE_ROWS", "6000000"))
        log(f"allocating embedding cache: {n} x 128 float32 ({n * 128 * 4 / 2**30:.2f} GiB)")
        cache = torch.empty(n, 128)
        log("embedding cache ready")
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.2)
dist.destroy_process_group()
