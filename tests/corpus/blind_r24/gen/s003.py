# 003: plain DDP-style loop, JSON-lines logs; used with two torchrun agents (nodes).
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("json")
    log.info("worker started", world_size=world, local_rank=lib.LOCAL_RANK,
             restart=int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0)))
    m = lib.model(hidden=128)
    opt = torch.optim.SGD(m.parameters(), lr=0.02)
    for step in range(1, 61):
        t0 = time.time()
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        time.sleep(0.25)
        log.info("train_step", step=step, loss=round(loss.item(), 5), step_time=round(time.time() - t0, 3))
    log.info("training complete")

if __name__ == "__main__":
    main()
