# click-through model with log-duration feature; every rank logs its LOCAL loss, rank 0 checks the
# all-reduced loss (the number that goes to the dashboard) and stops the job if it is not finite
import os, time, math
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:33017", rank=rank, world_size=world,
                        timeout=timedelta(seconds=20))
data = np.load(f"/tmp/r13_017/events-{rank}.npz")
dur, feats, clicks = data["duration_s"], data["feats"], data["click"]
print(f"rank {rank}: {len(dur)} events, duration range [{dur.min():.2f}, {dur.max():.2f}] s", flush=True)
model = DDP(nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Linear(32, 1)))
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
for step in range(1, 151):
    sl = slice((step - 1) * 32, step * 32)
    x = torch.cat([torch.from_numpy(feats[sl]), torch.log(torch.from_numpy(dur[sl])).unsqueeze(-1)], -1)
    y = torch.from_numpy(clicks[sl])
    loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(-1), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"{time.strftime('%H:%M:%S')} rank {rank} step {step} local_loss {loss.item():.5f}", flush=True)
    g = loss.detach().clone(); dist.all_reduce(g); g /= world
    if rank == 0:
        if step % 10 == 0: print(f"{time.strftime('%H:%M:%S')} [metrics] step {step} train/loss {g.item():.5f}", flush=True)
        if not math.isfinite(g.item()):
            raise RuntimeError(f"global train loss is {g.item()} at step {step}; stopping so the bad weights are not checkpointed")
    time.sleep(0.03)
print(f"rank {rank} done", flush=True)
dist.destroy_process_group()
