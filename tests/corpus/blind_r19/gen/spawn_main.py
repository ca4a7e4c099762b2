import os
import sys
import torch.multiprocessing as mp
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train


def worker(rank, world, args):
    os.environ["RANK"] = str(rank)
    os.environ["LOCAL_RANK"] = str(rank)
    os.environ["WORLD_SIZE"] = str(world)
    train.main(rank, world, args)


if __name__ == "__main__":
    world = int(os.environ.get("NPROCS", "2"))
    args = train.parse()
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    print(f"spawning {world} processes (mp.spawn, start_method=spawn)", flush=True)
    mp.spawn(worker, args=(world, args), nprocs=world, join=True)
