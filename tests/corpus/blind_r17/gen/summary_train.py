"""Trainer where the last rank writes a CSV summary every 5 steps."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
writer = world - 1
out = os.environ.get("SUMMARY_DIR", "/tmp")
for step in range(15):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    l = reduce_loss(loss, world)
    log(f"step {step} loss={l:.4f}")
    if step % 5 == 4:
        if rank == writer:
            with open(os.path.join(out, "summary.csv"), "a") as f:
                f.write(f"{step},{l}\n")
            log(f"wrote summary at step {step}")
            dist.barrier()  # wait so others don't race ahead of the summary
    time.sleep(0.2)
dist.barrier()
log("all done")
dist.destroy_process_group()
