# 017: rank 3 keeps every step's activations for a debugging hook (a leak); the job's cgroup memory
# limit is hit and the kernel OOM killer picks rank 3. torchrun restarts once; it happens again.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

def rss_mb():
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    log.info(f"attempt {os.environ.get('TORCHELASTIC_RESTART_COUNT')} started")
    m = lib.model(hidden=256); opt = torch.optim.SGD(m.parameters(), lr=0.01)
    debug_acts = []
    for step in range(1, 81):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if rank == 3:   # activation-stats hook left enabled on this rank
            debug_acts.append(torch.ones(40 * 2**20 // 4))
        if step % 4 == 0:
            log.info(f"step {step} loss {loss.item():.4f} rss_mb {rss_mb():.0f}")
        time.sleep(0.1)
    log.info("done")

if __name__ == "__main__":
    main()
