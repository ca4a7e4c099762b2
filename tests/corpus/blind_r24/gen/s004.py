# 004: training script that needs the fused_ops extension; node 1's PYTHONPATH has a stale build.
import os, sys, time, logging
sys.path.insert(0, os.path.dirname(__file__))
import torch
import lib
import fused_ops
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    log = lib.Log("logging_norank", name="trainer")
    log.info(f"fused_ops {fused_ops.version()} loaded, torch {torch.__version__}")
    rank, world = lib.init(timeout=30)
    log.info(f"process group ready: rank {rank}/{world}")
    m = lib.model(hidden=96); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    for step in range(1, 41):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 5 == 0:
            log.info(f"step {step} loss {loss.item():.4f}")
        time.sleep(0.2)
    log.info("done")

if __name__ == "__main__":
    main()
