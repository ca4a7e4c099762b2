# classifier with EMA weights synced from rank 0 at every epoch end; shards are files of different lengths
import os, json, time, sys
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

def jlog(**kw):
    kw["ts"] = round(time.time(), 3); kw["rank"] = int(os.environ["RANK"])
    sys.stdout.write(json.dumps(kw) + "\n"); sys.stdout.flush()

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank, world = dist.get_rank(), dist.get_world_size()
# shard sizes come from the dedup pass: shard 3 lost many near-duplicates
n = {0: 512, 1: 512, 2: 512, 3: 448}[rank]
g = torch.Generator().manual_seed(rank)
X = torch.randn(n, 20, generator=g); Y = (X[:, 0] > 0).long()
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
for p in model.parameters(): dist.broadcast(p.data, src=0)

def average_gradients(m):
    for p in m.parameters():
        dist.all_reduce(p.grad); p.grad /= world

ema = [p.detach().clone() for p in model.parameters()]
opt = torch.optim.SGD(model.parameters(), lr=0.05)
jlog(event="start", world=world, shard_size=n, batches_per_epoch=n // 32)
for epoch in range(3):
    for i in range(n // 32):
        xb, yb = X[i*32:(i+1)*32], Y[i*32:(i+1)*32]
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad(); loss.backward(); average_gradients(model); opt.step()
        with torch.no_grad():
            for e, p in zip(ema, model.parameters()): e.mul_(0.99).add_(p, alpha=0.01)
        if i % 4 == 0: jlog(event="train", epoch=epoch, it=i, loss=round(loss.item(), 4))
        time.sleep(0.03)
    # keep EMA identical everywhere
    for e in ema: dist.broadcast(e, src=0)
    jlog(event="epoch_end", epoch=epoch)
jlog(event="done")
dist.destroy_process_group()
