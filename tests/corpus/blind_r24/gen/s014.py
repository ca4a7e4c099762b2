# 014: image-like batches from DataLoader workers travel through /dev/shm; on the node whose
# container got a 4 MB /dev/shm the workers cannot allocate shared memory.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.utils.data import Dataset, DataLoader
from torch.distributed.elastic.multiprocessing.errors import record

class Crops(Dataset):
    def __len__(self): return 4096
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        img = torch.rand(3, 112, 112, generator=g)
        return img, img.mean().unsqueeze(0)

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging_norank", name="vision")
    log.info(f"global rank {rank} of {world}, /dev/shm: {os.statvfs('/dev/shm').f_blocks * os.statvfs('/dev/shm').f_frsize // 2**20} MiB")
    sampler = torch.utils.data.DistributedSampler(Crops(), num_replicas=world, rank=rank)
    dl = DataLoader(Crops(), batch_size=16, sampler=sampler, num_workers=2)
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 5, stride=4), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(4, 1))
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    for step, (x, y) in enumerate(dl, 1):
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 5 == 0:
            log.info(f"iter {step} loss {loss.item():.5f}")
        if step == 60:
            break
        time.sleep(0.1)
    log.info("epoch finished")

if __name__ == "__main__":
    main()
