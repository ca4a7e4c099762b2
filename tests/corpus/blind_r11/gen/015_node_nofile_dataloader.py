# Speech-style model: variable-length feature sequences, bucketed and padded in the main process.
# DataLoader workers hand back per-utterance tensors (no collation in the worker).
import os, sys, time, socket
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import Dataset, DataLoader

rank = int(os.environ["RANK"]); host = os.environ.get("NODE_NAME", socket.gethostname())
def out(msg): print(f"[{host}:{rank}] {time.strftime('%H:%M:%S')} {msg}", flush=True)

class Utterances(Dataset):
    def __len__(self): return 100000
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        n = int(torch.randint(20, 80, (1,), generator=g))
        return torch.randn(n, 20, generator=g), torch.randint(0, 30, (1,), generator=g)

def keep_list(batch): return batch          # bucketing/padding happens in the trainer

def pad(batch):
    L = max(f.size(0) for f, _ in batch)
    x = torch.zeros(len(batch), L, 20)
    for i, (f, _) in enumerate(batch): x[i, :f.size(0)] = f
    return x, torch.cat([y for _, y in batch])

class Model(nn.Module):
    def __init__(self):
        super().__init__(); self.rnn = nn.GRU(20, 48, batch_first=True); self.out = nn.Linear(48, 30)
    def forward(self, x): return self.out(self.rnn(x)[0].mean(1))

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    import resource
    out(f"started; RLIMIT_NOFILE={resource.getrlimit(resource.RLIMIT_NOFILE)} sharing={torch.multiprocessing.get_sharing_strategy()}")
    dl = DataLoader(Utterances(), batch_size=48, num_workers=2, collate_fn=keep_list, prefetch_factor=2)
    model = DDP(Model()); opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, batch in enumerate(dl, 1):
        x, y = pad(batch)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0: out(f"step {step} loss {loss.item():.3f}")
        if step == 80: break
    out("done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
