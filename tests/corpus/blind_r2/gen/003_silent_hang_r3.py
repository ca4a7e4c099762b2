# Rank 3 deadlocks on a non-reentrant lock in its metrics code (only rank 3 flushes the
# "straggler stats" at step 8). It blocks silently; the others time out in the gradient allreduce.
import logging, os, threading, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

_lock = threading.Lock()
_stats = {}

def record(name, v):
    with _lock:
        _stats[name] = v
        if name == "flush":
            flush_stats()

def flush_stats():
    with _lock:          # BUG: re-acquires the non-reentrant lock -> deadlock
        _stats.clear()

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s - rank{rank} - %(levelname)s - %(message)s")
    log = logging.getLogger(__name__)
    model = DDP(torch.nn.Linear(32, 32))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    log.info("starting training loop")
    for step in range(1, 200):
        t0 = time.time()
        x = torch.randn(16, 32)
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        record("loss", loss.item())
        if rank == 3 and step == 8:
            record("flush", 1)
        log.info("step %d loss=%.4f step_time=%.3fs", step, loss.item(), time.time() - t0)
        time.sleep(0.2)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
