# Ordinary DDP trainer. It never starts: a stale process from an earlier job
# (started by the .sh) still listens on MASTER_PORT 29513, so torchrun's
# TCPStore server cannot bind it (EADDRINUSE).
import os, time, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    model = DDP(nn.Linear(8, 8))
    for step in range(5):
        model(torch.randn(4, 8)).sum().backward()
        print(f"step {step}", flush=True)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
