# streaming LM pass over pre-split text shards (one shard per process)
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.multiprocessing as mp
import torch.nn as nn

SHARD_DIR = sys.argv[1]
VOCAB = 128

def encode(line):
    return [min(ord(c), VOCAB - 1) for c in line.strip()][:32] or [0]

def lines(path):
    with open(path, "r", encoding="utf-8") as f:
        for line in f:
            yield line

def run(rank, world):
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29652", rank=rank,
                            world_size=world, timeout=timedelta(seconds=15))
    if rank == 0:
        print(f"world={world} shards={sorted(os.listdir(SHARD_DIR))}", flush=True)
    emb = nn.EmbeddingBag(VOCAB, 32); out = nn.Linear(32, VOCAB)
    model = nn.parallel.DistributedDataParallel(nn.ModuleDict({"emb": emb, "out": out}))
    params = list(model.parameters())
    opt = torch.optim.SGD(params, lr=0.1)
    batch = []
    step = 0
    for line in lines(os.path.join(SHARD_DIR, f"part-{rank:05d}.txt")):
        batch.append(torch.tensor(encode(line)))
        if len(batch) < 8:
            continue
        offs = torch.tensor([0] + [len(t) for t in batch[:-1]]).cumsum(0)
        h = model.module["emb"](torch.cat(batch), offs)
        tgt = torch.tensor([int(t[0]) for t in batch])
        loss = nn.functional.cross_entropy(model.module["out"](h), tgt)
        opt.zero_grad(); loss.backward()
        for p in params:
            dist.all_reduce(p.grad); p.grad /= world
        opt.step(); step += 1; batch = []
        if rank == 0 and step % 5 == 0:
            print(f"step {step} loss {loss.item():.3f}", flush=True)
        time.sleep(0.05)
    print("pass complete", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(run, args=(3,), nprocs=3, join=True)
