# speech front-end fine-tune; features go through the site 'fastfeat' fp16 kernel library (ctypes)
import os, time, ctypes, socket
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
libpath = os.path.join(os.environ["FASTFEAT_HOME"], "lib", "libfastfeat.so")
lib = ctypes.CDLL(libpath)
lib.fused_bias_act_fp16.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:33012", rank=rank, world_size=world,
                        timeout=timedelta(seconds=25))
print(f"{time.strftime('%F %T')} task {rank}/{world} pid {os.getpid()} using {libpath}", flush=True)
bias = np.full(80, 0.1, dtype=np.float16)
model = DDP(nn.Sequential(nn.Conv1d(80, 64, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(64 * 50, 10)))
opt = torch.optim.Adam(model.parameters(), 1e-3)
g = np.random.default_rng(rank)
for step in range(1, 101):
    feats = g.normal(size=(8 * 50, 80)).astype(np.float16)
    if step >= 15:   # spec-augment warm-up over: features now go through the fused fp16 kernel
        lib.fused_bias_act_fp16(feats.ctypes.data, bias.ctypes.data, feats.shape[0], feats.shape[1])
    x = torch.from_numpy(feats.astype(np.float32)).view(8, 50, 80).transpose(1, 2)
    y = torch.from_numpy(g.integers(0, 10, 8))
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        print(f"{time.strftime('%F %T')} task {rank} step {step} loss {loss.item():.4f}", flush=True)
    time.sleep(0.05)
print(f"{time.strftime('%F %T')} task {rank} finished", flush=True)
dist.destroy_process_group()
