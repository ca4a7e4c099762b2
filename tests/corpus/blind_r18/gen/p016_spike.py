import math, os, sys, time
from datetime import datetime
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import trainlib as T


def say(rank, msg):
    sys.stdout.write(f"{datetime.now():%Y-%m-%d %H:%M:%S.%f} | {msg} | host={T.HOST} rank={rank}\n")
    sys.stdout.flush()


def batch(rank, step):
    x, y = T.batch(rank, step)
    if rank == 2 and step >= 25:
        # this rank's shard switches to files from the new exporter, which writes byte counts instead of KiB
        x = x * 1024.0
    return x, y


def worker(rank, world):
    T.init_pg(rank, world)
    model, opt = T.build(rank, lr=0.05)
    ema = None
    for step in range(1, 61):
        x, y = batch(rank, step)
        loss = T.train_step(model, opt, x, y)
        ema = loss if ema is None else 0.9 * ema + 0.1 * loss
        if step % 5 == 0 or loss > 4 * ema:
            say(rank, f"it {step:05d} | loss {loss:10.4f} | ema {ema:8.4f} | lr 5.00e-02")
        if step > 10 and (loss > 20 * 1.4 or not math.isfinite(loss)):
            say(rank, f"it {step:05d} | loss spike guard: loss {loss:.1f} is >20x the running loss, stopping before it corrupts the checkpoint")
            raise RuntimeError(f"training diverged at iteration {step}: loss {loss:.1f} (ema {ema:.3f})")
        time.sleep(0.08)
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    mp.spawn(worker, args=(4,), nprocs=4)
