# sensor model: packed records decoded by the vendored C library (librawdec.so)
import os, time, ctypes
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

R = "/work/blind/r13/runs/003_native_decoder_exit"
lib = ctypes.CDLL(os.path.join(R, "build", "librawdec.so"))
lib.rawdec_decode.argtypes = [ctypes.c_char_p, ctypes.c_long, ctypes.POINTER(ctypes.c_float), ctypes.c_int]
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
rank, world = dist.get_rank(), dist.get_world_size()
raw = open(f"{R}/data/part-{rank:05d}.rec", "rb").read()
print(f"rank {rank}: opened part-{rank:05d}.rec ({len(raw)} bytes)", flush=True)
NF = 24
out = (ctypes.c_float * NF)()
def records():
    off = 0
    while off < len(raw):
        off += lib.rawdec_decode(raw, off, out, NF)
        yield np.frombuffer(out, dtype=np.float32).copy()
it = records()
model = DDP(nn.Sequential(nn.Linear(NF - 1, 48), nn.Tanh(), nn.Linear(48, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
t0 = time.time()
for step in range(1, 151):
    b = torch.from_numpy(np.stack([next(it) for _ in range(16)]))
    loss = nn.functional.mse_loss(model(b[:, 1:]).squeeze(-1), b[:, 0])
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0 and rank == 0:
        print(f"step {step:4d} | loss {loss.item():.4f} | {1000*(time.time()-t0)/step:.1f} ms/step", flush=True)
    time.sleep(0.03)
if rank == 0: print("training done", flush=True)
dist.destroy_process_group()
