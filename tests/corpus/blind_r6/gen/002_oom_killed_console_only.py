# 4-rank job inside a memory-limited cgroup (as a scheduler would set). Every rank keeps a
# "recent activations" history for a diagnostics hook without detaching -> memory leak.
# Rank 2's shard has much longer sequences, so it grows fastest; the kernel OOM killer kills it.
import os, time, warnings
import torch, torch.nn as nn, torch.distributed as dist

def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank(); world = dist.get_world_size()
    seq = 2048 if rank == 2 else 256       # rank 2's shard: long documents
    print(f"loaded shard {rank}/{world}: 18432 samples, max_seq_len={seq}", flush=True)
    model = nn.Sequential(nn.Linear(128, 512), nn.GELU(), nn.Linear(512, 128))
    for p in model.parameters():
        dist.broadcast(p.data, 0)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    history = []
    t0 = time.time()
    for step in range(400):
        x = torch.randn(8, seq, 128)
        out = model(x)
        history.append(out)                 # BUG: keeps the graph alive
        loss = out.pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if rank == 0 and step % 5 == 0:
            print(f"step {step:4d} | loss {loss.item():.4f} | {(time.time()-t0)/(step+1)*1000:.0f} ms/step", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
