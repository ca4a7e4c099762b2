# intent classifier fine-tune; labels come from an annotation export (labels.tsv)
import os, csv, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.utils.data import Dataset, DataLoader, DistributedSampler

NUM_INTENTS = 10

def write_export(path, n=1024):
    g = torch.Generator().manual_seed(0)
    with open(path, "w") as f:
        w = csv.writer(f, delimiter="\t")
        for i in range(n):
            lab = int(torch.randint(0, NUM_INTENTS, (1,), generator=g))
            if i == 402:  # annotator used the new "escalate" intent id that is not in the label map yet
                lab = 11
            w.writerow([i, lab])

class IntentSet(Dataset):
    def __init__(self, path):
        self.rows = [(int(a), int(b)) for a, b in csv.reader(open(path), delimiter="\t")]
    def __len__(self): return len(self.rows)
    def __getitem__(self, i):
        idx, lab = self.rows[i]
        g = torch.Generator().manual_seed(idx)
        return torch.randn(32, generator=g), lab

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    if rank == 0:
        write_export("labels.tsv")
    dist.barrier()
    ds = IntentSet("labels.tsv")
    sampler = DistributedSampler(ds, shuffle=False)
    dl = DataLoader(ds, batch_size=16, sampler=sampler)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, NUM_INTENTS)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    lossf = nn.CrossEntropyLoss()
    for epoch in range(3):
        sampler.set_epoch(epoch)
        for step, (x, y) in enumerate(dl):
            loss = lossf(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if rank == 0 and step % 4 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
    if rank == 0:
        print("done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
