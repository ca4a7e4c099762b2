# 4 ranks, torchrun --log-dir --tee 2 (only stderr teed to console). Image-like dataset with
# DataLoader(num_workers=2). On rank 3's "node" the DataLoader workers run in a 400 MB memory
# cgroup (think: tight container limit); sample 1337 of rank 3's shard is a corrupt header
# claiming a gigantic resolution, and the decoder allocates the full buffer -> the kernel OOM
# killer SIGKILLs that worker (local index 1337 = global sample 7337) -> main process: "DataLoader worker (pid N) is killed by signal".
import logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist
from torch.utils.data import DataLoader, Dataset

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [RANK {rank}] %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("imgtrain")
CG = os.environ.get("WORKER_CGROUP")

class Imgs(Dataset):
    def __init__(self, n, base): self.n, self.base = n, base
    def __len__(self): return self.n
    def decode(self, idx):
        h, w = (64, 64)
        if rank == 3 and idx == 1337:
            h, w = (16384, 16384)  # corrupt header: 16k x 16k RGB
        img = torch.empty(3, h, w, dtype=torch.uint8).fill_(idx % 255)
        return nn.functional.interpolate(img[None].float(), size=(32, 32), mode="area")[0] / 255.0
    def __getitem__(self, idx):
        return self.decode(idx), idx % 10

def winit(wid):
    if rank == 3 and CG:
        with open(os.path.join(CG, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

def main():
    dist.init_process_group("gloo")
    base = rank * 2000
    dl = DataLoader(Imgs(2000, base), batch_size=16, num_workers=2, worker_init_fn=winit, shuffle=False)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    log.info("dataset shard %d..%d, %d batches", base, base + 2000, len(dl))
    t0 = time.time()
    for step, (x, y) in enumerate(dl, 1):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0:
            log.info("step %d loss %.4f (%.1f img/s)", step, loss.item(), 16 * step / (time.time() - t0))
    log.info("epoch done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
