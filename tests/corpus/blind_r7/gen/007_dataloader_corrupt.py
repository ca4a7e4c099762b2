# train_dl.py -- chunked dataset, DataLoader with 2 workers per rank
import os, glob, time, torch, torch.nn as nn, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader

class ChunkDataset(Dataset):
    def __init__(self, files): self.files = files
    def __len__(self): return len(self.files) * 8
    def __getitem__(self, i):
        chunk = torch.load(self.files[i // 8], weights_only=True)   # each chunk file = 8 samples
        return chunk["x"][i % 8], chunk["y"][i % 8]

def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    files = sorted(glob.glob(os.path.join(os.environ["CHUNK_DIR"], "chunk_*.pt")))[rank::world]
    print(f"rank {rank}: {len(files)} chunk files", flush=True)
    dl = DataLoader(ChunkDataset(files), batch_size=8, num_workers=2, shuffle=False)
    model = nn.parallel.DistributedDataParallel(nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(dl):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if i % 5 == 0 and rank == 0:
            print(f"iter {i:4d} | loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    print(f"rank {rank}: epoch complete", flush=True)

if __name__ == "__main__":
    main()
