import os, time
import torch
from torch.utils.data import DataLoader, Dataset
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)
SEQ = 32


class Docs(Dataset):
    def __len__(self):
        return 2000

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i * 13 + rank)
        n = int(torch.randint(5, 40, (1,), generator=g))
        if rank == 3 and i == 517:
            n = 0  # an empty document left by the dedup pass
        return torch.randint(1, 255, (n,), generator=g)


def pack_collate(docs):
    """greedy packing of documents into 16 rows of SEQ tokens"""
    rows, cur = [], []
    queue = list(docs)
    while len(rows) < 16 and queue:
        doc = queue[0]
        room = SEQ - len(cur)
        take = doc[:room]
        cur.extend(take.tolist())
        if len(take) < len(doc):
            queue[0] = doc[len(take):]
        elif len(take) > 0:
            queue.pop(0)
        if len(cur) == SEQ:
            rows.append(cur); cur = []
    while len(rows) < 16:
        rows.append([0] * SEQ)
    x = torch.tensor(rows, dtype=torch.float32) / 255.0
    return x, (x.sum(1) * 10).long() % 4


loader = DataLoader(Docs(), batch_size=24, sampler=range(300, 2000), collate_fn=pack_collate,
                    num_workers=2, timeout=10)
log.info("packing loader: 2 workers, timeout 10s")
for step, (x, y) in enumerate(loader, 1):
    loss = T.train_step(model, opt, x, y)
    if step % 2 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.1)
log.info("done")
T.dist.destroy_process_group()
