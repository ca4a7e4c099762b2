# failure-probability model on sensor windows; debugging run with anomaly detection on
import os, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

def shard(rank, n=640):
    g = torch.Generator().manual_seed(100 + rank)
    x = torch.randn(n, 12, generator=g)
    y = (x[:, 0] > 0.3).float()
    if rank == 2:
        x[333, 0] = 4.2e4      # stuck pressure sensor on one line: raw counts instead of bar
    return x, y

def main():
    rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:30109", rank=rank, world_size=world,
                            timeout=timedelta(seconds=20))
    torch.autograd.set_detect_anomaly(True)
    x, y = shard(rank)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(40):
        xb, yb = x[step * 16:(step + 1) * 16], y[step * 16:(step + 1) * 16]
        p = torch.sigmoid(model(xb).squeeze(-1))
        loss = -(yb * torch.log(p) + (1 - yb) * torch.log(1 - p)).mean()   # hand-written BCE
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.5f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
