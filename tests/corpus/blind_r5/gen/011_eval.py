import os, torch, torch.distributed as dist
import torch.multiprocessing as mp
from datetime import timedelta
def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29621"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=12))
    torch.manual_seed(0)
    model = torch.nn.Linear(10, 2)
    ddp = torch.nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for step in range(30):
        x = torch.randn(16, 10); y = (x[:, 0] > 0).long()
        loss = torch.nn.functional.cross_entropy(ddp(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 5 == 0:
            print(f"step {step:3d} | loss {loss.item():.4f}", flush=True)
    acc = torch.tensor([0.0])
    x = torch.randn(64, 10); acc[0] = (ddp(x).argmax(1) == (x[:, 0] > 0).long()).float().mean()
    dist.all_reduce(acc); acc /= world
    if rank == 0: print(f"final eval accuracy {acc.item():.3f}; training complete", flush=True)
    dist.destroy_process_group()
if __name__ == "__main__":
    mp.spawn(worker, args=(2,), nprocs=2)
    print("all workers exited cleanly")
