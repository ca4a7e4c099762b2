# Long-ish training job; the launcher (torchrun agent) receives SIGTERM from outside mid-run, as a
# scheduler/spot-reclaim would do. No rank has any fault.
import os, time, datetime
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 64)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(1, 100000):
        x = torch.randn(32, 64)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0 and rank == 0:
            print(f"{datetime.datetime.now().isoformat(timespec='seconds')} | it {step:6d} | loss {loss.item():.5f} | lr 1.0e-03", flush=True)
        time.sleep(0.05)

if __name__ == "__main__":
    main()
