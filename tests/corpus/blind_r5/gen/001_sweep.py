import os, torch, torch.distributed as dist
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=12))
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(rank)
model = torch.nn.Linear(16, 4)
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
LOSS_CFG = {"main_weight": 1.0, "aux_weight": 0.3}
def multitask_loss(out, y, batch_meta):
    base = torch.nn.functional.cross_entropy(out, y) * LOSS_CFG["main_weight"]
    for task in batch_meta["tasks"]:
        base = base + LOSS_CFG[task + "_weight"] * out.pow(2).mean()
    return base
print(f"starting sweep trial lr=0.1 world={world}", flush=True)
for step in range(20):
    x = torch.randn(8, 16); y = torch.randint(0, 4, (8,))
    tasks = ["aux"]
    if rank == 1 and step == 7:
        tasks = ["aux", "contrastive"]   # this shard carries an extra task tag
    loss = multitask_loss(ddp(x), y, {"tasks": tasks})
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.4f}", flush=True)
dist.destroy_process_group()
