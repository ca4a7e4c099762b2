"""torch.compile (aot_eager backend) with graph breaks and recompilations from varying shapes."""
import os, sys, time
import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F
import torch._dynamo
sys.path.insert(0, os.path.dirname(__file__))
from common import init, make_data

rank, world = init()
torch._dynamo.config.recompile_limit = 4
torch._dynamo.config.automatic_dynamic_shapes = False

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(32, 64); self.b = nn.Linear(64, 10)
    def forward(self, x):
        h = F.relu(self.a(x))
        if h.mean().item() > 0.0:  # data-dependent python branch: graph break
            h = h * 1.01
        print(f"[rank{rank}] forward batch={x.shape[0]}")  # print inside compiled fn: graph break
        return self.b(h)

model = Net()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x, y = make_data(seed=2)
bs_cycle = [32, 31, 30, 29, 28, 27, 26, 32]
t0 = time.time()
for step in range(40):
    bs = bs_cycle[step % len(bs_cycle)]
    i = (step * 32) % 448
    out = cmodel(x[i:i + bs])
    loss = F.cross_entropy(out, y[i:i + bs])
    opt.zero_grad(); loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad); p.grad /= world
    opt.step()
    if step % 5 == 0:
        print(f"[rank{rank}] step {step} bs {bs} loss {loss.item():.4f} elapsed {time.time() - t0:.1f}s", flush=True)
print(f"[rank{rank}] done: 40 steps, final loss {loss.item():.4f}", flush=True)
dist.barrier(); dist.destroy_process_group()
