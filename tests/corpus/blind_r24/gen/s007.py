# 007: lock-order inversion between the main thread and a prefetch thread on the rank whose shard
# ends first (rank 2); the other ranks wait in all_reduce until gloo times out.
# A stall watchdog dumps Python stacks and a Flight Recorder trace on every rank.
import os, pickle, sys, threading, time, collections, faulthandler, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
import torch._C._distributed_c10d as c10d_C
from torch.distributed.elastic.multiprocessing.errors import record

SHARD_LEN = {0: 40, 1: 37, 2: 9, 3: 52}   # batches per shard file, per rank

class Prefetcher(threading.Thread):
    def __init__(self, rank, stats, stats_lock):
        super().__init__(name="prefetch", daemon=True)
        self.rank, self.stats, self.stats_lock = rank, stats, stats_lock
        self.buf, self.buf_lock, self.need = collections.deque(), threading.Lock(), threading.Event()
        self.step, self.shard = 0, 0
        self.need.set()
    def run(self):
        while True:
            self.need.wait(); self.need.clear()
            with self.buf_lock:
                time.sleep(0.05)                       # open next shard
                for _ in range(SHARD_LEN[self.rank]):
                    self.step += 1
                    self.buf.append(lib.batch(self.step + 100 * self.shard, self.rank))
                with self.stats_lock:                  # record shard stats
                    self.stats["shards"] += 1
                self.shard += 1
    def get(self, stats_lock):
        while True:
            with stats_lock:                          # main thread: stats then buffer
                self.stats["seen"] += 1
                if not self.buf:
                    self.need.set(); time.sleep(0.02)
                with self.buf_lock:
                    if self.buf:
                        return self.buf.popleft()
            time.sleep(0.01)

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    last = [time.time()]
    def dump_fr():
        p = os.environ["TORCH_FR_DUMP_TEMP_FILE"] + str(rank)
        with open(p, "wb") as f: f.write(c10d_C._dump_fr_trace())
        log.warning(f"flight recorder trace written to {p}")
    def watchdog():
        while True:
            time.sleep(1)
            if time.time() - last[0] > 12:
                log.warning(f"no step completed for {time.time()-last[0]:.0f}s, dumping stacks")
                faulthandler.dump_traceback(all_threads=True); sys.stderr.flush()
                dump_fr(); return
    threading.Thread(target=watchdog, name="stall-watchdog", daemon=True).start()
    stats, stats_lock = {"seen": 0, "shards": 0}, threading.Lock()
    pf = Prefetcher(rank, stats, stats_lock); pf.start()
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    for step in range(1, 41):
        x, y = pf.get(stats_lock)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        last[0] = time.time()
        log.info(f"step {step} loss {loss.item():.4f} shards_read {stats['shards']}")
        time.sleep(0.15)
    log.info("done")

if __name__ == "__main__":
    main()
