# 009: torchrun (console only), 3 ranks; only rank 0 logs (fairseq-like "| epoch | step |").
# Rank 0 saves a checkpoint every 12 steps into CKPT_DIR, which belongs to another user
# and is not writable for this job (job runs without CAP_DAC_OVERRIDE) -> torch.save fails.
import os, sys, time, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
r = dist.get_rank()
model = DDP(tiny_model()); opt = torch.optim.Adam(model.parameters(), lr=1e-3)
ckpt_dir = os.environ["CKPT_DIR"]
if r == 0: print(f"| distributed init done, world size {dist.get_world_size()}", flush=True)
for step in range(1, 40):
    x, y = batch(step, r)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if r == 0 and step % 3 == 0:
        print(f"| epoch 001 | step {step:05d} | loss {loss.item():.3f} | lr 1.0e-03 | wall {time.strftime('%H:%M:%S')}", flush=True)
    if step % 12 == 0:
        if r == 0:
            path = os.path.join(ckpt_dir, f"checkpoint_{step}.pt")
            print(f"| saving checkpoint to {path}", flush=True)
            torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, path)
        dist.barrier()
    time.sleep(0.2)
dist.destroy_process_group()
