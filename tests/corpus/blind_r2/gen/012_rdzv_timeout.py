# Ordinary training script; never starts because the second node never joins the rendezvous.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    model = DDP(torch.nn.Linear(8, 8))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1, 21):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            print(f"[{rank}] step {step} loss {loss.item():.3f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
