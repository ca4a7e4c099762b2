#!/usr/bin/env python3
"""torch.multiprocessing.spawn trainer. argv: WORLD PORT MODE CULPRIT"""
import datetime, os, sys, time, warnings
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn as nn


def worker(rank, world, port, mode, culprit):
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=20))
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 4)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    emb = nn.Embedding(100, 8)
    for step in range(15):
        ids = torch.randint(0, 100, (32,))
        if mode == "index" and rank == culprit and step == 6:
            ids[3] = 100 + rank  # out-of-vocab token id produced by a bad tokenizer config
        if mode == "warn" and step == 2:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.")
        x = emb(ids).detach()
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            print(f"[worker {rank}] step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.barrier()
    print(f"[worker {rank}] done", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    world, port, mode, culprit = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    print(f"spawning {world} workers", flush=True)
    mp.spawn(worker, args=(world, port, mode, culprit), nprocs=world, join=True)
    print("all workers finished", flush=True)
