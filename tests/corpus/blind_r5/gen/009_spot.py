import os, time, logging, torch, torch.distributed as dist
from datetime import timedelta
logging.basicConfig(level=logging.INFO, format="[%(asctime)s] %(levelname)s - %(message)s")
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank = dist.get_rank()
model = torch.nn.Linear(64, 64)
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
for step in range(200):
    loss = ddp(torch.randn(8, 64)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0 and step % 5 == 0:
        logging.info("global_step=%d train/loss=%.4f samples/s=%.1f", step, loss.item(), 8 * 3 / 0.3)
    time.sleep(0.3)
dist.destroy_process_group()
