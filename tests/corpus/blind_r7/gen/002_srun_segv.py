# train_tok.py -- packed token file read through a ctypes "fast" reader inside DataLoader workers
import os, sys, ctypes, time, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")

class PackedTokens(Dataset):
    """Reads fixed-size records from a packed buffer using raw pointers (fast path)."""
    def __init__(self, n, corrupt_at=None):
        self.n = n
        self.buf = (ctypes.c_int32 * (n * 64))()
        self.offsets = [i * 64 * 4 for i in range(n)]
        if corrupt_at is not None:
            self.offsets[corrupt_at] = 0x7ffffff00000  # bad index entry in this rank's shard
    def __len__(self): return self.n
    def __getitem__(self, i):
        base = ctypes.addressof(self.buf) if self.offsets[i] < 2**30 else 0
        raw = ctypes.string_at(base + self.offsets[i], 256)
        return (torch.frombuffer(bytearray(raw), dtype=torch.int32) % 1000).long()

def main():
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=60))
    print(f"initialized rank {rank}/{world} on {os.uname().nodename}", flush=True)
    ds = PackedTokens(800, corrupt_at=301 if rank == 1 else None)
    dl = DataLoader(ds, batch_size=4, num_workers=2)
    emb = nn.Embedding(1000, 32); head = nn.Linear(32, 1000)
    params = list(emb.parameters()) + list(head.parameters())
    opt = torch.optim.Adam(params, lr=1e-3)
    for step, toks in enumerate(dl):
        logits = head(emb(toks[:, :-1]))
        loss = nn.functional.cross_entropy(logits.reshape(-1, 1000), toks[:, 1:].reshape(-1))
        opt.zero_grad(); loss.backward()
        for p in params:
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.3f}", flush=True)
        time.sleep(0.05)
    print("training finished", flush=True)

if __name__ == "__main__":
    main()
