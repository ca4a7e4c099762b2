# Fine-tune a tiny classifier on "reviews" JSON records; one record in the
# corpus is missing its "label" field. The custom collate_fn indexes
# s["label"] and raises KeyError inside a DataLoader worker. With
# DistributedSampler(shuffle=False) record index i goes to rank i % world.
import os, time, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader, DistributedSampler
from torch.nn.parallel import DistributedDataParallel as DDP

BAD_INDEX = 1 + 3 * 4 * 7   # lands on rank 1 (world 3), batch 7 of rank 1

class Reviews(Dataset):
    def __init__(self, n=600):
        g = torch.Generator().manual_seed(0)
        self.recs = []
        for i in range(n):
            rec = {"id": f"rv-{i:05d}", "tokens": torch.randint(0, 500, (16,), generator=g).tolist(),
                   "label": int(torch.randint(0, 3, (1,), generator=g))}
            if i == BAD_INDEX:
                del rec["label"]          # corrupt record from the scraper
                rec["lable"] = 2
            self.recs.append(rec)
    def __len__(self): return len(self.recs)
    def __getitem__(self, i): return self.recs[i]

def collate(batch):
    toks = torch.tensor([s["tokens"] for s in batch])
    labels = torch.tensor([s["label"] for s in batch])
    return toks, labels

class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(500, 32)
        self.head = nn.Linear(32, 3)
    def forward(self, x): return self.head(self.emb(x))

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    ds = Reviews()
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
    dl = DataLoader(ds, batch_size=4, sampler=sampler, collate_fn=collate, num_workers=1)
    model = DDP(Clf())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    print(f"[rank {rank}] {len(ds)} records, {len(dl)} batches/epoch", flush=True)
    for step, (x, y) in enumerate(dl):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"[rank {rank}] step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.3)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
