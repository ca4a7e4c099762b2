# HEALTHY run: rank 1's shard fetch from a (simulated) object store fails twice
# with ConnectionResetError; the loader logs the full traceback via
# log.exception and retries with backoff, then succeeds. One rank also logs a
# caught OSError from an optional profiler-trace upload that is skipped.
# Training completes on all 3 ranks (mp.spawn), exit code 0.
import os, sys, time, logging, datetime, torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

class FlakyStore:
    def __init__(self, rank): self.rank, self.calls = rank, 0
    def get(self, key):
        self.calls += 1
        if self.rank == 1 and self.calls <= 2:
            raise ConnectionResetError(104, "Connection reset by peer")
        g = torch.Generator().manual_seed(hash(key) % 1000)
        return torch.randn(64, 20, generator=g)

def fetch_with_retry(store, key, log, attempts=5):
    for a in range(1, attempts + 1):
        try:
            return store.get(key)
        except (ConnectionResetError, TimeoutError):
            log.exception("fetch %s failed (attempt %d/%d), retrying in %.1fs", key, a, attempts, 0.5 * a)
            time.sleep(0.5 * a)
    raise RuntimeError(f"giving up on {key}")

def upload_trace(path, log):
    try:
        with open(path) as f: f.read()
    except OSError:
        log.warning("profiler trace upload skipped", exc_info=True)

def worker(rank, world):
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format=f"%(asctime)s rank={rank} %(levelname)s %(funcName)s: %(message)s")
    log = logging.getLogger("train")
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29519"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=20))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(20, 40), nn.ReLU(), nn.Linear(40, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    store = FlakyStore(rank)
    for shard in range(3):
        data = fetch_with_retry(store, f"s3://bucket/train/shard-{rank:02d}-{shard:03d}.pt", log)
        for i in range(0, 64, 16):
            x = data[i:i+16]; loss = (model(x) - x[:, :1]).pow(2).mean()
            opt.zero_grad(); loss.backward(); opt.step()
        log.info("shard %d done, loss %.4f", shard, loss.item())
    if rank == 2:
        upload_trace("/tmp/profiler/trace_rank2.json", log)
    dist.barrier()
    if rank == 0: log.info("all shards done; saving final model")
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(3,), nprocs=3, join=True)
    print("job finished OK")
