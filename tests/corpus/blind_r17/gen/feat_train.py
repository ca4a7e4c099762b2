"""Tabular trainer reading per-rank CSV feature shards."""
import os, time
import numpy as np
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, reduce_loss

rank, world, log = init()
arr = np.loadtxt(os.path.join(os.environ["DATA_DIR"], f"shard{rank}.csv"), delimiter=",", dtype=np.float32)
X, Y = torch.from_numpy(arr[:, :-1]), torch.from_numpy(arr[:, -1]).long() % 4
log(f"loaded shard{rank}.csv: {tuple(X.shape)}")
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(X.shape[0] // 16):
    loss = F.cross_entropy(model(X[step * 16:(step + 1) * 16]), Y[step * 16:(step + 1) * 16])
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.2)
dist.destroy_process_group()
