"""mp.spawn launcher: python spawn_launch.py NPROCS"""
import os, sys
import torch.multiprocessing as mp
sys.path.insert(0, os.path.dirname(__file__))


def worker(local_rank, world):
    os.environ["RANK"] = str(local_rank)
    os.environ["LOCAL_RANK"] = str(local_rank)
    os.environ["WORLD_SIZE"] = str(world)
    import train
    train.main()


if __name__ == "__main__":
    world = int(sys.argv[1])
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    print(f"spawning {world} workers, master {os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}", flush=True)
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
