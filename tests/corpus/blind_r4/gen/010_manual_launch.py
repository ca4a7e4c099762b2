import os, socket, time
from datetime import timedelta
import torch, torch.distributed as dist

r, w = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
print(f"host={socket.gethostname()} rank={r} world={w} master={os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']} -> init_process_group", flush=True)
dist.init_process_group("gloo", timeout=timedelta(seconds=15))
print(f"rank={r} joined", flush=True)
t = torch.ones(4) * r
for i in range(10):
    dist.all_reduce(t); time.sleep(0.1)
print(f"rank={r} ok {t.tolist()}", flush=True)
dist.destroy_process_group()
