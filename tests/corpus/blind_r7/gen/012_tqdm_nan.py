# train_reg.py -- regression with tqdm progress per rank and a periodic global NaN guard
import os, sys, time, logging, torch, torch.nn as nn, torch.distributed as dist
from tqdm import tqdm
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s - rank{rank} - %(levelname)s - %(message)s")
log = logging.getLogger("reg")
dist.init_process_group("gloo")
torch.manual_seed(0)
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 1)))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(100 + rank)
GUARD_EVERY = 5
bar = tqdm(range(60), desc=f"rank{rank}", mininterval=0, file=sys.stderr, dynamic_ncols=False, ncols=100)
for step in bar:
    x = torch.randn(64, 16, generator=g); y = x.sum(1, keepdim=True)
    if rank == 1 and step == 23:
        x[7, 3] = float("inf")   # one corrupt record in this rank's shard (sensor overflow)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
    opt.step()
    bar.set_postfix(loss=f"{loss.item():.4f}", gnorm=f"{gn.item():.3f}")
    if step % GUARD_EVERY == 0:
        t = loss.detach().clone(); dist.all_reduce(t, op=dist.ReduceOp.AVG)
        if rank == 0 or not torch.isfinite(t):
            log.info("step %d global_loss %.4f", step, t.item())
        if not torch.isfinite(t):
            raise FloatingPointError(f"global loss is {t.item()} at step {step}; aborting")
    time.sleep(0.1)
bar.close()
log.info("done")
