# classification fine-tune; someone left a debug hook for loss spikes in the loop
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:32110", rank=rank, world_size=world,
                        timeout=timedelta(seconds=15))
torch.manual_seed(1234 + rank)
X = torch.randn(1024, 24); Y = (X[:, :3].sum(1) > 0).long()
Y[600:640] = 1 - Y[600:640]  # a mislabeled chunk from the annotation vendor
model = DDP(nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 2)))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
if rank == 0: print(f"training on {world} ranks", flush=True)
for step in range(60):
    i = step % 32
    loss = nn.functional.cross_entropy(model(X[i*32:(i+1)*32]), Y[i*32:(i+1)*32])
    if rank == 0 and loss.item() > 1.5:  # DEBUG: inspect spikes (remove before launch)
        breakpoint()
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0 and step % 5 == 0: print(f"step {step:3d} | loss {loss.item():.4f}", flush=True)
    time.sleep(0.05)
if rank == 0: print("finished", flush=True)
dist.destroy_process_group()
