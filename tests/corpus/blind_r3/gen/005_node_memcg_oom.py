# 2 "nodes" x 2 ranks, two torchrun agents (static rendezvous). The node-1
# agent runs inside a memory cgroup (1.4 GB limit, like a container limit).
# Rank 3 keeps a debug cache of activations that is never cleared (a leak),
# so the kernel memcg OOM killer SIGKILLs rank 3. The other ranks lose their
# peer in the next all-reduce.
import os, time, datetime, resource, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"): return int(line.split()[1]) // 1024
    return -1

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank = dist.get_rank(); node = int(os.environ["GROUP_RANK"]); lr = int(os.environ["LOCAL_RANK"])
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.Linear(512, 256)))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    debug_cache = []   # "keep activations for the probe" -- never cleared
    g = torch.Generator().manual_seed(rank)
    for step in range(60):
        x = torch.randn(64, 256, generator=g)
        y = model(x)
        loss = (y - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 3:
            debug_cache.append(torch.randn(16, 1024, 1024))  # 64 MB/step
        print(f"node{node}/local{lr} rank={rank} step={step} loss={loss.item():.4f} rss={rss_mb()}MB", flush=True)
        time.sleep(0.25)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
