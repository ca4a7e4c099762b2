# Each rank reads its own pre-split file list (no DistributedSampler). Rank 1's split is shorter,
# so it finishes its loop, logs "training complete" and exits 0 while ranks 0 and 2 are still
# inside the gradient all-reduce of the next step.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

SAMPLES_PER_RANK = {0: 640, 1: 448, 2: 640}   # files per split after dedup

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    n = SAMPLES_PER_RANK[rank]
    ds = torch.utils.data.TensorDataset(torch.randn(n, 24), torch.randn(n, 1))
    dl = torch.utils.data.DataLoader(ds, batch_size=32)
    print(f"rank {rank}: {n} samples, {len(dl)} steps", flush=True)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(24, 24), torch.nn.ReLU(), torch.nn.Linear(24, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for i, (x, y) in enumerate(dl, 1):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if i % 4 == 0:
            print(f"rank {rank}: step {i}/{len(dl)} loss {loss.item():.4f}", flush=True)
        time.sleep(0.1)
    print(f"rank {rank}: training complete", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
