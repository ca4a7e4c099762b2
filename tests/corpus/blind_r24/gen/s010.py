# 010: rank 2 forwards a boundary tensor to rank 3 every step (p2p); at step 6 rank 2's micro-batch
# is empty, it logs a warning and skips the send; rank 3 waits in recv, the rest in all_reduce.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=25)
    log = lib.Log("logging_norank", name=f"stage{rank}")
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    for step in range(1, 31):
        x, y = lib.batch(step, rank)
        if rank == 2 and step == 6:
            x = x[:0]; y = y[:0]               # filtered-out micro-batch
        if len(x) == 0:
            log.warning(f"step {step}: empty micro-batch after filtering, skipping forward")
            loss = torch.zeros(())
            for p in m.parameters(): p.grad = torch.zeros_like(p)
        else:
            out = m(x)
            if rank == 2:
                dist.send(out.detach().contiguous(), dst=3)
            if rank == 3:
                boundary = torch.empty(16, 1)
                dist.recv(boundary, src=2)
                out = out + 0.0 * boundary
            loss = torch.nn.functional.mse_loss(out, y)
            opt.zero_grad(); loss.backward()
        lib.allreduce_grads(m); opt.step()
        log.info(f"step {step} loss {loss.item():.4f}")
        time.sleep(0.2)
    log.info("done")

if __name__ == "__main__":
    main()
