# document-level dataset: each sample is a list of variable-length segment tensors; collated as lists
import os, time, logging, sys
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.utils.data import Dataset, DataLoader

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format=f"%(asctime)s host=%(process)d r{rank} %(levelname)s: %(message)s")
log = logging.getLogger()

class Docs(Dataset):
    def __init__(self, rank):
        g = torch.Generator().manual_seed(rank)
        # rank 1's shard is the legal-contracts subset: very long documents -> many segments
        self.nseg = torch.randint(2, 8, (400,), generator=g) if rank != 1 else torch.randint(150, 300, (400,), generator=g)
    def __len__(self): return 400
    def __getitem__(self, i):
        return [torch.randn(16) for _ in range(int(self.nseg[i]))]

def collate(batch): return batch

def main():
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:32109", rank=rank, world_size=world,
                            timeout=timedelta(seconds=15))
    dl = DataLoader(Docs(rank), batch_size=8, num_workers=2, collate_fn=collate)
    model = nn.Linear(16, 1); opt = torch.optim.SGD(model.parameters(), 0.01)
    log.info("dataloader ready, %d batches", len(dl))
    for step, docs in enumerate(dl):
        x = torch.stack([seg.mean(0) if False else torch.stack(d).mean(0) for d in docs for seg in [None]])
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if step % 10 == 0: log.info("step %d loss %.5f", step, loss.item())
    log.info("epoch done")
    dist.destroy_process_group()

main()
