# fine-tune from a pretrained encoder that is checked into the repo with git-lfs
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

dist.init_process_group("gloo", timeout=timedelta(seconds=15))
rank, world = dist.get_rank(), dist.get_world_size()
enc = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64))
head = nn.Linear(64, 5)
print(f"rank {rank}: model built, {sum(p.numel() for p in enc.parameters())} encoder params", flush=True)
if rank == 0:
    print("rank 0: loading pretrained encoder from assets/encoder-v3.pt", flush=True)
    sd = torch.load("assets/encoder-v3.pt", map_location="cpu")
    enc.load_state_dict(sd)
    print("rank 0: pretrained weights loaded", flush=True)
for p in list(enc.parameters()) + list(head.parameters()):
    dist.broadcast(p.data, src=0)
print(f"rank {rank}: weights synced", flush=True)
opt = torch.optim.Adam(list(enc.parameters()) + list(head.parameters()), lr=1e-4)
for step in range(30):
    x = torch.randn(16, 32); y = torch.randint(0, 5, (16,))
    loss = nn.functional.cross_entropy(head(enc(x)), y)
    opt.zero_grad(); loss.backward()
    for p in list(enc.parameters()) + list(head.parameters()):
        dist.all_reduce(p.grad); p.grad /= world
    opt.step()
    if step % 10 == 0: print(f"rank {rank}: step {step} loss {loss.item():.4f}", flush=True)
dist.destroy_process_group()
