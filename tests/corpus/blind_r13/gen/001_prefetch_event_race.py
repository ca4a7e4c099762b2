# shard-streaming trainer: a background thread loads the next shard while the current one trains;
# ranks meet at a monitored barrier at every shard boundary (so a slow rank is named).
import os, time, threading, logging
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("stream")
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
rank, world = dist.get_rank(), dist.get_world_size()
CACHE = {}

class ShardPrefetcher:
    def __init__(self):
        self.ready = threading.Event()
        self.data = None
    def _load(self, shard_id):
        key = (rank, shard_id)
        if key in CACHE:                 # cache hit: nothing to read
            self.data = CACHE[key]
        else:
            time.sleep(0.3)              # remote read
            rng = np.random.default_rng(shard_id * 10 + rank)
            self.data = torch.from_numpy(rng.normal(size=(30 * 16, 20)).astype(np.float32))
            CACHE[key] = self.data
        self.ready.set()
    def start(self, shard_id):
        t = threading.Thread(target=self._load, args=(shard_id,), daemon=True)
        t.start()
        time.sleep(0.05)                 # update progress bookkeeping
        self.ready.clear()
        return t
    def get(self):
        self.ready.wait()
        return self.data

# rank 2's shard list repeats shard 1 (a dedup bug in its manifest), so shard 2 is a cache hit
shards = [0, 1, 1, 3] if rank == 2 else [0, 1, 2, 3]
model = DDP(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
pf = ShardPrefetcher()
pf._load(shards[0]); data = pf.data
step = 0
for i, sid in enumerate(shards):
    nxt = shards[i + 1] if i + 1 < len(shards) else None
    if nxt is not None:
        pf.start(nxt)
    for b in range(30):
        x = data[b * 16:(b + 1) * 16]
        loss = (model(x).squeeze(-1) - x.sum(-1)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        step += 1
        if step % 10 == 0:
            log.info("rank %d step %d shard %d loss %.4f", rank, step, sid, loss.item())
        time.sleep(0.02)
    if nxt is None:
        break
    data = pf.get()
    dist.monitored_barrier(timeout=timedelta(seconds=15))
    log.info("rank %d finished shard %d, next shard %d", rank, sid, nxt)
log.info("rank %d training finished after %d steps", rank, step)
dist.destroy_process_group()
