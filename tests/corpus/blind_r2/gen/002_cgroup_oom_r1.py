# Rank 1 is the "embedding logger" rank and accumulates activations every step (a leak).
# The whole job runs inside a memory cgroup; the kernel OOM killer kills the biggest process: rank 1.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    print(f"[rank {rank}] init done, world={world}, pid={os.getpid()}", flush=True)
    torch.manual_seed(rank)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(), torch.nn.Linear(512, 10)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    emb_buffer = []
    for step in range(1, 400):
        x = torch.randn(64, 256); y = torch.randint(0, 10, (64,))
        out = model(x)
        loss = torch.nn.functional.cross_entropy(out, y)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 1:
            # keep projector embeddings for the TensorBoard projector at the end of the epoch
            emb_buffer.append(torch.randn(2048, 1024) + out.detach().mean())
        if step % 10 == 0:
            print(f"[rank {rank}] step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    print(f"[rank {rank}] done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
