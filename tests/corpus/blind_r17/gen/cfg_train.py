"""Reads the node-local run config (JSON) written by the cluster's prolog, then trains."""
import json, os, socket, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
cfg_path = os.environ["NODE_CFG"]
log(f"loading run config {cfg_path}")
with open(cfg_path) as f:
    cfg = json.load(f)
lr = cfg["optim"]["lr"]
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=lr)
for step in range(10):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} lr={lr} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.2)
dist.destroy_process_group()
