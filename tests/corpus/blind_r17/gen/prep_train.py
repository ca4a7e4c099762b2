"""Training with on-the-fly text preprocessing (normalise whitespace until stable)."""
import os, re, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)

def normalise(text):
    # drop control characters, keep everything else
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c in "\x00\x1b":
            continue
        out.append(c)
        i += 1
    return "".join(out)

docs = {r: ["hello   world", "a  b   c"] for r in range(world)}
docs[int(os.environ.get("SHARD_WITH_TABS", "-1"))] = ["col1\x00col2", "x"]
for step in range(12):
    if step == 5:
        log("re-tokenising shard for epoch 1")
        cleaned = [normalise(d) for d in docs.get(rank, [])]
        log(f"shard ready: {len(cleaned)} docs")
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.2)
log("done")
dist.destroy_process_group()
