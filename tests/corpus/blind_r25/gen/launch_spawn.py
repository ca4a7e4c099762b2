"""In-house launcher: python launch_spawn.py --config cfg.toml  (NPROC ranks via torch.multiprocessing.spawn)."""
import os
import sys

import torch.multiprocessing as mp


def worker(rank, world, argv):
    os.environ.update(RANK=str(rank), WORLD_SIZE=str(world), LOCAL_RANK=str(rank))
    sys.argv = ["tinylm.train"] + argv
    from tinylm.train import _entry
    _entry()


if __name__ == "__main__":
    world = int(os.environ.get("NPROC", "4"))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    mp.spawn(worker, args=(world, sys.argv[1:]), nprocs=world, join=True)
