"""DDP with TORCH_DISTRIBUTED_DEBUG=INFO / TORCH_CPP_LOG_LEVEL=INFO chatter, find_unused_parameters on."""
import os, sys
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
model = DDP(MLP(), find_unused_parameters=True, bucket_cap_mb=1)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x, y = make_data(seed=4)
for epoch in range(3):
    for step in range(30):
        i = (step * 16 + rank * 4) % 480
        loss = F.cross_entropy(model(x[i:i + 16]), y[i:i + 16])
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"epoch {epoch} step {step} rank {rank} loss {loss.item():.4f}", flush=True)
    dist.barrier()
if rank == 0:
    print("training complete, 3 epochs", flush=True)
dist.destroy_process_group()
