# speech frontend pretraining (2 nodes x 2 procs)
import os, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    print(f"[{rank}/{world}] group ready", flush=True)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Conv1d(1, 8, 9, stride=4), nn.ReLU(), nn.Conv1d(8, 8, 9, stride=4)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(50):
        wav = torch.randn(4, 1, 4000)
        loss = model(wav).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
