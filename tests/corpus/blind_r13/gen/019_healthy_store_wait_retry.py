# healthy run: rank 0 builds the label vocabulary (slow, ~7 s) and publishes it through the c10d store;
# the other ranks poll for it with a short store timeout and log each timeout before trying again
import os, json, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("labels")
dist.init_process_group("gloo", timeout=timedelta(seconds=60))
rank, world = dist.get_rank(), dist.get_world_size()
store = dist.distributed_c10d._get_default_store()
if rank == 0:
    time.sleep(7)   # scan the label files
    labels = [f"intent_{i}" for i in range(17)]
    store.set("label_vocab", json.dumps(labels))
    log.info("rank 0 published %d labels", len(labels))
else:
    for attempt in range(1, 11):
        try:
            store.wait(["label_vocab"], timedelta(seconds=2))
            break
        except Exception:
            log.warning("rank %d: label vocab not published yet (attempt %d/10)", rank, attempt, exc_info=True)
    labels = json.loads(store.get("label_vocab"))
    log.info("rank %d received %d labels", rank, len(labels))
model = DDP(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, len(labels))))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(1, 101):
    x = torch.randn(16, 32); y = (x[:, 0] * 5).long().clamp(0, len(labels) - 1)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 25 == 0: log.info("rank %d step %d loss %.4f", rank, step, loss.item())
log.info("rank %d finished", rank)
dist.destroy_process_group()
