# torch.multiprocessing.spawn, 3 ranks, each with a DataLoader (2 workers) reading its shard
# through np.memmap. While the job runs, a preprocessing job rewrites shard_1.bin in place
# (truncate), so rank 1's workers touch unmapped pages -> real SIGBUS in a DataLoader worker.
import os, sys, time, datetime
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.utils.data import Dataset, DataLoader

def logger(rank):
    def log(level, msg, fn="train"):
        ts = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
        print(f"{ts} | {level:<8} | __main__:{fn}:{sys._getframe(1).f_lineno} - {msg}", flush=True)
    return log

class Shard(Dataset):
    def __init__(self, path):
        self.path = path; self.mm = None
        self.n = os.path.getsize(path) // (4 * 64)
    def __len__(self): return self.n
    def __getitem__(self, i):
        if self.mm is None:   # opened lazily inside each worker
            self.mm = np.memmap(self.path, dtype=np.float32, mode="r").reshape(-1, 64)
        time.sleep(0.01)
        return torch.from_numpy(np.array(self.mm[i]))

def worker(rank, world, data_dir, port):
    log = logger(rank)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=30))
    ds = Shard(os.path.join(data_dir, f"shard_{rank}.bin"))
    log("INFO", f"rank{rank}: opened {ds.path} ({len(ds)} rows)")
    dl = DataLoader(ds, batch_size=32, num_workers=2, shuffle=True, persistent_workers=True)
    model = nn.Linear(64, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    step = 0
    for epoch in range(2):
        for xb in dl:
            loss = model(xb).pow(2).mean()
            opt.zero_grad(); loss.backward()
            for p in model.parameters():
                dist.all_reduce(p.grad)
            opt.step(); step += 1
            if step % 10 == 0 and rank == 0:
                log("INFO", f"epoch={epoch} step={step} loss={loss.item():.5f}")
        log("SUCCESS", f"rank{rank}: epoch {epoch} done", fn="worker")
    dist.destroy_process_group()

if __name__ == "__main__":
    data_dir = sys.argv[1]
    mp.spawn(worker, args=(3, data_dir, 29703), nprocs=3, join=True)
