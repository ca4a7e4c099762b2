# sentiment fine-tune; 4 DataLoader workers per rank do on-the-fly augmentation
import os, time, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.utils.data import Dataset, DataLoader, DistributedSampler

class Reviews(Dataset):
    def __len__(self): return 4096
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        toks = torch.randint(1, 5000, (48,), generator=g)
        return toks, int(toks.sum() % 2)

def main():
    rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:30108", rank=rank, world_size=world,
                            timeout=timedelta(seconds=20))
    print(f"rank {rank} up on {os.uname().nodename}, pid {os.getpid()}", flush=True)
    ds = Reviews()
    dl = DataLoader(ds, batch_size=64, sampler=DistributedSampler(ds, seed=3), num_workers=4, prefetch_factor=2)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.EmbeddingBag(5000, 64), nn.Linear(64, 2)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    t0 = time.time()
    for epoch in range(2):
        dl.sampler.set_epoch(epoch)
        for step, (x, y) in enumerate(dl):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if rank == 0 and step % 8 == 0:
                print(f"epoch={epoch} step={step} loss={loss.item():.4f} elapsed={time.time() - t0:.1f}s", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
