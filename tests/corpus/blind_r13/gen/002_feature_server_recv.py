# ranking model: dense features come from the feature-store sidecar over a socket (one request per shard refresh)
import os, sys, time, socket, json
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "33002")
dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
print(f"{time.strftime('%H:%M:%S')} rank={rank} world={world} host={socket.gethostname()} joined", flush=True)

def fetch_features(shard, part):
    s = socket.create_connection(("127.0.0.1", int(os.environ["FEATURE_PORT"])))
    s.sendall((json.dumps({"shard": shard, "part": part}) + "\n").encode())
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = s.recv(65536)          # no timeout set on the socket
        if not chunk: raise ConnectionError("feature store closed the connection")
        buf += chunk
    s.close()
    return torch.tensor(json.loads(buf)["rows"], dtype=torch.float32)

model = DDP(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)))
opt = torch.optim.Adam(model.parameters(), 1e-3)
feats = fetch_features(rank, 0)
for step in range(1, 121):
    if step % 25 == 0:
        feats = fetch_features(rank, step // 25)   # refresh the feature window
    x = feats[(step * 8) % 192:(step * 8) % 192 + 8]
    loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(-1), (x[:, 0] > 0).float())
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        print(f"{time.strftime('%H:%M:%S')} rank={rank} step={step} loss={loss.item():.4f}", flush=True)
    time.sleep(0.05)
print(f"{time.strftime('%H:%M:%S')} rank={rank} done", flush=True)
dist.destroy_process_group()
