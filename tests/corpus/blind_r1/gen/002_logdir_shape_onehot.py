# DDP MLP with a one-hot "domain" feature; python logging with timestamps; @record.
import argparse
import logging
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("train")

NUM_DOMAINS = 4
FEAT = 16


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(FEAT + NUM_DOMAINS, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, 1)

    def forward(self, x, domain):
        d = F.one_hot(domain).float()
        return self.head(self.body(torch.cat([x, d], dim=1)))


@record
def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data")
    p.add_argument("--steps", type=int, default=250)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--log-every", type=int, default=10)
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
    torch.manual_seed(0)

    shard = torch.load(os.path.join(args.data, f"shard{rank}.pt"))
    x_all, dom_all, y_all = shard["x"], shard["domain"], shard["y"]
    log.info("loaded %s: %d samples, domains present in first 1k: %s",
             f"shard{rank}.pt", len(y_all), sorted(set(dom_all[:1000].tolist())))

    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    t0 = time.time()
    for step in range(1, args.steps + 1):
        s = (step - 1) * args.batch_size
        x, d, y = x_all[s:s + args.batch_size], dom_all[s:s + args.batch_size], y_all[s:s + args.batch_size]
        out = model(x, d)
        loss = F.mse_loss(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % args.log_every == 0:
            log.info("step %d loss %.4f (%.0f samples/s)", step, loss.item(),
                     step * args.batch_size / (time.time() - t0))
        time.sleep(0.02)
    log.info("finished %d steps", args.steps)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
