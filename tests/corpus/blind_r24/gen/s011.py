# 011: rank 5 reads its shards from a degrading network mount: its data-loading time doubles every
# step until one step exceeds the collective timeout; everyone else just waits for it.
import logging, os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=20)
    os.makedirs(os.environ["APP_LOG_DIR"], exist_ok=True)
    fh = logging.FileHandler(os.path.join(os.environ["APP_LOG_DIR"], f"train_rank{rank}.log"))
    fh.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logging.getLogger().addHandler(fh); logging.getLogger().setLevel(logging.INFO)
    lg = logging.getLogger("train")
    lg.info(f"rank {rank}/{world} host {lib.HOST} data=/mnt/datasets/pile/shard_{rank:02d}")
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    for step in range(1, 41):
        t0 = time.time()
        if rank == 5 and step > 5:
            time.sleep(0.1 * 2 ** (step - 5))   # read latency on this node's mount keeps growing
        x, y = lib.batch(step, rank)
        t1 = time.time()
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        t2 = time.time()
        time.sleep(0.1)
        lg.info(f"step {step} loss {loss.item():.4f} data_time {t1-t0:.3f}s fwd_bwd_comm {t2-t1:.3f}s")
    lg.info("done")

if __name__ == "__main__":
    main()
