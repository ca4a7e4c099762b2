# DDP MLP with a global non-finite-loss guard; python logging.
import argparse
import logging
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("train")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data")
    ap.add_argument("--steps", type=int, default=250)
    ap.add_argument("--bs", type=int, default=32)
    args = ap.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s - rank{rank} - %(levelname)s - %(message)s")
    torch.manual_seed(0)
    blob = torch.load(os.path.join(args.data, f"features_{rank}.pt"))
    x_all, y_all = blob["x"].float(), blob["y"].float()
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1, args.steps + 1):
        s = slice((step - 1) * args.bs, step * args.bs)
        out = model(x_all[s])
        loss = nn.functional.mse_loss(out, y_all[s])
        global_loss = loss.detach().clone()
        dist.all_reduce(global_loss)
        global_loss /= world
        if not torch.isfinite(global_loss):
            raise FloatingPointError(
                f"non-finite loss at step {step}: global={global_loss.item()} local={loss.item()}")
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            log.info("step %d | loss(local) %.4f | loss(global) %.4f", step, loss.item(), global_loss.item())
        time.sleep(0.02)
    log.info("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
