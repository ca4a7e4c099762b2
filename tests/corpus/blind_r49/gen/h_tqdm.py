"""A tqdm-driven training loop under sbatch/srun; every rank draws its own bar."""
import os, sys
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from tqdm import tqdm
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
model = DDP(MLP()); opt = torch.optim.Adam(model.parameters(), lr=3e-3)
x, y = make_data(n=1024, seed=17)
for epoch in range(3):
    bar = tqdm(range(0, 1024, 32), desc=f"[rank {rank}] epoch {epoch}", mininterval=0, file=sys.stdout)
    for i in bar:
        loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32]); opt.zero_grad(); loss.backward(); opt.step()
        bar.set_postfix(loss=f"{loss.item():.3f}")
    bar.close()
dist.barrier(); dist.destroy_process_group()
print(f"[rank {rank}] finished 3 epochs", flush=True)
