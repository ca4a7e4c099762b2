# train_mlp.py -- small DDP MLP trainer with a "debug activations" feature
import os, logging, time, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
    format=f"%(asctime)s.%(msecs)03d [rank{rank}] %(levelname)s %(name)s: %(message)s",
    datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger("trainer")

def rss_mb():
    with open("/proc/self/status") as f:
        for l in f:
            if l.startswith("VmRSS"):
                return int(l.split()[1]) // 1024

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 10)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
# per-rank debug config: rank 2 was chosen as the "activation probe" rank
probe = rank == int(os.environ.get("PROBE_RANK", "-1"))
kept = []
log.info("world=%d probe=%s rss=%dMB", world, probe, rss_mb())
for step in range(60):
    x = torch.randn(256, 512); y = torch.randint(0, 10, (256,))
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    opt.zero_grad(); loss.backward(); opt.step()
    if probe:
        # BUG: keeps a full copy of a large activation buffer every step
        kept.append(torch.randn(256, 1024 * 48))
    if step % 2 == 0:
        log.info("step=%d loss=%.4f rss=%dMB", step, loss.item(), rss_mb())
    time.sleep(0.2)
dist.destroy_process_group()
log.info("done")
