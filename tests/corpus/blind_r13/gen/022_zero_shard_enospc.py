# ZeRO-1 style: each rank owns 1/world of the optimizer state and writes its own shard at checkpoint
# time; to spare the metadata server, ranks write one after another (rank order, barrier in between)
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", timeout=timedelta(seconds=30))
rank, world = dist.get_rank(), dist.get_world_size()
CKPT = "/tmp/r13_022_ckpt"
model = DDP(nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 256)))
opt = torch.optim.Adam(model.parameters(), 1e-3)
for step in range(1, 81):
    x = torch.randn(32, 256)
    loss = (model(x) - x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0: print(f"rank {rank} | step {step} | loss {loss.item():.4f}", flush=True)
    if step % 40 == 0:
        d = f"{CKPT}/step_{step:06d}"
        os.makedirs(d, exist_ok=True)
        mine = {k: v for i, (k, v) in enumerate(opt.state_dict()["state"].items()) if i % world == rank}
        shard = {"model": model.module.state_dict(), "optim_shard": mine, "step": step}
        for turn in range(world):
            if turn == rank:
                t0 = time.time()
                final = f"{d}/shard_{rank:02d}-of-{world:02d}.pt"
                with open(final + ".tmp", "wb") as f:      # write-then-rename so a torn shard is never 'final'
                    torch.save(shard, f)
                os.replace(final + ".tmp", final)
                print(f"rank {rank} | saved {d}/shard_{rank:02d}-of-{world:02d}.pt in {time.time()-t0:.2f}s", flush=True)
            dist.barrier()
        if rank == 0: print(f"rank 0 | checkpoint step {step} complete", flush=True)
    time.sleep(0.02)
print(f"rank {rank} | finished", flush=True)
dist.destroy_process_group()
