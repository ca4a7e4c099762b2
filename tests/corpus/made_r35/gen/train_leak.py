"""A tiny DDP-style job (gloo, all-reduce every step) whose rank LEAK_RANK keeps 32 MB more every step, as a
cache that is never emptied would. Progress is logged with Python logging. Runs STEPS steps."""
import logging
import os
import time

import torch
import torch.distributed as dist

STEPS = int(os.environ.get("STEPS", "400"))
LEAK_RANK = int(os.environ.get("LEAK_RANK", "-1"))


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    logging.basicConfig(format=f"%(asctime)s %(levelname)s [rank{rank}] trainer: %(message)s", level=logging.INFO)
    log = logging.getLogger()
    log.info("pid %d world_size %d", os.getpid(), dist.get_world_size())
    with open(os.path.join(os.environ["PIDDIR"], f"rank{rank}.pid"), "w") as f:
        f.write(str(os.getpid()))
    torch.manual_seed(rank)
    model = torch.nn.Linear(64, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    kept = []
    for step in range(1, STEPS + 1):
        x, y = torch.randn(32, 64), torch.randn(32, 1)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        opt.step()
        if rank == LEAK_RANK and step > 20:
            kept.append(torch.ones(8 * 1024 * 1024))  # 32 MB, touched
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.1)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
