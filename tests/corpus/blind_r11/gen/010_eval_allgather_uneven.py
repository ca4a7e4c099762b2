# Classifier training (manual gradient averaging) with periodic distributed evaluation: each rank scores its slice of the
# eval set and the predictions are all_gathered to compute exact accuracy/F1 on every rank.
import os, sys, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-7s %(filename)s:%(lineno)d] %(message)s")
log = logging.getLogger(__name__)

EVAL_N = 1027

@torch.no_grad()
def evaluate(model, rank, world):
    g = torch.Generator().manual_seed(7)
    X = torch.randn(EVAL_N, 24, generator=g); Y = (X[:, :3].sum(1) > 0).long()
    idx = torch.arange(EVAL_N)[rank::world]            # strided split of the eval set
    preds = model(X[idx]).argmax(1)
    gathered = [torch.empty_like(preds) for _ in range(world)]
    dist.all_gather(gathered, preds)
    allp = torch.empty(EVAL_N, dtype=torch.long)
    for r, p in enumerate(gathered): allp[r::world] = p
    return (allp == Y).float().mean().item()

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 2))
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1, 101):
        x = torch.randn(32, 24); y = (x[:, :3].sum(1) > 0).long()
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward()
        for p in model.parameters():               # average gradients across ranks
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if rank == 0 and step % 10 == 0:
            log.info("step %d/100 loss=%.4f", step, loss.item())
        if step % 25 == 0:
            acc = evaluate(model, rank, world)
            if rank == 0: log.info("eval @ step %d: acc=%.4f (n=%d)", step, acc, EVAL_N)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
