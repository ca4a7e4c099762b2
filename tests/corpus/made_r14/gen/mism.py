import datetime, time
import torch, torch.distributed as dist
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
r, w = dist.get_rank(), dist.get_world_size()
for step in range(1, 20):
    t = torch.ones(4)
    if r == 2 and step == 6:   # this rank's auxiliary loss path reduces a 5-element tensor
        t = torch.ones(5)
    dist.all_reduce(t)
    print(f"{time.strftime('%H:%M:%S')} rank {r} step {step} loss {1/step:.4f}", flush=True)
    time.sleep(0.1)
