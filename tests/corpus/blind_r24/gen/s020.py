# 020: per-class accuracy counts are all_reduced every few steps; the class count is derived from
# each rank's label file, and rank 1's shard contains one extra (unseen elsewhere) label id.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    labels = list(range(1000)) + ([1000] if rank == 1 else [])   # label ids seen in this rank's shard
    num_classes = max(labels) + 1
    log.info(f"num_classes inferred from shard labels: {num_classes}")
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    correct = torch.zeros(num_classes)
    for step in range(1, 31):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        correct[step % num_classes] += 1
        if step % 5 == 0:
            dist.all_reduce(correct)
            log.info(f"step {step} loss {loss.item():.4f} per-class stats synced")
        time.sleep(0.1)
    log.info("done")

if __name__ == "__main__":
    main()
