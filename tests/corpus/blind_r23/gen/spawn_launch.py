#!/usr/bin/env python
"""mp.spawn launcher used by a few runs: `spawn_launch.py NPROC PORT -- train args...`"""
import os
import sys

import torch.multiprocessing as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _worker(rank, world, port, argv):
    os.environ.update(RANK=str(rank), WORLD_SIZE=str(world), LOCAL_RANK=str(rank),
                      MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    sys.argv = ["train_lm.py"] + argv
    import train_lm
    train_lm.main()


if __name__ == "__main__":
    n, port = int(sys.argv[1]), int(sys.argv[2])
    argv = sys.argv[sys.argv.index("--") + 1:]
    print(f"spawning {n} workers (master port {port})", flush=True)
    mp.spawn(_worker, args=(n, port, argv), nprocs=n, join=True)
