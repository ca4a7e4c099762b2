# Hand-rolled data parallel (no DDP): flat gradient all-reduce per step.
# Model has an auxiliary head that only runs on batches containing flagged samples.
import argparse
import logging
import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

log = logging.getLogger("dp_train")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, 1)
        self.aux_head = nn.Linear(64, 4)

    def forward(self, x, flag):
        h = self.trunk(x)
        out = self.head(h)
        aux = self.aux_head(h[flag]) if flag.any() else None
        return out, aux


def allreduce_grads(model, world):
    grads = [p.grad.reshape(-1) for p in model.parameters() if p.grad is not None]
    flat = torch.cat(grads)
    dist.all_reduce(flat)
    flat /= world
    offset = 0
    for p in model.parameters():
        if p.grad is None:
            continue
        n = p.grad.numel()
        p.grad.copy_(flat[offset:offset + n].view_as(p.grad))
        offset += n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--bs", type=int, default=32)
    args = ap.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [%(levelname)s] rank{rank}: %(message)s")
    torch.manual_seed(0)
    d = torch.load(os.path.join(args.data, f"train_{rank}.pt"))
    model = Net()
    for p in model.parameters():
        dist.broadcast(p.data, src=0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    log.info("params=%d, samples=%d", sum(p.numel() for p in model.parameters()), d["x"].shape[0])
    for step in range(1, args.steps + 1):
        s = slice((step - 1) * args.bs, step * args.bs)
        x, y, flag, aux_y = d["x"][s], d["y"][s], d["flag"][s], d["aux"][s]
        out, aux = model(x, flag)
        loss = F.mse_loss(out, y)
        if aux is not None:
            loss = loss + 0.1 * F.cross_entropy(aux, aux_y[flag])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        allreduce_grads(model, world)
        opt.step()
        if step % 10 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.02)
    log.info("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
