import os, time, warnings
from datetime import timedelta
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn as nn

def run(rank, world):
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29751", rank=rank, world_size=world,
                            timeout=timedelta(seconds=15))
    net = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
    m = nn.parallel.DistributedDataParallel(net, find_unused_parameters=True)
    o = torch.optim.SGD(m.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(o, 10)
    sched.step()                                  # called before optimizer.step(): warns
    ref = torch.ones(3); t = torch.tensor(ref)    # copy-construct warning
    if rank == 0:
        print("WARNING: gradient overflow detected in warm-up, skipping step (loss scale 65536 -> 32768)", flush=True)
    for s in range(1, 31):
        l = m(torch.randn(4, 8)).pow(2).mean(); o.zero_grad(); l.backward(); o.step(); sched.step()
        if rank == 0 and s % 10 == 0:
            print(f"it {s:03d}  loss={l.item():.4f}  lr={sched.get_last_lr()[0]:.4f}", flush=True)
        time.sleep(0.05)
    if rank == 0: print("training complete", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(run, args=(2,), nprocs=2)
