# forum-thread LM pretraining: threads are stored as reply edges and rendered recursively
import os, sys, random, torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp
from datetime import timedelta

sys.setrecursionlimit(10**6)   # some threads are deep; the default 1000 raised RecursionError

def make_threads(n=240, seed=0):
    rnd = random.Random(seed)
    threads = []
    for t in range(n):
        depth = rnd.randint(2, 40)
        if t == 181:            # a bot reply-loop thread scraped last week: every post answers the previous one
            depth = 400_000
        parent = [-1] + list(range(depth - 1))
        threads.append(parent)
    return threads

def render(children, i):
    return f"<p{i % 97}>" + "".join(map(lambda c: render(children, c), children.get(i, ())))

def tokenize(parent):
    children = {}
    for i, p in enumerate(parent):
        if p >= 0:
            children.setdefault(p, []).append(i)
    text = render(children, 0)
    ids = [hash(tok) % 1000 for tok in text.split(">")[:64]]
    return torch.tensor(ids + [0] * (64 - len(ids)))

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "30103"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    threads = make_threads()[rank::world]
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Embedding(1000, 32), nn.Flatten(), nn.Linear(64 * 32, 1000)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(0, len(threads), 4):
        batch = torch.stack([tokenize(p) for p in threads[step:step + 4]])
        logits = model(batch)
        loss = nn.functional.cross_entropy(logits, batch[:, -1])
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 16 == 0:
            print(f"[rank0] step {step // 4} loss={loss.item():.3f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    world = 3
    print(f"spawning {world} workers", flush=True)
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
