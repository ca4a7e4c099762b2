"""A small DDP training run (gloo, CPU) for a good/bad pair: the same program, once healthy and once with a
corrupt record in rank 1's shard (PAIR_BAD=1), which its tokenizer rejects at step 23."""

import logging
import os
import random

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(format="%(asctime)s %(levelname)s [%(name)s] %(message)s", level=logging.INFO)
log = logging.getLogger("train")


def records(rank: int, bad: bool):
    rng = random.Random(rank)
    for i in range(10_000):
        if bad and rank == 1 and i == 23:
            yield "\x00\x00<corrupt>"
        else:
            yield " ".join(str(rng.randrange(100)) for _ in range(8))


def tokenize(text: str) -> torch.Tensor:
    ids = [int(tok) / 100 for tok in text.split()]
    return torch.tensor(ids, dtype=torch.float32)


def main() -> None:
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    log.info("rank %d of %d on %s, run dir /tmp/runs/%s", rank, world, os.uname().nodename, os.environ.get("RUN_ID"))
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step, text in enumerate(records(rank, os.environ.get("PAIR_BAD") == "1")):
        if step == 40:
            break
        x = tokenize(text)
        loss = (model(x) - 1.0).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        if step == 20 and rank == 0:
            torch.save(model.state_dict(), f"/tmp/runs/ckpt_{os.environ.get('RUN_ID')}.pt")
            log.info("saved checkpoint /tmp/runs/ckpt_%s.pt", os.environ.get("RUN_ID"))
    log.info("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
