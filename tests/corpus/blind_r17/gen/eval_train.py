"""Train + per-rank eval; eval accuracy averaged with all_reduce."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
n_eval = {r: 200 for r in range(world)}
short = int(os.environ.get("SHORT_EVAL_RANK", "-1"))
if short >= 0:
    n_eval[short] = 24  # this rank's eval split is the remainder after sharding
def evaluate():
    model.eval(); correct = 0; seen = 0; batches = 0
    with torch.no_grad():
        for b in range(n_eval[rank] // 32):  # drop_last
            x, y = make_batch(rank + 100, b, bs=32)
            correct += (model(x).argmax(1) == y).sum().item(); seen += 32; batches += 1
    model.train()
    acc = correct / seen
    t = torch.tensor([acc]); dist.all_reduce(t)
    return t.item() / world
for epoch in range(2):
    for step in range(6):
        x, y = make_batch(rank, step + 10 * epoch)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        log(f"epoch {epoch} step {step} train_loss={reduce_loss(loss, world):.4f}")
        time.sleep(0.2)
    log(f"epoch {epoch} running evaluation")
    log(f"epoch {epoch} eval_acc={evaluate():.4f}")
dist.destroy_process_group()
