# 008: two torchrun agents (simulated nodes, c10d rendezvous), 2 procs each.
# Global rank 3 reads a batch with an inf feature (corrupt record) -> its local loss
# is NaN; the loss guard raises FloatingPointError on that rank only.
import os, sys, math, time, logging, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
r = dist.get_rank()
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s - rank {r} - %(levelname)s - %(message)s")
log = logging.getLogger(__name__)
log.info("node=%s local_rank=%s", os.environ.get("GROUP_RANK"), os.environ["LOCAL_RANK"])
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(30):
    x, y = batch(step, r)
    if r == 3 and step == 9:
        x[3, 5] = float("inf")       # corrupt record in shard 3
    loss = F.cross_entropy(model(x), y)
    if not math.isfinite(loss.item()):
        raise FloatingPointError(f"loss is {loss.item()} at step {step}; aborting (check input batch)")
    opt.zero_grad(); loss.backward(); opt.step()
    log.info("step %d train/loss %.4f", step, loss.item())
    time.sleep(0.3)
dist.destroy_process_group()
