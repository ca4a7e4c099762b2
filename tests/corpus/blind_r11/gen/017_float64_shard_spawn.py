# Embedding regression trained with torch.multiprocessing.spawn; each rank reads its per-epoch shard.
# Each worker logs to the console and to its own file logs/rank_<r>.log.
import os, sys, time, logging, argparse
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

def setup_logging(rank):
    os.makedirs("logs", exist_ok=True)
    fmt = logging.Formatter(f"%(asctime)s rank={rank} %(levelname)s %(message)s")
    root = logging.getLogger(); root.setLevel(logging.INFO)
    fh = logging.FileHandler(f"logs/rank_{rank}.log"); fh.setFormatter(fmt); root.addHandler(fh)
    if rank == 0:
        sh = logging.StreamHandler(sys.stdout); sh.setFormatter(fmt); root.addHandler(sh)
    return logging.getLogger("emb")

def worker(rank, world, data, port):
    log = setup_logging(rank)
    try:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world,
                                timeout=timedelta(seconds=20))
        torch.manual_seed(0)
        model = DDP(nn.Sequential(nn.Linear(24, 48), nn.SiLU(), nn.Linear(48, 8)))
        opt = torch.optim.Adam(model.parameters(), lr=2e-3)
        step = 0
        for epoch in range(3):
            arr = np.load(os.path.join(data, f"epoch{epoch}-part{rank}.npy"))
            log.info("epoch %d: %s rows=%d", epoch, f"epoch{epoch}-part{rank}.npy", len(arr))
            for i in range(0, len(arr), 64):
                b = torch.from_numpy(arr[i:i + 64])
                x, y = b[:, :24], b[:, 24:]
                loss = nn.functional.mse_loss(model(x), y)
                opt.zero_grad(); loss.backward(); opt.step(); step += 1
                if step % 10 == 0: log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
                time.sleep(0.03)
        log.info("finished %d steps", step)
        dist.destroy_process_group()
    except Exception:
        log.exception("worker failed")
        raise

if __name__ == "__main__":
    ap = argparse.ArgumentParser(); ap.add_argument("--data"); ap.add_argument("--world", type=int, default=4); ap.add_argument("--port", type=int)
    a = ap.parse_args()
    mp.spawn(worker, args=(a.world, a.data, a.port), nprocs=a.world)
