# image classifier, 2 nodes; decoding happens in DataLoader workers
import os, socket, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.utils.data import Dataset, DataLoader, DistributedSampler

class SyntheticImages(Dataset):
    def __len__(self): return 2048
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        return torch.rand(3, 96, 96, generator=g), i % 10

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    print(f"rank {rank}/{world} node_rank={os.environ.get('GROUP_RANK')} host={socket.gethostname()}", flush=True)
    ds = SyntheticImages()
    dl = DataLoader(ds, batch_size=32, sampler=DistributedSampler(ds), num_workers=2, persistent_workers=True)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Conv2d(3, 8, 5, stride=4), nn.ReLU(),
                                                              nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(2):
        dl.sampler.set_epoch(epoch)
        for step, (x, y) in enumerate(dl):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if rank == 0 and step % 5 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
