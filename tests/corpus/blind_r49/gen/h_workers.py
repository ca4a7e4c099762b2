"""mp.spawn training whose DataLoader workers are recreated every epoch (persistent_workers=False)."""
import datetime, logging, os, sys
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import MLP, make_data

class DS(Dataset):
    def __init__(self):
        self.x, self.y = make_data(n=768, seed=9)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return self.x[i], self.y[i]

def wi(worker_id):
    info = torch.utils.data.get_worker_info()
    logging.getLogger("data").info("dataloader worker %d/%d started (pid %d)", worker_id, info.num_workers, os.getpid())

def run(rank, world):
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s rank{rank} %(name)s | %(message)s")
    log = logging.getLogger("train")
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "58017"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=40))
    torch.set_num_threads(1)
    model = DDP(MLP()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
    ds = DS()
    sampler = torch.utils.data.distributed.DistributedSampler(ds)
    dl = DataLoader(ds, batch_size=32, sampler=sampler, num_workers=3, persistent_workers=False, worker_init_fn=wi)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        log.info("epoch %d: starting (workers are re-created each epoch)", epoch)
        for i, (xb, yb) in enumerate(dl):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step()
        log.info("epoch %d done loss %.4f; dataloader workers shut down", epoch, loss.item())
    dist.barrier(); dist.destroy_process_group()
    log.info("finished")

if __name__ == "__main__":
    mp.spawn(run, args=(2,), nprocs=2)
