#!/usr/bin/env python3
"""Launch the trainer with torch.multiprocessing.spawn (single node)."""
import os, sys
import torch.multiprocessing as mp
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train

def worker(rank, world, argv):
    train.main(argv, rank=rank, world=world)

if __name__ == "__main__":
    world = int(os.environ.get("NPROCS", "2"))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    mp.spawn(worker, args=(world, sys.argv[1:]), nprocs=world, join=True)
