# 014: srun --label, 2 tasks, a slow run that cannot finish inside its 1-minute time limit.
import os, sys, time, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:27140", rank=rank, world_size=world, timeout=timedelta(seconds=40))
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.02)
total = 500
for step in range(total):
    x, y = batch(step, rank); loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} rank{rank} iter {step}/{total} loss={loss.item():.4f} it/s={1/1.2:.2f}", flush=True)
    time.sleep(1.2)
