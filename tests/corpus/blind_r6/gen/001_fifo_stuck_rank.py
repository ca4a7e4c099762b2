# 3-rank DDP job; rank 1 periodically pulls a shuffle seed from a "data service" FIFO.
# At step 12 the FIFO has no writer, so rank 1 blocks silently in open(); others hit the gloo timeout.
import os, sys, time, logging, datetime
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("trainer")

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank, world = dist.get_rank(), dist.get_world_size()
    log.info("initialized process group rank=%d world_size=%d backend=gloo", rank, world)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    fifo = os.environ["SEED_FIFO"]
    g = torch.Generator().manual_seed(rank)
    for step in range(40):
        if rank == 1 and step == 12:
            log.info("refreshing shuffle seed from data service")
            with open(fifo) as f:          # blocks: nobody ever opens the write end
                g.manual_seed(int(f.read().strip()))
        x = torch.randn(16, 32, generator=g); y = torch.randn(16, 1, generator=g)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 4 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.2)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
