# DDP MLP reading fixed-size records from part files through a cached-handle reader.
import argparse
import logging
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("reader")
REC = 21 * 4  # 20 features + target, float32


class PartReader:
    """Reads batches sequentially across part files; keeps handles open for re-reads."""

    def __init__(self, root):
        self.root = root
        self.parts = sorted(os.listdir(root))
        self.handles = {}

    def _handle(self, name):
        if name not in self.handles:
            self.handles[name] = open(os.path.join(self.root, name), "rb")
        return self.handles[name]

    def batches(self, bs):
        for name in self.parts:
            f = self._handle(name)
            f.seek(0)
            data = f.read()
            t = torch.frombuffer(bytearray(data), dtype=torch.float32).view(-1, 21)
            for i in range(0, t.shape[0] - bs + 1, bs):
                yield t[i:i + bs, :20], t[i:i + bs, 20:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data")
    ap.add_argument("--bs", type=int, default=16)
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s %(levelname)s rank={rank} %(name)s: %(message)s")
    torch.manual_seed(0)
    reader = PartReader(os.path.join(args.data, f"rank{rank}"))
    log.info("%d part files", len(reader.parts))
    model = DDP(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    for x, y in reader.batches(args.bs):
        step += 1
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            logging.getLogger("train").info("step %d loss %.4f", step, loss.item())
        if step >= args.steps:
            break
        time.sleep(0.02)
    logging.getLogger("train").info("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
