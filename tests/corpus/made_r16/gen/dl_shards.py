# One process, a DataLoader with one worker whose dataset torch.loads .pt shards; shard 1 was cut to half its size.
import os, torch
from torch.utils.data import DataLoader, Dataset
os.makedirs("shards", exist_ok=True)
for i in range(3):
    torch.save(torch.randn(8, 2048), f"shards/{i}.pt")
p = "shards/1.pt"
with open(p, "r+b") as f:
    f.truncate(os.path.getsize(p) // 2)

class Shards(Dataset):
    def __len__(self):
        return 24
    def __getitem__(self, i):
        return torch.load(f"shards/{i // 8}.pt")[i % 8]

for step, batch in enumerate(DataLoader(Shards(), batch_size=4, num_workers=1)):
    print(f"step {step} batch {tuple(batch.shape)}", flush=True)
