"""Resumes model (shared) and per-rank optimizer state shards, then continues training."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
ck = os.environ["CKPT_DIR"]
net = Net()
net.load_state_dict(torch.load(os.path.join(ck, "model.pt")))
model = DDP(net)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
log(f"resuming from {ck}")
opt.load_state_dict(torch.load(os.path.join(ck, f"optim_rank{rank}.pt")))
log("optimizer state restored")
for step in range(100, 110):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.2)
dist.destroy_process_group()
