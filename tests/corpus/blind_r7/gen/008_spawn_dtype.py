# train_feats.py -- precomputed numpy features per rank, mp.spawn, per-rank log files
import os, sys, time, logging, datetime, numpy as np, torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
OUT = os.environ["RUN_DIR"]

def setup_logging(rank):
    lg = logging.getLogger("feats"); lg.setLevel(logging.DEBUG)
    fh = logging.FileHandler(f"{OUT}/logs/rank{rank}.log")
    fh.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    lg.addHandler(fh)
    if rank == 0:
        sh = logging.StreamHandler(sys.stdout); sh.setFormatter(logging.Formatter("%(asctime)s %(message)s")); lg.addHandler(sh)
    return lg

def worker(rank, world):
    log = setup_logging(rank)
    try:
        dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29808", rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=30))
        feats = np.load(f"{OUT}/feats/part{rank}.npy"); labels = np.load(f"{OUT}/feats/labels{rank}.npy")
        log.info("loaded features %s %s", feats.shape, feats.dtype)
        model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(48, 96), nn.Tanh(), nn.Linear(96, 3)))
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        for step in range(30):
            x = torch.from_numpy(feats[step*16:(step+1)*16]); y = torch.from_numpy(labels[step*16:(step+1)*16])
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            log.debug("step %d loss %.4f", step, loss.item())
            if step % 10 == 0: log.info("step %d/30 loss=%.4f", step, loss.item())
        log.info("done")
    except Exception:
        log.exception("rank %d failed", rank)
        raise

if __name__ == "__main__":
    os.makedirs(f"{OUT}/logs", exist_ok=True)
    mp.spawn(worker, args=(4,), nprocs=4)
