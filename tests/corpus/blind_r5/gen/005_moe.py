import os, sys, torch, torch.distributed as dist
import torch.multiprocessing as mp
from datetime import timedelta
def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29615"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=12))
    n_experts = 8
    # expert-count config was read from a stale yaml on one worker
    if rank == 2: n_experts = 6
    router = torch.nn.Linear(32, n_experts)
    for step in range(10):
        logits = router(torch.randn(16, 32))
        load = torch.softmax(logits, -1).sum(0).detach()
        dist.all_reduce(load)   # global expert load for balancing loss
        aux = (load / load.sum()).pow(2).sum() * n_experts
        print(f"step {step} aux_loss {aux.item():.4f}", flush=True)
    dist.destroy_process_group()
if __name__ == "__main__":
    mp.spawn(worker, args=(4,), nprocs=4)
