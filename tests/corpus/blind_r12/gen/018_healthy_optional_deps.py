# healthy run: optional tracker import fails (logged with traceback), a metrics write is retried, checkpoint saved
import os, time, json, logging, errno
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s | rank{rank} | %(levelname)s | %(message)s")
log = logging.getLogger(__name__)
try:
    import wandb  # noqa
except ImportError:
    log.exception("experiment tracker unavailable, falling back to local JSONL metrics")
    wandb = None

def write_metrics(rec, attempt_fail=False):
    for attempt in range(1, 4):
        try:
            if attempt_fail and attempt == 1:
                raise OSError(errno.EAGAIN, "Resource temporarily unavailable", "metrics/train.jsonl")
            with open("metrics/train.jsonl", "a") as f: f.write(json.dumps(rec) + "\n")
            if attempt > 1: log.info("metrics write succeeded on attempt %d", attempt)
            return
        except OSError as e:
            log.error("failed to write metrics (attempt %d/3): %s -- retrying in 0.2s", attempt, e)
            time.sleep(0.2)

dist.init_process_group("gloo", init_method="tcp://127.0.0.1:32118", rank=rank, world_size=world,
                        timeout=timedelta(seconds=15))
os.makedirs("metrics", exist_ok=True); os.makedirs("ckpt", exist_ok=True)
model = DDP(nn.Sequential(nn.Linear(6, 24), nn.Tanh(), nn.Linear(24, 2)))
opt = torch.optim.Adam(model.parameters(), 1e-2)
g = torch.Generator().manual_seed(rank)
for step in range(1, 31):
    x = torch.randn(32, 6, generator=g); y = (x[:, 0] * x[:, 1] > 0).long()
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss.item())
        if rank == 0: write_metrics({"step": step, "loss": loss.item()}, attempt_fail=(step == 20))
    time.sleep(0.03)
if rank == 0:
    torch.save(model.module.state_dict(), "ckpt/final.pt"); log.info("saved ckpt/final.pt")
dist.barrier()
log.info("training finished successfully")
dist.destroy_process_group()
