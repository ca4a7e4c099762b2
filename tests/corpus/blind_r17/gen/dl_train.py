"""Trainer with a multi-worker DataLoader started after the warm-up phase."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(4):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"warmup step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(1.0)
g = torch.Generator().manual_seed(rank)
ds = TensorDataset(torch.randn(2048, 32, generator=g), torch.randint(0, 4, (2048,), generator=g))
dl = DataLoader(ds, batch_size=64, num_workers=6, persistent_workers=True)
log("starting main phase with 6 dataloader workers")
for i, (x, y) in enumerate(dl):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if i % 8 == 0:
        log(f"main step {i} loss={reduce_loss(loss, world):.4f}")
log("done")
dist.destroy_process_group()
