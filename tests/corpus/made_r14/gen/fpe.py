import ctypes, os, time, datetime
import torch, torch.distributed as dist
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
r, w = dist.get_rank(), dist.get_world_size()
lib = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(__file__)), "libdiv.so"))
torch.manual_seed(r)
model = torch.nn.Linear(16, 1)
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
for step in range(1, 40):
    x = torch.randn(8, 16)
    # tokens per bucket: rank 2's shard runs out of bucket 5 at step 12
    count = 0 if (r == 2 and step == 12) else 8
    mean = lib.bucket_mean(int(x.abs().sum().item() * 100), count)
    loss = ddp(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"{time.strftime('%H:%M:%S')} rank {r} step {step} loss {loss.item():.4f} bucket_mean {mean}", flush=True)
    time.sleep(0.2)
dist.destroy_process_group()
