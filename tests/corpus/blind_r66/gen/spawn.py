# mp.spawn launcher for train.py
import sys, os
sys.path.insert(0, os.path.dirname(__file__))
import torch.multiprocessing as mp
import train
def worker(rank, world):
    train.main(rank, world)
if __name__ == "__main__":
    n = int(sys.argv[1])
    mp.spawn(worker, args=(n,), nprocs=n, join=True)
