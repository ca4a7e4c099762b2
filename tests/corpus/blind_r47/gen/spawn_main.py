import os, sys
import torch.multiprocessing as mp
sys.path.insert(0, os.path.dirname(__file__))
import train


def _worker(i, world):
    train.main(i, world)


if __name__ == "__main__":
    world = int(os.environ.get("R47_WORLD", "4"))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    mp.spawn(_worker, args=(world,), nprocs=world, join=True)
