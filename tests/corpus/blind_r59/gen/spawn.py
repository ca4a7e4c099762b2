import os, sys
sys.path.insert(0, os.path.dirname(__file__))
import torch.multiprocessing as mp
import w

def entry(rank):
    w.main(spawn_rank=rank)

if __name__ == "__main__":
    n = int(sys.argv[1])
    os.environ["WORLD_SIZE"] = str(n)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", sys.argv[2] if len(sys.argv) > 2 else "29800")
    os.environ.setdefault("INIT_METHOD", "tcp://127.0.0.1:" + os.environ["MASTER_PORT"])
    mp.spawn(entry, nprocs=n, join=True)
