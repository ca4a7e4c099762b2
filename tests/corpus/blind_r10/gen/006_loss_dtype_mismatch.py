# regression fine-tune on vendor shards; some vendors ship per-sample weights
import os, json, numpy as np, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

def make_shards(n_shards):
    rng = np.random.default_rng(0)
    os.makedirs("shards", exist_ok=True)
    for s in range(n_shards):
        d = {"x": rng.normal(size=(256, 16)).tolist(), "y": rng.normal(size=256).tolist()}
        if s == 1:  # vendor B export carries importance weights
            d["weight"] = rng.uniform(0.5, 1.5, size=256).tolist()
        json.dump(d, open(f"shards/part-{s:05d}.json", "w"))

def load_shard(rank):
    d = json.load(open(f"shards/part-{rank:05d}.json"))
    x = torch.tensor(d["x"], dtype=torch.float32); y = torch.tensor(d["y"], dtype=torch.float32)
    w = torch.from_numpy(np.asarray(d["weight"])) if "weight" in d else torch.ones(len(y))
    return x, y, w

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    if rank == 0:
        make_shards(world)
        print(f"TORCH_DISTRIBUTED_DEBUG={os.environ.get('TORCH_DISTRIBUTED_DEBUG')}", flush=True)
    dist.barrier()
    x, y, w = load_shard(rank)
    model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 1))
    for p in model.parameters():
        dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(16):
        sl = slice((step * 16) % 256, (step * 16) % 256 + 16)
        pred = model(x[sl]).squeeze(-1)
        loss = (w[sl] * (pred - y[sl]) ** 2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if step % 4 == 0:
            avg = loss.detach().clone()
            dist.all_reduce(avg)                   # global mean loss for logging
            if rank == 0:
                print(f"step {step} global_loss {avg.item() / world:.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
