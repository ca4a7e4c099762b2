# warmup+cosine schedule via LambdaLR; rank 0 saves a full training checkpoint every 15 steps
import os, math, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
log = logging.getLogger(f"trainer.rank{rank}")

def main():
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:32106", rank=rank, world_size=world,
                            timeout=timedelta(seconds=15))
    model = DDP(nn.Sequential(nn.Linear(12, 48), nn.SiLU(), nn.Linear(48, 12)))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    total, warm = 60, 10
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / warm if s < warm else 0.5 * (1 + math.cos(math.pi * (s - warm) / (total - warm))))
    os.makedirs("ckpt", exist_ok=True)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, total + 1):
        x = torch.randn(32, 12, generator=g)
        loss = nn.functional.mse_loss(model(x), x.flip(1))
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        if step % 5 == 0:
            log.info("step=%d loss=%.4f lr=%.2e", step, loss.item(), sched.get_last_lr()[0])
        if step % 15 == 0:
            if rank == 0:
                log.info("saving checkpoint ckpt/step_%d.pt", step)
                torch.save({"step": step, "model": model.module.state_dict(), "optim": opt.state_dict(),
                            "scheduler": sched}, f"ckpt/step_{step}.pt")
            dist.barrier()
        time.sleep(0.03)
    log.info("training complete")
    dist.destroy_process_group()

main()
