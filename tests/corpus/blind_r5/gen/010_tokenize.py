import os, sys, torch, torch.distributed as dist
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=12))
rank, world = dist.get_rank(), dist.get_world_size()
DATA = os.environ["DATA_DIR"]
class ShardDataset(torch.utils.data.Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.lines = [l.rstrip("\n") for l in f]
    def __len__(self): return len(self.lines)
    def __getitem__(self, i):
        ids = [min(ord(c), 255) for c in self.lines[i][:32]]
        return torch.tensor(ids + [0] * (32 - len(ids)))
shard = os.path.join(DATA, f"train-{rank:05d}-of-{world:05d}.txt")
sys.stdout.write(f"loading {shard}\n"); sys.stdout.flush()
ds = ShardDataset(shard)
dl = torch.utils.data.DataLoader(ds, batch_size=4)
emb = torch.nn.EmbeddingBag(256, 16)
ddp = torch.nn.parallel.DistributedDataParallel(emb)
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
for epoch in range(2):
    for b in dl:
        loss = ddp(b).pow(2).mean(); opt.zero_grad(); loss.backward(); opt.step()
    print(f"epoch {epoch} done loss {loss.item():.3f}", flush=True)
dist.destroy_process_group()
