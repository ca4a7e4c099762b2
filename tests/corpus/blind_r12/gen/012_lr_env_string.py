# sweep agent sets LR/WD via environment variables
import os
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP

@record
def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    rank = dist.get_rank()
    lr = os.environ.get("LR", 3e-4)
    wd = float(os.environ.get("WD", 0.01))
    if rank == 0: print(f"config: lr={lr} wd={wd} world={dist.get_world_size()}", flush=True)
    model = DDP(nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1)))
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=wd)
    for step in range(20):
        x = torch.randn(8, 8); loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0: print("done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
