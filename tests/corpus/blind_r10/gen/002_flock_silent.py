# embedding trainer; each rank mmaps a pre-tokenized feature cache shard, guarded by a lock
import os, fcntl, logging, time, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("train")
CACHE = os.environ.get("FEATURE_CACHE", "/work/blind/r10/runs/002_flock_silent/cache")

def open_shard(rank):
    lockpath = os.path.join(CACHE, f"shard-{rank:03d}.lock")
    fd = os.open(lockpath, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)          # wait until no builder is writing the shard
    g = torch.Generator().manual_seed(rank)
    feats = torch.randn(512, 64, generator=g)
    fcntl.flock(fd, fcntl.LOCK_UN); os.close(fd)
    return feats

def main():
    rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "30102")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    if rank == 0:
        log.info("world=%d cache=%s", world, CACHE)
    feats = open_shard(rank)
    if rank == 0:
        log.info("feature cache opened (%d rows/shard)", feats.shape[0])
    model = nn.Linear(64, 64)
    for p in model.parameters():
        dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(200):
        x = feats[(step * 32) % 512:][:32]
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if rank == 0 and step % 20 == 0:
            log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
