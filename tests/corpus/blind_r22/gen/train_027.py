# 027 HEALTHY: srun --label, 3 tasks. Rank 1 meets one malformed sample, logs the
# exception with traceback (logger.exception) and skips it; the loss has a short spike at
# step 30 (a hard batch) and recovers. Completes; sacct COMPLETED.
import os, sys, time, logging, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger(f"worker{rank}")
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:27270", rank=rank, world_size=world, timeout=timedelta(seconds=30))
def decode(step):
    if rank == 1 and step == 17:
        raise ValueError("sample 17 of shard 1: expected 16 features, got 15")
    return batch(step, rank)
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
last = None
for step in range(50):
    try:
        x, y = decode(step); last = (x, y)
    except ValueError:
        log.exception("skipping malformed sample at step %d", step)
        x, y = last
    if step == 30: x = x * 6                    # hard batch -> short loss spike
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0 or step in (30, 31): log.info("step %d loss %.4f", step, loss.item())
    time.sleep(0.1)
log.info("done, %d steps", 50)
dist.destroy_process_group()
