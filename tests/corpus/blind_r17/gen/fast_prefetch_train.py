"""Trainer; the last local rank of each node runs a prefetcher that uses the optional compiled `fastshard` reader."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
local_rank, local_world = int(os.environ["LOCAL_RANK"]), int(os.environ["LOCAL_WORLD_SIZE"])
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(12):
    if step == 3 and local_rank == local_world - 1:
        log("node prefetcher: starting shard prefetch")
        import fastshard  # compiled reader installed in the node image
        fastshard.prefetch(os.environ.get("SHARD_ROOT", "/data"))
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.3)
dist.destroy_process_group()
