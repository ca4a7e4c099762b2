# Multi-node DDP MLP reading pre-processed tensor chunks; logging with timestamps.
import argparse
import logging
import os
import socket
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("mn_train")


def chunks(root, rank, bs):
    d = os.path.join(root, f"rank_{rank:03d}")
    for name in sorted(os.listdir(d)):
        blob = torch.load(os.path.join(d, name))
        x, y = blob["features"], blob["target"]
        for i in range(0, len(x) - bs + 1, bs):
            yield x[i:i + bs], y[i:i + bs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--max-steps", type=int, default=250)
    args = ap.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ["LOCAL_RANK"])
    node = int(os.environ.get("GROUP_RANK", -1))
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s %(levelname)s node{node}/local{local_rank}/rank{rank} | %(message)s")
    torch.manual_seed(0)
    log.info("host=%s world_size=%d", socket.gethostname(), world)
    model = DDP(nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 50))
    step = 0
    for x, y in chunks(args.data, rank, args.bs):
        step += 1
        loss = nn.functional.smooth_l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 25 == 0:
            log.info("step %d loss %.4f lr %.2e", step, loss.item(), sched.get_last_lr()[0])
        if step >= args.max_steps:
            break
        time.sleep(0.02)
    log.info("finished at step %d", step)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
