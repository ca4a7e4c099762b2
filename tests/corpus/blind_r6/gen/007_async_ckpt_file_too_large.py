# python -m torch.distributed.run, 4 ranks. Every rank saves its optimizer-state shard through an
# async writer thread (queue + thread, main thread only waits at the next checkpoint).
# The job runs under a file-size limit (ulimit -f, stand-in for a full / over-quota volume).
# Rank 2 owns the embedding shard, its file exceeds the limit -> OSError EFBIG in the writer
# thread (printed by threading.excepthook, no rank prefix); at the next checkpoint rank 2 blocks
# in q.join() forever and the others time out.
import os, time, queue, threading, datetime, logging
import torch, torch.nn as nn, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="%(asctime)s | %(levelname)s | %(name)s | %(message)s")
log = logging.getLogger("ckpt")

class AsyncWriter:
    def __init__(self):
        self.q = queue.Queue()
        self.t = threading.Thread(target=self._run, name="ckpt-writer", daemon=True); self.t.start()
    def _run(self):
        while True:
            state, path = self.q.get()
            tmp = path + ".tmp"
            torch.save(state, tmp)
            os.replace(tmp, path)
            logging.getLogger("ckpt.writer").info("wrote %s (%.1f MB)", path, os.path.getsize(path) / 2**20)
            self.q.task_done()
    def save(self, state, path):
        self.q.join()                      # wait for the previous save before queueing a new one
        self.q.put(({k: v.clone() for k, v in state.items()}, path))

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank, world = dist.get_rank(), dist.get_world_size()
    outdir = os.environ["CKPT_DIR"]
    # rank 2 holds the (big) embedding shard, the others hold small dense shards
    shard = nn.Embedding(12000, 96) if rank == 2 else nn.Linear(256, 256)
    log.info("rank %d owns shard %s with %d params", rank, type(shard).__name__, sum(p.numel() for p in shard.parameters()))
    dense = nn.Linear(96, 96)
    for p in dense.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.Adam(dense.parameters(), lr=1e-3)
    writer = AsyncWriter()
    for step in range(1, 200):
        x = torch.randn(64, 96)
        loss = (dense(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in dense.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step()
        if step % 10 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        if step % 25 == 0:
            state = {f"shard.{k}": v for k, v in shard.state_dict().items()}
            state.update({f"exp_avg.{i}": torch.randn_like(v) for i, v in enumerate(shard.parameters())})
            writer.save(state, os.path.join(outdir, f"step{step:06d}-rank{rank}.pt"))
            log.info("queued async checkpoint for step %d", step)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
