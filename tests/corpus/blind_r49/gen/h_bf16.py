"""bf16 autocast on CPU with the usual deprecation/unsupported-dtype warnings."""
import os, sys, warnings
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
warnings.simplefilter("default")
model = DDP(MLP()); opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
x, y = make_data(seed=8)
# an old helper still asks for fp64 autocast: torch warns and disables autocast there
with torch.autocast("cpu", dtype=torch.float64):
    _ = model.module(x[:4])
for step in range(50):
    i = (step * 32) % 448
    with torch.cpu.amp.autocast(dtype=torch.bfloat16):  # deprecated spelling, still works
        out = model(x[i:i + 32])
        loss = F.cross_entropy(out.float(), y[i:i + 32])
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        print(f"[rank {rank}] step {step} loss(bf16 fwd) {loss.item():.4f} out.dtype={out.dtype}", flush=True)
print(f"[rank {rank}] bf16 run complete", flush=True)
dist.barrier(); dist.destroy_process_group()
