# plain DDP via mp.spawn with tqdm bars on every rank; SMODE selects failure
import os, sys, time, datetime, torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from tqdm import tqdm

SMODE = os.environ.get("SMODE", "healthy")
FR = int(os.environ.get("FAIL_RANK", "2"))

class VarLen(Dataset):
    def __init__(self, rank): self.rank = rank
    def __len__(self): return 400
    def __getitem__(self, i):
        L = 12
        if SMODE == "varlen" and self.rank == FR and i == 85:
            L = 13  # one over-long record in this rank's shard
        return torch.randn(L), torch.tensor([0.5])

def worker(rank, world, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=15))
    model = DDP(nn.Sequential(nn.Linear(12, 24), nn.Tanh(), nn.Linear(24, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    dl = DataLoader(VarLen(rank), batch_size=8)
    bar = tqdm(dl, desc=f"rank {rank}", position=rank, total=14, ncols=90, mininterval=0)
    for step, (x, y) in enumerate(bar):
        if step == 14:
            break
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        bar.set_postfix(loss=f"{loss.item():.3f}")
        if SMODE == "segv_save" and rank == FR and step == 13:
            pass
        time.sleep(0.1)
    bar.close()
    if SMODE == "abort_shutdown" and rank == FR:
        import signal
        print(f"rank {rank}: closing writer", flush=True)
        os.kill(os.getpid(), signal.SIGABRT)
    dist.barrier()
    if rank == 0:
        print("all ranks finished", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    world = int(os.environ.get("WORLD", "3"))
    mp.spawn(worker, args=(world, int(os.environ.get("PORT", "29800"))), nprocs=world, join=True)
