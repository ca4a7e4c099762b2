# DDP MLP, one pass over this rank's own shard file (IterableDataset); logging with timestamps.
import argparse
import logging
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, IterableDataset

logger = logging.getLogger(__name__)


class ShardStream(IterableDataset):
    def __init__(self, path):
        self.path = path

    def __iter__(self):
        blob = torch.load(self.path)
        for i in range(blob["x"].shape[0]):
            yield blob["x"][i], blob["y"][i]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data")
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--out", default="out")
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s] [%(levelname)s] [RANK %(rank)s] %(message)s")
    old = logging.getLogRecordFactory()

    def factory(*a, **k):
        r = old(*a, **k)
        r.rank = rank
        return r
    logging.setLogRecordFactory(factory)

    torch.manual_seed(0)
    loader = DataLoader(ShardStream(os.path.join(args.data, f"shard_{rank:02d}.pt")), batch_size=args.batch_size)
    model = DDP(nn.Sequential(nn.Linear(20, 80), nn.SiLU(), nn.Linear(80, 80), nn.SiLU(), nn.Linear(80, 1)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    logger.info("starting epoch 0")
    t0 = time.time()
    step = 0
    for x, y in loader:
        step += 1
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            logger.info("step %d | loss %.4f | %.1f it/s", step, loss.item(), step / (time.time() - t0))
        time.sleep(0.02)
    logger.info("epoch 0 finished after %d steps", step)
    if rank == 0:
        os.makedirs(args.out, exist_ok=True)
        torch.save(model.module.state_dict(), os.path.join(args.out, "final.pt"))
        logger.info("saved %s", os.path.join(args.out, "final.pt"))
    dist.destroy_process_group()
    logger.info("exiting")


if __name__ == "__main__":
    main()
