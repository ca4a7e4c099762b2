import datetime, os, time
import torch, torch.distributed as dist
r = int(os.environ["RANK"])
print(f"{time.strftime('%H:%M:%S')} rank {r}: init_process_group world_size={os.environ['WORLD_SIZE']} master={os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}", flush=True)
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=15))
print(f"{time.strftime('%H:%M:%S')} rank {r}: joined", flush=True)
for step in range(5):
    t = torch.ones(1); dist.all_reduce(t)
    print(f"{time.strftime('%H:%M:%S')} rank {r} step {step} loss {1/(step+1):.3f}", flush=True)
