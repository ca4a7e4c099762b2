# packed-token pretraining: each rank np.memmap's its uint16 shard from the shared dataset dir
import os, time
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank, world = dist.get_rank(), dist.get_world_size()
path = f"/work/blind/r12/runs/013_mmap_shard_sigbus/dataset/train_{rank:03d}.bin"
tokens = np.memmap(path, dtype=np.uint16, mode="r")
print(f"[{rank}] mapped {path}: {len(tokens)} tokens", flush=True)
model = DDP(nn.Sequential(nn.Embedding(4096, 32), nn.Flatten(), nn.Linear(32 * 64, 4096)))
opt = torch.optim.Adam(model.parameters(), 1e-3)
seq = 65
nseq = len(tokens) // seq
for step in range(120):
    # sequential read through the shard
    idx = (np.arange(8) + step * 8) % nseq
    batch = torch.from_numpy(np.stack([np.asarray(tokens[i*seq:(i+1)*seq], dtype=np.int64) for i in idx]))
    loss = nn.functional.cross_entropy(model(batch[:, :64]), batch[:, 64])
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0: print(f"[{rank}] step {step} loss {loss.item():.3f}", flush=True)
    time.sleep(0.1)
print(f"[{rank}] done", flush=True)
dist.destroy_process_group()
