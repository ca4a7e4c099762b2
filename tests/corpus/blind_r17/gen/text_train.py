"""Tiny byte-level LM-ish trainer reading per-rank text shards."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, reduce_loss

def tokenize(line: bytes):
    text = line.decode("utf-8")
    ids = [ord(c) % 97 for c in text.strip()][:32]
    return ids + [0] * (32 - len(ids))

rank, world, log = init()
shard = os.path.join(os.environ["DATA_DIR"], f"part-{rank:05d}.txt")
log(f"reading {shard}")
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
with open(shard, "rb") as f:
    lines = f.readlines()
for step in range(0, len(lines) // 8):
    batch = [tokenize(l) for l in lines[step * 8:(step + 1) * 8]]
    x = torch.tensor(batch, dtype=torch.float32) / 97.0
    y = torch.tensor([b[0] % 4 for b in batch])
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.2)
log("epoch done")
dist.destroy_process_group()
