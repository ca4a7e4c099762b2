# sensor-regression model; per-rank shards of preprocessed float32 features
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=15))

g = torch.Generator().manual_seed(100 + rank)
X = torch.randn(640, 16, generator=g)
Y = X[:, :4].sum(1, keepdim=True) + 0.1 * torch.randn(640, 1, generator=g)
if rank == 3:
    # sensor 11 in this shard was exported in raw units (uncalibrated saturation value)
    X[300:304, 11] = 3.0e19
model = DDP(nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 1)))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
print(f"start rank={rank} world={world} samples={len(X)}", flush=True)
for step in range(40):
    xb, yb = X[step*16:(step+1)*16], Y[step*16:(step+1)*16]
    loss = nn.functional.mse_loss(model(xb), yb)
    print(f"step {step} loss {loss.item():.4f}", flush=True)
    opt.zero_grad()
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
    opt.step()
    if step % 5 == 0: print(f"step {step} grad_norm {gn.item():.3f} lr {opt.param_groups[0]['lr']}", flush=True)
    time.sleep(0.05)
print("finished", flush=True)
dist.destroy_process_group()
