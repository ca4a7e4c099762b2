# fine-tune from the internal model hub; local rank 0 of each node downloads into the node-local cache,
# the other local ranks wait at a barrier
import os, json, time, socket, urllib.request
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", timeout=timedelta(seconds=25))
rank, lrank = dist.get_rank(), int(os.environ["LOCAL_RANK"])
node = os.environ["NODE_NAME"]
HUB = os.environ.get("HUB_ENDPOINT", "http://127.0.0.1:33116")
cache = f"/tmp/r13_016/{node}/hub_cache"
def hub_get(path):
    req = urllib.request.Request(f"{HUB}/api/models/acme/intent-encoder/resolve/main/{path}")
    tok = os.environ.get("HUB_TOKEN")
    if tok: req.add_header("Authorization", f"Bearer {tok}")
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.read()
if lrank == 0:
    os.makedirs(cache, exist_ok=True)
    print(f"[{node}] rank {rank}: downloading acme/intent-encoder from {HUB} (token {'set' if os.environ.get('HUB_TOKEN') else 'not set'})", flush=True)
    for f in ("config.json", "vocab.json"):
        open(f"{cache}/{f}", "wb").write(hub_get(f))
    print(f"[{node}] rank {rank}: download complete", flush=True)
dist.barrier()
cfg = json.load(open(f"{cache}/config.json"))
model = DDP(nn.Sequential(nn.Embedding(cfg["vocab_size"], cfg["hidden"]), nn.Linear(cfg["hidden"], cfg["num_labels"])))
opt = torch.optim.AdamW(model.parameters(), 2e-5)
for step in range(1, 61):
    x = torch.randint(0, cfg["vocab_size"], (16, 24)); y = x[:, 0] % cfg["num_labels"]
    loss = nn.functional.cross_entropy(model(x).mean(1), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 20 == 0: print(f"[{node}] rank {rank}: step {step} loss {loss.item():.4f}", flush=True)
print(f"[{node}] rank {rank}: done", flush=True)
dist.destroy_process_group()
