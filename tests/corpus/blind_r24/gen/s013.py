# 013: a native image decoder (ctypes) crashes on a malformed record in rank 3's shard, inside a
# DataLoader worker; the main process sees the worker killed by SIGSEGV.
import ctypes, os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.utils.data import Dataset, DataLoader
from torch.distributed.elastic.multiprocessing.errors import record

class Images(Dataset):
    def __init__(self, rank): self.rank = rank
    def __len__(self): return 2000
    def decode(self, i):
        out_ptr = 0 if (self.rank == 3 and i == 1337) else None    # record 1337 has a zero-length header
        if out_ptr is not None:
            ctypes.memmove(out_ptr, b"\x00" * 64, 64)                # native decoder writes through it
        g = torch.Generator().manual_seed(i)
        return torch.randn(32, generator=g)
    def __getitem__(self, i):
        x = self.decode(i)
        return x, x.sum().unsqueeze(0) * 0.1

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    ds = Images(rank)
    idx = list(range(1300, 2000))
    dl = DataLoader(torch.utils.data.Subset(ds, idx), batch_size=8, num_workers=2)
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    log.info(f"dataloader ready: {len(dl)} batches, 2 workers")
    for step, (x, y) in enumerate(dl, 1):
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        log.info(f"step {step} loss {loss.item():.4f}")
        time.sleep(0.15)
    log.info("done")

if __name__ == "__main__":
    main()
