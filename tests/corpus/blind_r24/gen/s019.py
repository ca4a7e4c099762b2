# 019: shards of unequal length, no join/drop_last logic: rank 3's shard runs out after 12 batches,
# it finishes its epoch cleanly and exits 0; the others block on their next all_reduce.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

SHARD_BATCHES = {0: 30, 1: 30, 2: 29, 3: 12}

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("prefix")
    n = SHARD_BATCHES[rank]
    log.info(f"shard /data/webtext/train-{rank:05d}-of-00004.bin: {n} batches")
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    for step in range(1, n + 1):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        log.info(f"epoch 0 step {step}/{n} loss {loss.item():.4f}")
        time.sleep(0.15)
    log.info("epoch 0 complete, saving final weights")
    log.info("exiting")

if __name__ == "__main__":
    main()
