import logging, os, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.multiprocessing as mp
import torch.nn as nn

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger("trainer")

FILES_PER_RANK = {0: 9, 1: 6, 2: 9}   # shards produced by the preprocessing job

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29631"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=15))
    model = nn.Linear(32, 1)
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    n = FILES_PER_RANK[rank]
    log.info("found %d shard files for this worker", n)
    for i in range(n):
        x = torch.randn(16, 32)
        loss = ddp(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0:
            log.info("step %d loss %.4f", i + 1, loss.item())
        time.sleep(0.3)
    log.info("epoch finished, syncing before checkpoint")
    dist.barrier()
    if rank == 0:
        torch.save(model.state_dict(), "/tmp/r4_005_model.pt")
        log.info("saved")
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(3,), nprocs=3)
