"""mp.spawn launcher for train.py: spawn.py WORLD PORT [train.py args...]"""
import os, runpy, sys
import torch.multiprocessing as mp


def run(i, world, argv):
    os.environ.update(RANK=str(i), WORLD_SIZE=str(world), LOCAL_RANK=str(i))
    sys.argv = ["train.py"] + argv
    runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "train.py"), run_name="__main__")


if __name__ == "__main__":
    world = int(sys.argv[1])
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ["MASTER_PORT"] = sys.argv[2]
    mp.spawn(run, args=(world, sys.argv[3:]), nprocs=world)
