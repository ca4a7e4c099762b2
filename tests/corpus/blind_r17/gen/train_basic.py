"""Plain DDP trainer (baseline)."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(int(os.environ.get("STEPS", "10"))):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(float(os.environ.get("STEP_SLEEP", "0.2")))
dist.barrier()
log("training complete")
dist.destroy_process_group()
