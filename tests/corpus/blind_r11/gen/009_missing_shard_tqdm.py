# Pretraining over numpy token shards listed in an index file; shards are assigned round-robin to ranks.
import os, sys, time
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import IterableDataset, DataLoader
from tqdm import tqdm

class ShardStream(IterableDataset):
    def __init__(self, index_file, rank, world, seq=32):
        root = os.path.dirname(index_file)
        names = [l.strip() for l in open(index_file) if l.strip()]
        self.files = [os.path.join(root, n) for i, n in enumerate(names) if i % world == rank]
        self.seq = seq
    def __iter__(self):
        for f in self.files:
            arr = np.load(f, mmap_mode="r")
            for i in range(0, len(arr) - self.seq - 1, self.seq):
                chunk = torch.from_numpy(np.array(arr[i:i + self.seq + 1], dtype=np.int64))
                yield chunk[:-1], chunk[1:]

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    ds = ShardStream(os.environ["DATA_INDEX"], rank, world)
    if rank == 0:
        print(f"data: {os.environ['DATA_INDEX']} world={world} shards/rank={len(ds.files)}", flush=True)
    dl = DataLoader(ds, batch_size=16)
    model = DDP(nn.Sequential(nn.Embedding(1000, 48), nn.Linear(48, 48), nn.ReLU(), nn.Linear(48, 1000)))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    total = 120
    pbar = tqdm(total=total, desc="train", disable=rank != 0, dynamic_ncols=False, ncols=100)
    for step, (x, y) in enumerate(dl, 1):
        loss = nn.functional.cross_entropy(model(x).reshape(-1, 1000), y.reshape(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        pbar.update(1); pbar.set_postfix(loss=f"{loss.item():.3f}")
        time.sleep(0.08)
        if step >= total: break
    pbar.close()
    if rank == 0: print("finished", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
