# token-packed pretraining: each rank reads <shard>.idx (uint64 offsets, 8 bytes each) + <shard>.bin
import os, sys, time, struct
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

D = "/tmp/r13_010_data"
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
rank = dist.get_rank(); restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
print(f"[rank {rank}] attempt {restart}: reading shard {rank:02d}", flush=True)
idx = open(f"{D}/shard{rank:02d}.idx", "rb")
tokens = np.fromfile(f"{D}/shard{rank:02d}.bin", dtype=np.uint16)
def doc(i):
    idx.seek(8 * i)
    start, end = struct.unpack("<QQ", idx.read(16))
    return tokens[start:end]
model = DDP(nn.Sequential(nn.Embedding(512, 32), nn.Linear(32, 512)))
opt = torch.optim.Adam(model.parameters(), 1e-3)
start = 0
ck = f"{D}/ckpt.pt"
if os.path.exists(ck):
    st = torch.load(ck); model.module.load_state_dict(st["model"]); start = st["step"]
    print(f"[rank {rank}] resumed from step {start}", flush=True)
for step in range(start + 1, 201):
    seqs = [torch.from_numpy(doc((step * 25 + k) % 3000)[:33].astype(np.int64)) for k in range(4)]
    x = torch.stack([torch.nn.functional.pad(s, (0, 33 - len(s))) for s in seqs])
    loss = nn.functional.cross_entropy(model(x[:, :-1]).flatten(0, 1), x[:, 1:].flatten())
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 20 == 0:
        print(f"[rank {rank}] step {step} loss {loss.item():.3f}", flush=True)
        if rank == 0 and step % 40 == 0:
            torch.save({"model": model.module.state_dict(), "step": step}, ck)
            print(f"[rank 0] saved checkpoint at step {step}", flush=True)
    time.sleep(0.02)
print(f"[rank {rank}] done", flush=True)
dist.destroy_process_group()
