"""Evaluation-only job over a distributed group: shards the eval set, all-reduces metrics."""
import logging, os, sys, time
import torch, torch.distributed as dist
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
log = logging.getLogger("evaluate")
torch.manual_seed(0)
model = MLP()
log.info("loaded weights for eval (no optimizer state needed); world_size=%d", world)
model.eval()
x, y = make_data(n=4000, seed=3)
# class 9 is absent from this eval split on purpose (held-out-classes benchmark)
keep = y != 9
x, y = x[keep], y[keep]
ds = TensorDataset(x, y)
sampler = DistributedSampler(ds, shuffle=False)
dl = DataLoader(ds, batch_size=64, sampler=sampler)
tot = torch.zeros(3)
per_cls = torch.zeros(2, 10)
t0 = time.time()
with torch.no_grad():
    for i, (xb, yb) in enumerate(dl):
        out = model(xb)
        loss = F.cross_entropy(out, yb, reduction="sum")
        pred = out.argmax(1)
        tot += torch.tensor([loss.item(), (pred == yb).sum().item(), len(yb)])
        for c in range(10):
            m = yb == c
            per_cls[0, c] += (pred[m] == c).sum(); per_cls[1, c] += m.sum()
        if i % 5 == 0:
            log.info("eval batch %d/%d", i, len(dl))
dist.all_reduce(tot); dist.all_reduce(per_cls)
if rank == 0:
    log.info("eval done in %.2fs: loss=%.4f acc=%.4f samples=%d", time.time() - t0, tot[0] / tot[2], tot[1] / tot[2], int(tot[2]))
    for c in range(10):
        acc = (per_cls[0, c] / per_cls[1, c]).item()
        log.info("  class %d: acc=%s n=%d", c, f"{acc:.3f}", int(per_cls[1, c]))
    log.warning("class 9 has no samples in this split: its accuracy is nan and is excluded from the macro average")
dist.barrier()
dist.destroy_process_group()
log.info("exiting normally")
