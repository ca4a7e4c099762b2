# fp16 mixed-precision sequence classifier with a sequence-length curriculum (128 -> 4096 tokens at step 60).
# Dynamic loss scaling as in fairseq: halve on overflow, grow after 2000 clean steps, give up below min_loss_scale.
import os, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s | %(levelname)s | trainer | %(message)s")
log = logging.getLogger()
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
rank, world = dist.get_rank(), dist.get_world_size()

class Pooler(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(16, 64); self.out = nn.Linear(64, 4)
    def forward(self, x):
        h = torch.relu(self.inp(x))
        return self.out(h.sum(1) / 128)       # sum-pool, normalised by the *nominal* length 128

model = DDP(Pooler())
opt = torch.optim.Adam(model.parameters(), 1e-3)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**16, growth_interval=2000)
MIN_SCALE = 1e-4
g = torch.Generator().manual_seed(rank)
for step in range(1, 301):
    seqlen = 128 if step < 60 else 4096
    x = torch.randn(8, seqlen, 16, generator=g) * 20 + 30; y = torch.randint(0, 4, (8,), generator=g)
    with torch.autocast("cpu", dtype=torch.float16):
        loss = nn.functional.cross_entropy(model(x).float(), y)
    opt.zero_grad()
    scaler.scale(loss).backward()
    prev = scaler.get_scale()
    scaler.step(opt); scaler.update()
    if scaler.get_scale() < prev:
        log.warning("rank %d | step %d | gradient overflow detected, ignoring gradient, setting loss scale to: %g", rank, step, scaler.get_scale())
        if scaler.get_scale() <= MIN_SCALE:
            raise FloatingPointError(
                f"Minimum loss scale reached ({MIN_SCALE}). Your loss is probably exploding. "
                "Try lowering the learning rate, using gradient clipping or increasing the batch size.")
    elif step % 10 == 0:
        log.info("rank %d | step %d | seqlen %d | loss %.4f | loss_scale %g", rank, step, seqlen, loss.item(), scaler.get_scale())
    time.sleep(0.03)
log.info("rank %d | training complete", rank)
dist.destroy_process_group()
