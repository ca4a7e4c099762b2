# 019: 3 plain python processes, env://; each writes to worker-<pid>.log (no rank in the name),
# messages printed without rank. A toy 3-stage pipeline passes activations forward with
# send/recv; the destination for the last stage is computed wrongly (it sends to itself).
import os, sys, time, torch, torch.distributed as dist
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
rank, world = dist.get_rank(), dist.get_world_size()
print(f"stage init pid={os.getpid()} host={os.uname().nodename}", flush=True)
torch.manual_seed(rank); layer = torch.nn.Linear(16, 16)
for mb in range(12):
    if rank == 0:
        act = torch.randn(4, 16)
    else:
        act = torch.empty(4, 16); dist.recv(act, src=rank - 1)
    out = torch.tanh(layer(act))
    dst = rank + 1 if rank + 1 < world else rank          # bug: last stage should return to stage 0 (loss)
    if rank == world - 1 and mb < 3:
        print(f"microbatch {mb}: output norm {out.norm():.3f}", flush=True)
        continue
    dist.send(out.detach(), dst=dst)
    print(f"microbatch {mb}: sent activations to next stage", flush=True)
    time.sleep(0.1)
if rank == 0:
    for mb in range(12):
        back = torch.empty(4, 16); dist.recv(back, src=world - 1)
        print(f"microbatch {mb}: loss {back.pow(2).mean():.4f}", flush=True)
