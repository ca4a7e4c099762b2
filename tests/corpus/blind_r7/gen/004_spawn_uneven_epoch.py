# train_spawn.py -- mp.spawn launcher, manual sharding of a list of samples
import os, sys, time, datetime, torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp

N_SAMPLES = 1022  # after filtering; not divisible evenly by world*batch

def shard(n, rank, world, bs):
    # manual sharding: contiguous slices; last rank takes the remainder
    per = n // world
    lo = rank * per; hi = n if rank == world - 1 else lo + per
    return [list(range(i, min(i + bs, hi))) for i in range(lo, hi, bs)]

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29804"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=25))
    batches = shard(N_SAMPLES, rank, world, 20)
    print(f"[r{rank}] {len(batches)} batches in my shard", flush=True)
    torch.manual_seed(rank)
    model = nn.Linear(64, 8); opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, b in enumerate(batches):
        x = torch.randn(len(b), 64); y = torch.randn(len(b), 8)
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step()
        if i % 4 == 0 or i == len(batches) - 1:
            print(f"[r{rank}] epoch 0 step {i} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    print(f"[r{rank}] epoch 0 done, waiting for checkpoint barrier", flush=True)
    dist.barrier()
    if rank == 0:
        torch.save(model.state_dict(), "/tmp/r7_004_ckpt.pt"); print("[r0] saved checkpoint", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(3,), nprocs=3, join=True)
