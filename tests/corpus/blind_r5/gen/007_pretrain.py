import os, json, time, math, torch, torch.distributed as dist
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=12))
rank = dist.get_rank()
def jlog(**kw):
    kw["ts"] = round(time.time(), 3)
    print(json.dumps(kw), flush=True)
model = torch.nn.Linear(16, 1)
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.05)
for step in range(25):
    x = torch.randn(16, 16); y = torch.randn(16, 1)
    if rank == 1 and step == 9:
        x[3, 5] = float("inf")   # corrupt feature from upstream normalisation
    loss = torch.nn.functional.mse_loss(ddp(x), y)
    if not torch.isfinite(loss):
        raise FloatingPointError(f"non-finite loss {loss.item()} at step {step}; aborting to protect checkpoint")
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0 or step % 5 == 0:
        jlog(event="train", step=step, loss=round(loss.item(), 5), lr=0.05)
dist.destroy_process_group()
