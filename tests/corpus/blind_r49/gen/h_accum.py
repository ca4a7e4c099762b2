"""Gradient accumulation + fp16 autocast with GradScaler on CPU: early overflow steps are skipped."""
import os, sys
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
ACC = 4
model = DDP(MLP()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 40, growth_interval=50)
x, y = make_data(seed=7)
if rank == 0:
    print(f"gradient accumulation: {ACC} micro-batches per optimizer step, fp16 autocast, dynamic loss scale", flush=True)
skipped = 0
for step in range(60):
    for micro in range(ACC):
        i = ((step * ACC + micro) * 16) % 496
        ctx = model.no_sync() if micro < ACC - 1 else torch.enable_grad()
        with ctx:
            with torch.autocast("cpu", dtype=torch.float16):
                loss = F.cross_entropy(model(x[i:i + 16]), y[i:i + 16]) / ACC
            scaler.scale(loss).backward()
    before = scaler.get_scale()
    scaler.step(opt); scaler.update(); opt.zero_grad()
    after = scaler.get_scale()
    if after < before:
        skipped += 1
        if rank == 0:
            print(f"step {step}: gradient overflow (inf/nan in fp16 grads), skipped optimizer step, loss scale {before:.0f} -> {after:.0f}", flush=True)
    elif rank == 0 and step % 5 == 0:
        print(f"step {step}: loss {loss.item() * ACC:.4f} scale {after:.0f}", flush=True)
if rank == 0:
    print(f"finished 60 optimizer steps ({skipped} skipped during loss-scale warm-up)", flush=True)
dist.barrier(); dist.destroy_process_group()
