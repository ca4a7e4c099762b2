# 001: 4 ranks under torchrun; rank 2 keeps a decoded-sample cache that grows
# without bound; an external memory watchdog (stand-in for the cgroup OOM killer)
# SIGKILLs it. Log: logging with timestamps, "rank=N" key=value style.
import os, sys, time, logging, resource, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
r = dist.get_rank()
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("trainer")
def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 // (1 << 20)
model = DDP(tiny_model())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
cache = []
log.info("rank=%d world=%d starting training, steps=40", r, dist.get_world_size())
for step in range(40):
    x, y = batch(step, r)
    if r == 2:
        # bug: decoded samples are cached forever on the rank that owns shard 2 (long documents)
        cache.append(torch.ones(24 * (1 << 20) // 4))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 2 == 0:
        log.info("step=%d rank=%d loss=%.4f rss_mb=%d", step, r, loss.item(), rss_mb())
    time.sleep(0.25)
log.info("rank=%d done", r)
dist.destroy_process_group()
