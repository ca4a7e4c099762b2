"""A long run (thousands of lines) with periodic evaluation; the loss has a transient bump it recovers from."""
import math, os, sys, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
model = DDP(MLP()); opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x, y = make_data(n=2048, seed=15); xv, yv = make_data(n=256, seed=15)
STEPS = 700
for step in range(1, STEPS + 1):
    lr = 0.05 * (3.0 if 300 <= step < 315 else 1.0)  # a planned LR warm restart at step 300
    for g in opt.param_groups:
        g["lr"] = lr
    i = (step * 32 + rank * 8) % 2000
    loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32]); opt.zero_grad(); loss.backward(); opt.step()
    print(f"[train] step={step} loss={loss.item():.4f} lr={lr:.4f} rank={rank}", flush=True)
    if step % 100 == 0:
        model.eval()
        with torch.no_grad():
            vl = F.cross_entropy(model(xv), yv)
            dist.all_reduce(vl); vl /= world
        model.train()
        if rank == 0:
            print(f"[eval] step={step} val_loss={vl.item():.4f} ppl={math.exp(vl.item()):.3f}", flush=True)
if rank == 0:
    print(f"[done] {STEPS} steps finished", flush=True)
dist.barrier(); dist.destroy_process_group()
