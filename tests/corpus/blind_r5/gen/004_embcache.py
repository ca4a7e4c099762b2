import os, resource, torch, torch.distributed as dist
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=12))
rank, world = dist.get_rank(), dist.get_world_size()
# container memory limit on this host (simulated with RLIMIT_AS on the first worker's host slot)
if rank == 0:
    vm = int([l for l in open("/proc/self/status") if l.startswith("VmSize")][0].split()[1]) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (vm + 400 * 2**20, vm + 400 * 2**20))
model = torch.nn.Embedding(5000, 64)
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
print(f"rank {rank}/{world}: model ready", flush=True)
for step in range(12):
    idx = torch.randint(0, 5000, (64,))
    loss = ddp(idx).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"rank {rank} step {step} loss {loss.item():.5f}", flush=True)
    if step == 4:
        print(f"rank {rank}: building retrieval cache for eval", flush=True)
        cache = torch.empty(600_000, 1024, dtype=torch.float32)  # ~2.4 GB
        cache.zero_()
dist.destroy_process_group()
