# retrieval fine-tune launched with torch.multiprocessing.spawn; each rank logs to logs/rank{N}.log
import os, sys, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

R = "/work/blind/r13/runs/004_spawn_embed_cache_oom"

def worker(rank, world):
    logging.basicConfig(filename=f"{R}/logs/rank{rank}.log", level=logging.INFO,
                        format=f"%(asctime)s [rank {rank}] %(levelname)s %(message)s")
    log = logging.getLogger()
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "33004"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=30))
    log.info("pid %d joined process group (world %d)", os.getpid(), world)
    torch.manual_seed(rank)
    enc = DDP(nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.Linear(512, 256)))
    opt = torch.optim.AdamW(enc.parameters(), 1e-4)
    # hard-negative mining keeps the embeddings of past batches; rank 1 mines from the
    # full 'catalog' split (mining_pool=None -> unbounded) while the others cap it at 4 batches
    pool_cap = None if rank == 1 else 4
    pool = []
    for step in range(1, 201):
        q = torch.randn(256, 256); d = q + 0.1 * torch.randn(256, 256)
        eq, ed = enc(q), enc(d)
        negs = pool[-1][:1024] if pool else ed.detach()
        loss = nn.functional.cross_entropy(eq @ torch.cat([ed, negs]).T, torch.arange(256))
        opt.zero_grad(); loss.backward(); opt.step()
        pool.append(torch.randn(16384, 256))            # catalog embeddings for this batch (16 MB)
        if pool_cap is not None: pool = pool[-pool_cap:]
        if step % 5 == 0:
            rss = int(open("/proc/self/statm").read().split()[1]) * 4096 >> 20
            log.info("step %d loss %.4f neg_pool %d rss %d MB", step, loss.item(), len(pool), rss)
        time.sleep(0.05)
    log.info("done")
    dist.destroy_process_group()

if __name__ == "__main__":
    print(f"launching 3 workers with torch.multiprocessing.spawn at {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    mp.spawn(worker, args=(3,), nprocs=3, join=True)
    print("all workers finished", flush=True)
