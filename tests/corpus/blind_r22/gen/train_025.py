# 025 HEALTHY: torchrun, 3 ranks. Noisy but fine: deprecated AMP API on CPU warnings,
# a missing optional resume checkpoint (logged warning), a slow first step, completes.
import os, sys, time, logging, warnings, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
r = dist.get_rank()
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s rank{r} %(filename)s:%(lineno)d] %(message)s")
log = logging.getLogger("fit")
scaler = torch.cuda.amp.GradScaler()            # deprecated + CUDA unavailable: warnings, disabled
model = DDP(tiny_model()); opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
try:
    sd = torch.load("last.ckpt", weights_only=True)
except FileNotFoundError as e:
    log.warning("no resume checkpoint (%s), starting from scratch", e)
for step in range(60):
    x, y = batch(step % 10, r)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); scaler.scale(loss).backward(); scaler.step(opt); scaler.update()
    if step == 0: time.sleep(1.0); log.warning("first step slow (warm-up), step time 1.0s")
    if step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
    time.sleep(0.05)
t = torch.tensor([loss.item()]); dist.all_reduce(t)
log.info("training finished: mean final loss %.4f", t.item() / dist.get_world_size())
if r == 0:
    torch.save(model.module.state_dict(), os.path.join(os.environ["OUT"], "final.pt")); log.info("saved final.pt")
dist.barrier(); dist.destroy_process_group()
