# sbatch -> srun --kill-on-bad-exit=1 -o task%t.out, 4 tasks. Each rank's shard length differs;
# DataLoader keeps the ragged last batch and the model code reshapes with the configured batch
# size (x.view(cfg.batch_size, -1)). Rank 2's shard is the only one whose length is not a
# multiple of 32, so rank 2 crashes at the end of its first epoch; srun kills the rest.
import os, sys, time, datetime
import torch, torch.nn as nn, torch.distributed as dist
from torch.utils.data import TensorDataset, DataLoader

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
BS = 32

def main():
    if rank == 0:
        for k in sorted(os.environ):
            if k.startswith(("SLURM_", "MASTER_", "GLOO_", "OMP_")):
                print(f"env {k}={os.environ[k]}")
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29708")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=60))
    n = {0: 1024, 1: 1024, 2: 1000, 3: 1024}[rank]
    ds = TensorDataset(torch.randn(n, 4, 40), torch.randint(0, 10, (n,)))
    dl = DataLoader(ds, batch_size=BS, shuffle=False)
    model = nn.Sequential(nn.Linear(160, 128), nn.ReLU(), nn.Linear(128, 10))
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    print(f"[task {rank}] {n} samples -> {len(dl)} batches", flush=True)
    for epoch in range(3):
        for i, (x, y) in enumerate(dl):
            x = x.view(BS, -1)            # BUG: assumes full batches
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward()
            for p in model.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
            opt.step()
            time.sleep(0.1)
            if i % 8 == 0:
                print(f"[task {rank}] epoch {epoch} it {i}/{len(dl)} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
