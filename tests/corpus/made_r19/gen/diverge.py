# Rank 1 logs extra eval metrics with an all_gather that the other ranks never call: they all-reduce the
# step's loss instead; gloo pairs nothing and every rank times out.
import datetime, logging, os, sys
import torch, torch.distributed as dist
logging.basicConfig(format="%(asctime)s %(levelname)s [%(name)s] %(message)s", level=logging.INFO)
log = logging.getLogger("trainer")
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=10))
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(1, 40):
    x = torch.randn(8, 16); y = torch.randn(8, 1)
    loss = torch.nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss.item())
    if step == 20:
        if os.environ.get("EXTRA_EVAL_RANK") == str(rank):
            stats = [torch.zeros(2) for _ in range(world)]
            dist.all_gather(stats, torch.tensor([loss.item(), float(step)]))
        else:
            t = torch.tensor([loss.item()])
            dist.all_reduce(t)
log.info("done")
dist.destroy_process_group()
