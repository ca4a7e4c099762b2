"""Toy 'pipeline' exchange: pairs of ranks swap activations every step."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
# recv-first ordering is meant for rank 2 only (rank 1 sends first);
# RECV_FIRST_RANKS is read from the launch script
recv_first = [int(r) for r in os.environ.get("RECV_FIRST_RANKS", "").split(",") if r]
for step in range(10):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    # exchange boundary activations between ranks 1 and 2 (stage boundary)
    if rank in (1, 2):
        peer = 3 - rank
        buf_out = torch.full((4, 8), float(rank))
        buf_in = torch.empty(4, 8)
        if rank in recv_first:
            dist.recv(buf_in, src=peer)
            dist.send(buf_out, dst=peer)
        else:
            dist.send(buf_out, dst=peer)
            dist.recv(buf_in, src=peer)
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    time.sleep(0.2)
log("done")
dist.destroy_process_group()
