#!/usr/bin/env python3
"""mp.spawn launcher: each rank writes its own file logs/worker-<rank>.txt (no rank prefix inside)."""
import os, sys, runpy
import torch.multiprocessing as mp
def run(r, world, logdir):
    os.environ.update(RANK=str(r), WORLD_SIZE=str(world))
    f = open(os.path.join(logdir, f"worker-{r}.txt"), "w", buffering=1)
    os.dup2(f.fileno(), 1); os.dup2(f.fileno(), 2)
    sys.stdout = os.fdopen(1, "w", buffering=1); sys.stderr = os.fdopen(2, "w", buffering=1)
    sys.argv = ["worker.py"]
    try:
        runpy.run_path(os.path.join(os.path.dirname(__file__), "worker.py"), run_name="__main__")
    except BaseException:
        import traceback; traceback.print_exc(); raise
if __name__ == "__main__":
    world, logdir = int(sys.argv[1]), sys.argv[2]
    os.makedirs(logdir, exist_ok=True)
    mp.spawn(run, args=(world, logdir), nprocs=world)
