import os, sys, runpy
import torch.multiprocessing as mp
def worker(rank, world):
    os.environ.update(RANK=str(rank), WORLD_SIZE=str(world), LOCAL_RANK=str(rank))
    sys.argv = ["train.py"]
    runpy.run_path("/work/blind/r21/gen/train.py", run_name="__main__")
if __name__ == "__main__":
    world = int(sys.argv[1])
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    print(f"launching {world} workers with torch.multiprocessing.spawn", flush=True)
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
