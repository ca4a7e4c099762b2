# mp.spawn DDP with GradScaler (CPU) variants: MODE=abort|warmup_overflow|scale_collapse
import os, sys, time, datetime, logging
import torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp
MODE = os.environ.get("MODE", "warmup_overflow"); FRANK = int(os.environ.get("FRANK", "1")); PORT = os.environ.get("PORT", "29691")

def worker(rank, world):
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    log = logging.getLogger("train")
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = PORT
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=20))
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0**16, growth_interval=10)
    g = torch.Generator().manual_seed(rank)
    for step in range(60):
        x = torch.randn(8, 16, generator=g); y = x.sum(1, keepdim=True) * 0.1
        loss = ((model(x) - y) ** 2).mean()
        if MODE == "warmup_overflow" and step < 4 and rank == 0: loss = loss * 1e36  # overflow in early steps
        if MODE == "scale_collapse" and step >= 5 and rank == FRANK: loss = loss * float("inf")
        opt.zero_grad(); scaler.scale(loss).backward()
        scaler.step(opt); prev = scaler.get_scale(); scaler.update(); new = scaler.get_scale()
        if new < prev and rank == 0:
            log.warning(f"step {step}: gradient overflow detected, skipping step; reducing loss scale from {prev} to {new}")
        if rank == 0 and step % 5 == 0:
            log.info(f"step {step} loss {loss.item():.4f} scale {new}")
        if new < 1e-4:
            raise RuntimeError(f"Current loss scale {new} already at minimum; cannot decrease scale anymore. Exiting run.")
        if MODE == "abort" and rank == FRANK and step == 8:
            os.abort()
        time.sleep(0.1)
    dist.barrier()
    if rank == 0: log.info("finished 60 steps")
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(int(os.environ.get("WORLD", "3")),), nprocs=int(os.environ.get("WORLD", "3")))
