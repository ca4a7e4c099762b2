# LM fine-tune; the loss comes from the team's 'trainkit' package installed in each node image
import os, time, socket
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", timeout=timedelta(seconds=25))
rank, world, lrank = dist.get_rank(), dist.get_world_size(), int(os.environ["LOCAL_RANK"])
host = os.environ.get("FAKE_HOST", socket.gethostname())
import trainkit
print(f"[{host} rank {rank}/{world} local {lrank}] trainkit {trainkit.__version__} from {os.path.dirname(trainkit.__file__)}", flush=True)
from trainkit.losses import ChunkedCrossEntropy
V = 1000
model = DDP(nn.Sequential(nn.Embedding(V, 64), nn.Linear(64, V)))
crit = ChunkedCrossEntropy(chunk=256)
opt = torch.optim.AdamW(model.parameters(), 3e-4)
for step in range(1, 81):
    x = torch.randint(0, V, (8, 32))
    loss = crit(model(x[:, :-1]).flatten(0, 1), x[:, 1:].flatten())
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 20 == 0: print(f"[{host} rank {rank}] step {step} loss {loss.item():.3f}", flush=True)
print(f"[{host} rank {rank}] done", flush=True)
dist.destroy_process_group()
