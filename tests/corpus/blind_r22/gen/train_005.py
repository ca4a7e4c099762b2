# 005: srun --label, 3 tasks. Each rank iterates its own shard with no
# DistributedSampler padding; rank 2's shard is shorter (72 vs 112 samples) so it
# finishes the epoch early, logs success and exits 0. Ranks 0/1 block in the next allreduce.
import os, sys, time, logging, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import TensorDataset, DataLoader
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(levelname)s - %(message)s")
log = logging.getLogger()
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:27050", rank=rank, world_size=world,
                        timeout=timedelta(seconds=30))
n = 72 if rank == 2 else 112
g = torch.Generator().manual_seed(rank)
ds = TensorDataset(torch.randn(n, 16, generator=g), torch.randint(0, 4, (n,), generator=g))
dl = DataLoader(ds, batch_size=8, shuffle=True, generator=g)
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
log.info("global rank %d: %d samples, %d batches per epoch", rank, n, len(dl))
for i, (x, y) in enumerate(dl):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log.info("epoch 0 | batch %d/%d | loss %.4f", i + 1, len(dl), loss.item())
    time.sleep(0.3)
log.info("epoch 0 finished, exiting")
dist.destroy_process_group()
