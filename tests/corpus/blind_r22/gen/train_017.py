# 017: 3 plain python processes (env://) whose output is appended to ONE shared file.
# Each rank uses a DataLoader with 2 workers; on rank 1 a worker takes SIGBUS while
# touching a sample (stand-in for an exhausted /dev/shm) -> DataLoader raises on rank 1.
import os, sys, time, signal, logging, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.utils.data import Dataset, DataLoader
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)-8s [{rank}/{world}] %(message)s")
log = logging.getLogger()
class Shard(Dataset):
    def __len__(self): return 400
    def __getitem__(self, i):
        if rank == 1 and i == 77:
            os.kill(os.getpid(), signal.SIGBUS)
        g = torch.Generator().manual_seed(rank * 100000 + i)
        return torch.randn(16, generator=g), int(torch.randint(0, 4, (1,), generator=g))
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
dl = DataLoader(Shard(), batch_size=8, num_workers=2)
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
log.info("dataloader: %d batches, 2 workers", len(dl))
for it, (x, y) in enumerate(dl):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if it % 3 == 0: log.info("it %d loss %.4f", it, loss.item())
    time.sleep(0.15)
log.info("epoch done")
dist.destroy_process_group()
