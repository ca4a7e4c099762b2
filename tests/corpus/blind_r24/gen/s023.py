# 023: long pretraining run launched as srun -> torchrun (2 nodes x 2 procs); cancelled by scancel.
import os, signal, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    m = lib.model(hidden=128); opt = torch.optim.SGD(m.parameters(), lr=0.01)
    for step in range(1, 5001):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 20 == 0:
            log.info(f"step {step} loss {loss.item():.4f}")
        if step % 200 == 0 and rank == 0:
            log.info(f"saved checkpoint step {step}")
        time.sleep(0.05)

if __name__ == "__main__":
    main()
