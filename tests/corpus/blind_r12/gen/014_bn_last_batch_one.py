# tabular MLP with BatchNorm; each rank writes its own progress log (tqdm) to logs/rank{N}.log
import os, sys, time
sys.path.insert(0, "/work/blind/r12/pylib")
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import TensorDataset, DataLoader
from tqdm import tqdm

SHARD_ROWS = [1024, 1024, 1024, 993]   # rows per rank after filtering; batch 32 -> rank 3 has a 1-row tail batch

def run(rank, world):
    os.makedirs("logs", exist_ok=True)
    logf = open(f"logs/rank{rank}.log", "w", buffering=1)
    sys.stderr = logf; sys.stdout = logf
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:32114", rank=rank, world_size=world,
                            timeout=timedelta(seconds=15))
    g = torch.Generator().manual_seed(rank)
    n = SHARD_ROWS[rank]
    ds = TensorDataset(torch.randn(n, 20, generator=g), torch.randn(n, 1, generator=g))
    dl = DataLoader(ds, batch_size=32, shuffle=True, drop_last=False)
    model = DDP(nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    print(f"rank {rank}: {n} rows, {len(dl)} batches/epoch", flush=True)
    for epoch in range(2):
        for x, y in tqdm(dl, desc=f"epoch {epoch}", file=logf, mininterval=0.2):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            time.sleep(0.01)
        print(f"rank {rank}: epoch {epoch} last loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(run, args=(4,), nprocs=4)
