import os, time
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "bare")
T.init_pg(rank, world)
model, opt = T.build(rank)
ROWS, D = 4096, 33


class PackedCache(Dataset):
    """samples from the node-local packed cache (float32 rows of 32 features + label), memory-mapped"""
    def __init__(self, path):
        self.path = path
        self.arr = None

    def __len__(self):
        return ROWS

    def __getitem__(self, i):
        if self.arr is None:
            self.arr = np.memmap(self.path, dtype=np.float32, mode="r", shape=(ROWS, D))
        row = torch.from_numpy(np.array(self.arr[i]))
        return row[:32], int(row[32]) % 4


cache = os.path.join(os.environ["CACHE_DIR"], f"packed-{rank}.bin")
loader = DataLoader(PackedCache(cache), batch_size=16, shuffle=True, num_workers=2,
                    generator=torch.Generator().manual_seed(rank))
log.info("packed cache %s (%d rows), 2 loader workers", cache, ROWS)
step = 0
for epoch in range(3):
    for x, y in loader:
        step += 1
        loss = T.train_step(model, opt, x, y)
        if step % 10 == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step, loss)
        time.sleep(0.05)
        if step >= 200:
            break
log.info("done")
T.dist.destroy_process_group()
