# token-stream LM pretraining toy; each rank keeps an in-memory shuffle buffer sized from its shard index
import os, sys, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp

SHARD_TOKENS = {0: 3_000_000, 1: 2_800_000, 2: 710_000_000}  # shard 2 index includes the un-deduped crawl dump

def worker(rank, world):
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format=f"%(asctime)s [r{rank}] %(levelname)s %(message)s")
    log = logging.getLogger()
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "32104"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=15))
    model = nn.Sequential(nn.Embedding(1000, 32), nn.Flatten(), nn.Linear(32 * 16, 1000))
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    n = SHARD_TOKENS[rank]
    log.info("allocating shuffle buffer for %d tokens (%.1f MiB)", n, n * 8 / 2**20)
    buf = torch.randint(0, 1000, (n,), dtype=torch.long)
    log.info("shuffle buffer ready")
    for step in range(30):
        i = torch.randint(0, n - 17, (8,))
        x = torch.stack([buf[j:j+16] for j in i]); y = torch.stack([buf[j+16] for j in i])
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if step % 10 == 0: log.info("step %d loss %.3f", step, loss.item())
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(3,), nprocs=3, join=True)
