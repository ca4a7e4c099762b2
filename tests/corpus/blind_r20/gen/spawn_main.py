import os, sys, runpy
import torch.multiprocessing as mp

def worker(i, world):
    os.environ.update(RANK=str(i), LOCAL_RANK=str(i), WORLD_SIZE=str(world))
    sys.argv = ["train.py"]
    g = runpy.run_path("/work/blind/r20/gen/train.py", run_name="trainmod")
    g["main"]()

if __name__ == "__main__":
    world = int(sys.argv[1])
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    print(f"spawning {world} workers (master {os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']})", flush=True)
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
