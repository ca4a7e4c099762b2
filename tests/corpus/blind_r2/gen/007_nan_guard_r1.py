# Launched with torch.multiprocessing.spawn (no torchrun). Rank 1's data shard contains a corrupt
# feature row with huge values -> loss overflows to inf/nan; the training guard raises.
import logging, math, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

def worker(rank, world):
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
        format="%(asctime)s.%(msecs)03d %(levelname)-7s %(processName)s rank=" + str(rank) + " | %(message)s",
        datefmt="%H:%M:%S")
    log = logging.getLogger("fit")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    torch.manual_seed(100 + rank)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(20, 40), torch.nn.ReLU(), torch.nn.Linear(40, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(1, 80):
        x = torch.randn(32, 20); y = x.sum(1, keepdim=True)
        if rank == 1 and step == 23:
            x[7] = 3.0e38   # corrupt row in the shard
        loss = torch.nn.functional.mse_loss(model(x), y)
        if not math.isfinite(loss.item()):
            log.error("non-finite loss detected at step %d: %s", step, loss.item())
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}, stopping training")
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            gn = sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5
            log.info("step %3d | loss %.4f | grad_norm %.3f", step, loss.item(), gn.item())
        time.sleep(0.03)
    dist.destroy_process_group()

if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29617")
    world = 2
    print(f"spawning {world} processes", flush=True)
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
