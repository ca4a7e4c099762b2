"""A tiny DDP-style job for two torchrun agents (2 workers each): gradients all-reduced with gloo every step,
progress logged with the rank and a timestamp. Runs until killed or STEPS steps."""
import logging
import os
import time

import torch
import torch.distributed as dist

STEPS = int(os.environ.get("STEPS", "400"))


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    logging.basicConfig(format=f"%(asctime)s %(levelname)s [rank{rank}] train: %(message)s", level=logging.INFO)
    log = logging.getLogger()
    log.info("attempt %s world_size %d", os.environ.get("TORCHELASTIC_RESTART_COUNT"), dist.get_world_size())
    torch.manual_seed(rank)
    model = torch.nn.Linear(32, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(1, STEPS + 1):
        x, y = torch.randn(16, 32), torch.randn(16, 1)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.05)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
