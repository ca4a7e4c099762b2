# mp.spawn launcher around train.py's main (r62 runs).
import os, sys
import torch.multiprocessing as mp
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

def worker(local_rank, world):
    os.environ.update(RANK=str(local_rank), WORLD_SIZE=str(world), LOCAL_RANK=str(local_rank))
    import train
    train.main()

if __name__ == "__main__":
    world = int(os.environ.get("NPROCS", "2"))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    print(f"spawning {world} processes (master {os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']})", flush=True)
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
    print("all processes finished", flush=True)
