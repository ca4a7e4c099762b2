# 023: torchrun, 2 ranks, DDP. LR schedule warms up to a far too high peak (lr 8.0 for SGD+momentum
# on this linear classifier): the loss climbs from ~1.4 to tens and stays there. Rank 0 draws a
# tqdm-like bar with \r; a divergence guard (same on all ranks, loss is all-reduced) stops the run.
import os, sys, time, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
r, W = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
model = DDP(torch.nn.Linear(16, 4)); opt = torch.optim.SGD(model.parameters(), lr=0.0, momentum=0.9)
TOTAL, WARM, PEAK = 300, 60, 8.0
best, bad, t0 = float("inf"), 0, time.time()
def bar(i, loss, lr):
    n = int(30 * i / TOTAL)
    sys.stdout.write(f"\rtrain: {100*i//TOTAL:3d}%|{'#'*n}{' '*(30-n)}| {i}/{TOTAL} [{time.time()-t0:5.1f}s, loss={loss:.3f}, lr={lr:.3g}]")
    sys.stdout.flush()
for i in range(1, TOTAL + 1):
    lr = 0.05 + (PEAK - 0.05) * max(0, i - 20) / WARM if i < 20 + WARM else PEAK
    for g in opt.param_groups: g["lr"] = lr
    x, y = batch(i % 25, r, bs=32)                      # small repeated set: should be easy to fit
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    l = loss.detach().clone(); dist.all_reduce(l); l = (l / W).item()
    if r == 0: bar(i, l, lr)
    if i % 10 == 0:
        if r == 0: sys.stdout.write("\n")
        print(f"rank {r} | step {i} | avg_loss {l:.4f} | lr {lr:.3f}", flush=True)
        best = min(best, l)
        bad = bad + 1 if (i > 40 and l > 10 * best) else 0
        if bad >= 5:
            print(f"rank {r} | ERROR: loss {l:.2f} above 10x best ({best:.3f}) for {bad} evals -- run diverged, stopping", flush=True)
            sys.exit(3)
    time.sleep(0.05)
print(f"rank {r} | finished, final loss {l:.4f}", flush=True)
