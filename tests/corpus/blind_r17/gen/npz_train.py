"""Epoch-sharded trainer: each epoch every rank loads feats/epoch{E}_rank{R}.npz."""
import os, time
import numpy as np
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
root = os.environ["DATA_DIR"]
for epoch in range(3):
    path = os.path.join(root, f"epoch{epoch}_rank{rank}.npz")
    with np.load(path) as z:
        X, Y = torch.from_numpy(z["x"]), torch.from_numpy(z["y"])
    log(f"epoch {epoch}: loaded {path} ({X.shape[0]} samples)")
    for i in range(0, X.shape[0], 32):
        loss = F.cross_entropy(model(X[i:i + 32]), Y[i:i + 32])
        opt.zero_grad(); loss.backward(); opt.step()
    log(f"epoch {epoch} done, loss={reduce_loss(loss, world):.4f}")
dist.destroy_process_group()
