"""Launch train.py's loop with torch.multiprocessing.spawn (no torchrun)."""
import os
import sys

import torch.multiprocessing as mp

sys.path.insert(0, os.path.dirname(__file__))
import train as T  # noqa: E402


def worker(rank, world, argv):
    args = T.get_args(argv)
    T.train(args, rank, world, rank)


if __name__ == "__main__":
    world = int(os.environ.get("NPROCS", "4"))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    print(f"spawning {world} workers, master {os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}", flush=True)
    mp.spawn(worker, args=(world, sys.argv[1:]), nprocs=world, join=True)
    print("all workers finished", flush=True)
