"""Train from a per-rank memory-mapped feature shard via DataLoader workers."""
import os, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, reduce_loss

class ShardDS(Dataset):
    def __init__(self, path):
        self.arr = np.memmap(path, dtype=np.float32, mode="r").reshape(-1, 33)
    def __len__(self):
        return self.arr.shape[0]
    def __getitem__(self, i):
        time.sleep(0.01)
        row = np.array(self.arr[i])
        return torch.from_numpy(row[:32]), int(row[32]) % 4

rank, world, log = init()
data_dir = os.environ["DATA_DIR"]
ds = ShardDS(os.path.join(data_dir, f"feats_{rank:02d}.bin"))
log(f"opened shard with {len(ds)} rows")
dl = DataLoader(ds, batch_size=32, num_workers=2, shuffle=False)
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
step = 0
for epoch in range(2):
    for x, y in dl:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log(f"epoch {epoch} step {step} loss={reduce_loss(loss, world):.4f}")
        step += 1
log("done")
dist.destroy_process_group()
