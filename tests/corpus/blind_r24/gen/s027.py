# 027 (healthy): two-node run with tqdm on each node's local rank 0 and a couple of benign warnings.
import os, sys, time, warnings, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from tqdm import tqdm
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=30)
    if lib.LOCAL_RANK == 0:
        print(f"node {os.environ.get('GROUP_RANK')} up: ranks {rank}..{rank + int(os.environ['LOCAL_WORLD_SIZE']) - 1} of {world}", flush=True)
    m = lib.model(hidden=96); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    sched = torch.optim.lr_scheduler.StepLR(opt, 20)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        sched.step()   # UserWarning: lr_scheduler.step() before optimizer.step()
    bar = tqdm(range(1, 61), desc="epoch 1", disable=lib.LOCAL_RANK != 0, mininterval=0.5)
    for step in bar:
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step(); sched.step()
        bar.set_postfix(loss=f"{loss.item():.4f}", lr=f"{sched.get_last_lr()[0]:.4f}")
        time.sleep(0.1)
    bar.close()
    if rank == 0:
        print("epoch 1 finished, final loss %.4f" % loss.item(), flush=True)

if __name__ == "__main__":
    main()
