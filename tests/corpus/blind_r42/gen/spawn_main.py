#!/usr/bin/env python3
"""mp.spawn launcher for train.py: python spawn_main.py WORLD PORT [train.py args...]"""
import os
import sys

import torch.multiprocessing as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402


def worker(rank, argv, world):
    train.main(argv, rank=rank, world=world)


if __name__ == "__main__":
    world, port = int(sys.argv[1]), sys.argv[2]
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = port
    print(f"launching {world} workers with mp.spawn (master 127.0.0.1:{port})", flush=True)
    mp.spawn(worker, args=(sys.argv[3:], world), nprocs=world, join=True)
    print("all workers finished", flush=True)
