# Image-classification style training; rank 1's DataLoader worker hangs reading one sample
import os, time, datetime, logging
import torch, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader, DistributedSampler

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger("train")

class ShardDataset(Dataset):
    def __init__(self, n=512):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        # simulate decoding an image from a remote bucket; one object stalls forever
        if i == 301:
            time.sleep(3600)
        g = torch.Generator().manual_seed(i)
        return torch.randn(32, generator=g), i % 10

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=45))
    rank, ws = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    ds = ShardDataset()
    sampler = DistributedSampler(ds, num_replicas=ws, rank=rank, shuffle=False)
    dl = DataLoader(ds, batch_size=8, sampler=sampler, num_workers=2, timeout=15)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    log.info("rank %d/%d: %d samples, %d batches/epoch", rank, ws, len(sampler), len(dl))
    for epoch in range(3):
        sampler.set_epoch(epoch)
        for step, (x, y) in enumerate(dl):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 4 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
