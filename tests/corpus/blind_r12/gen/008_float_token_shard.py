# small transformer-ish LM; each rank memory-loads its pre-tokenized .npy shard
import os, time
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank, world = dist.get_rank(), dist.get_world_size()
if rank == 0:
    os.makedirs("tok", exist_ok=True)
    rng = np.random.default_rng(0)
    for r in range(world):
        a = rng.integers(0, 500, size=(256, 33))
        # shard 2 was re-tokenized by the new pipeline, which pads with NaN then saves as float32
        if r == 2: a = a.astype(np.float32)
        np.save(f"tok/shard_{r}.npy", a)
dist.barrier()

class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(500, 64); self.mix = nn.GRU(64, 64, batch_first=True); self.out = nn.Linear(64, 500)
    def forward(self, x): return self.out(self.mix(self.emb(x))[0])

data = torch.from_numpy(np.load(f"tok/shard_{rank}.npy"))
print(f"loaded tok/shard_{rank}.npy shape={tuple(data.shape)}", flush=True)
model = DDP(LM()); opt = torch.optim.Adam(model.parameters(), 3e-4)
for step in range(16):
    b = data[step*16:(step+1)*16]
    logits = model(b[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 500), b[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"step {step} loss {loss.item():.3f}", flush=True)
print("done", flush=True)
dist.destroy_process_group()
