"""mp.spawn trainer; each rank reads the model config from its node-local config dir."""
import json, os, sys, time
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

def worker(local_rank, world, cfg_dirs):
    rank, world, log = init(local_rank, world)
    with open(os.path.join(cfg_dirs[rank], "model.json")) as f:
        cfg = json.load(f)
    log(f"model config: {cfg}")
    model = DDP(Net(hidden=cfg["hidden"], extra=cfg.get("extra_block", False)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(8):
        x, y = make_batch(rank, step)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    dist.destroy_process_group()

if __name__ == "__main__":
    world = int(sys.argv[1])
    cfg_dirs = sys.argv[2:]
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    mp.spawn(worker, args=(world, cfg_dirs), nprocs=world, join=True)
