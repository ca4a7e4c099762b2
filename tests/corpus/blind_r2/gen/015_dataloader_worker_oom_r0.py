# mp.spawn, 2 ranks, DataLoader(num_workers=2). A sample in rank 0's shard "decodes" to a huge
# buffer; the worker process that handles it is killed by the kernel OOM killer (job cgroup limit).
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

class ImageShard(torch.utils.data.Dataset):
    def __init__(self, rank, n=400):
        self.rank, self.n = rank, n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        if self.rank == 0 and i == 150:
            # corrupt header claims a 20000x20000 image: the decoder allocates for it
            bufs = [torch.ones(20000, 2500, dtype=torch.float32) for _ in range(20)]
            return bufs[0][:3, :32].reshape(-1)[:96], torch.tensor(0)
        g = torch.Generator().manual_seed(i)
        return torch.randn(96, generator=g), torch.tensor(i % 4)

def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    model = DDP(torch.nn.Sequential(torch.nn.Linear(96, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    dl = torch.utils.data.DataLoader(ImageShard(rank), batch_size=10, num_workers=2)
    for it, (x, y) in enumerate(dl):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if it % 5 == 0:
            print(f"[r{rank}] iter {it:3d} loss={loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29625"
    mp.spawn(worker, args=(2,), nprocs=2)
