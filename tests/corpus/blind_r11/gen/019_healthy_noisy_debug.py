# Healthy run with lots of noise: c10d INFO logging, deprecation warnings, a non-fatal metrics-push
# failure logged with its traceback, and an activation-checkpoint warning.
import os, sys, time, socket, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

rank = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s rank{rank} %(name)s | %(message)s")
log = logging.getLogger("train")

def push_metrics(step, loss):
    # push-gateway on the login node; not reachable from compute nodes in this cluster
    s = socket.create_connection(("127.0.0.1", 31919), timeout=2)
    s.sendall(f"loss{{step=\"{step}\"}} {loss}\n".encode()); s.close()

class Block(nn.Module):
    def __init__(self): super().__init__(); self.f = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32))
    def forward(self, x): return x + checkpoint(self.f, x)      # use_reentrant not given

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(32, 32), Block(), Block(), nn.Linear(32, 4)))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=20, gamma=0.5)
    sched.step()                                   # called before the first optimizer.step()
    scaler = torch.cuda.amp.GradScaler()           # recipe shared with the GPU runs
    metrics_ok = True
    for step in range(1, 61):
        x = torch.randn(32, 32); y = (x[:, :2].sum(1) > 0).long() * 2 + (x[:, 2] > 0).long()
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); scaler.scale(loss).backward(); scaler.step(opt); scaler.update(); sched.step()
        if step % 10 == 0:
            if rank == 0: log.info("step %d loss %.4f lr %.2e", step, loss.item(), sched.get_last_lr()[0])
            if rank == 0 and metrics_ok:
                try:
                    push_metrics(step, loss.item())
                except OSError:
                    log.exception("metrics push failed at step %d; disabling metrics push for this run", step)
                    metrics_ok = False
        time.sleep(0.05)
    if rank == 0: log.info("saving final weights skipped (dry run); training complete")
    dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
