# 002: mp.spawn, 3 ranks. Rank 1 calls a native "fast collate" helper through ctypes
# that dereferences NULL for an empty sample -> SIGSEGV. faulthandler enabled.
# Log style: print with "[worker N]" prefix.
import os, sys, time, ctypes, faulthandler, torch, torch.distributed as dist
import torch.multiprocessing as mp, torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
LIB = os.environ["FASTCOLLATE_SO"]

def worker(rank, world):
    faulthandler.enable()
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="27020")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=25))
    lib = ctypes.CDLL(LIB)
    lib.collate_len.argtypes = [ctypes.c_char_p]
    model = DDP(tiny_model()); opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    print(f"[worker {rank}] ready, world={world}", flush=True)
    for step in range(30):
        sample = b"tok tok tok" if not (rank == 1 and step == 13) else None  # empty record in shard 1
        n = lib.collate_len(sample)
        x, y = batch(step, rank)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"[worker {rank}] step {step} len={n} loss {loss.item():.4f}", flush=True)
        time.sleep(0.15)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(3,), nprocs=3, join=True)
