import datetime, time, math
import torch, torch.distributed as dist
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
r = dist.get_rank()
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.05)
for step in range(1, 60):
    x = torch.randn(16, 8)
    if r == 3 and step >= 30:
        x[0, 0] = float("inf")  # a corrupt sample in rank 3's shard
    loss = ddp(x).pow(2).mean()
    if not torch.isfinite(loss):
        print(f"{time.strftime('%H:%M:%S')} rank {r} step {step} local loss is nan", flush=True)
    opt.zero_grad(); loss.backward(); opt.step()
    g = loss.detach().clone(); dist.all_reduce(g); g /= dist.get_world_size()
    if step % 5 == 0 or not math.isfinite(g.item()):
        print(f"{time.strftime('%H:%M:%S')} rank {r} step {step} global loss {g.item():.4f}", flush=True)
    if not math.isfinite(g.item()) and step > 30:
        raise FloatingPointError(f"global loss is {g.item()} at step {step}")
    time.sleep(0.1)
