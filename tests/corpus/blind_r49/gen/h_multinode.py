"""Two torchrun agents as two 'nodes' (c10d rendezvous); pretrain-then-eval of a tiny model."""
import os, socket, sys
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
print(f"[{socket.gethostname()} rank {rank}/{world} local_rank {os.environ['LOCAL_RANK']} group_rank {os.environ['GROUP_RANK']}] up", flush=True)
model = DDP(MLP()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
x, y = make_data(seed=18)
for step in range(60):
    i = (step * 16 + rank * 4) % 480
    loss = F.cross_entropy(model(x[i:i + 16]), y[i:i + 16]); opt.zero_grad(); loss.backward(); opt.step()
    if step % 20 == 0:
        print(f"[rank {rank}] step {step} loss {loss.item():.4f}", flush=True)
acc = (model(x).argmax(1) == y).float().mean(); dist.all_reduce(acc); acc /= world
if rank == 0:
    print(f"[rank 0] final train accuracy {acc.item():.3f}", flush=True)
dist.barrier(); dist.destroy_process_group()
