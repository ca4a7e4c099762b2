"""Uneven inputs across ranks handled by DDP's Join context manager (mp.spawn); ranks finish at different steps."""
import datetime, os, sys
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn.functional as F
from torch.distributed.algorithms.join import Join
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import MLP, make_data

def run(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "58021"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=40))
    torch.set_num_threads(1); torch.manual_seed(0)
    model = DDP(MLP()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = make_data(seed=16)
    n_batches = [40, 33, 25][rank]
    with Join([model]):
        for b in range(n_batches):
            i = (b * 12) % 480
            loss = F.cross_entropy(model(x[i:i + 12]), y[i:i + 12]); opt.zero_grad(); loss.backward(); opt.step()
            if b % 10 == 0:
                print(f"rank {rank} batch {b}/{n_batches} loss {loss.item():.4f}", flush=True)
        print(f"rank {rank}: local data exhausted after {n_batches} batches; joining and shadowing the others' all-reduces", flush=True)
    print(f"rank {rank}: all ranks joined, epoch complete", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(run, args=(3,), nprocs=3)
    print("main: all 3 processes finished", flush=True)
