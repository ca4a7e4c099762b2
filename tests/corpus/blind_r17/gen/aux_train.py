"""DDP training where the auxiliary head is only used when the batch has aux targets."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
no_aux_rank = int(os.environ.get("NO_AUX_SHARD", "-1"))
for step in range(10):
    x, y = make_batch(rank, step)
    has_aux = not (rank == no_aux_rank and step >= 3)  # this shard's later files lack aux targets
    loss = F.cross_entropy(model(x, use_aux=has_aux), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"rank{rank} step={step} loss={loss.item():.4f}", flush=True)
    time.sleep(0.2)
print(f"rank{rank} finished", flush=True)
dist.destroy_process_group()
