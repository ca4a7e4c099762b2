# churn model; early stopping on validation loss (each rank validates its own val shard)
import os, torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp
from datetime import timedelta

PATIENCE = 2

def data(rank, n, seed, noisy=False):
    g = torch.Generator().manual_seed(seed * 10 + rank)
    x = torch.randn(n, 10, generator=g)
    y = ((x[:, 0] + 0.5 * x[:, 1]) > 0).long()
    if noisy:   # this region's validation export has labels joined on the wrong key
        y = torch.randint(0, 2, (n,), generator=g)
    return x, y

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "30113"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    xt, yt = data(rank, 512, 1)
    xv, yv = data(rank, 256, 2, noisy=(rank == 1))
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    best, bad = float("inf"), 0
    for epoch in range(20):
        for i in range(0, 512, 32):
            loss = nn.functional.cross_entropy(model(xt[i:i + 32]), yt[i:i + 32])
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            vl = nn.functional.cross_entropy(model.module(xv), yv).item()
        print(f"rank{rank} | epoch {epoch:2d} | train_loss {loss.item():.4f} | val_loss {vl:.4f}", flush=True)
        if vl < best - 1e-3:
            best, bad = vl, 0
        else:
            bad += 1
            if bad >= PATIENCE:
                print(f"rank{rank} | early stopping: val_loss has not improved for {PATIENCE} epochs (best {best:.4f})", flush=True)
                break
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(3,), nprocs=3, join=True)
