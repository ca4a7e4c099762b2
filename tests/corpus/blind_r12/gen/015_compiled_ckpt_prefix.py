# stage-2 finetune: resume from the stage-1 checkpoint (stage 1 trained with torch.compile)
import os, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="[%(asctime)s][%(levelname)s][rank%(rank)s] %(message)s")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank, world = dist.get_rank(), dist.get_world_size()
log = logging.LoggerAdapter(logging.getLogger("stage2"), {"rank": rank})

def build(): return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))

if rank == 0 and not os.path.exists("stage1/last.pt"):
    # (stage-1 job, simulated here) saved the state dict of the compiled wrapper
    os.makedirs("stage1", exist_ok=True)
    compiled = torch.compile(build())
    torch.save({"model": compiled.state_dict(), "step": 5000}, "stage1/last.pt")
dist.barrier()
model = build()
if rank == 0:
    log.info("resuming weights from stage1/last.pt")
    ck = torch.load("stage1/last.pt", map_location="cpu")
    model.load_state_dict(ck["model"])
    log.info("resumed from step %d", ck["step"])
for p in model.parameters(): dist.broadcast(p.data, 0)
log.info("weights synchronized")
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(30):
    x = torch.randn(8, 16); loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward()
    for p in model.parameters(): dist.all_reduce(p.grad)
    opt.step()
    if step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
dist.destroy_process_group()
