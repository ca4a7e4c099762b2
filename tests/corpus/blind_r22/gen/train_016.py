# 016: torchrun --tee 3 (no --log-dir). 4 ranks, each with a background prefetch thread
# that parses JSON records into a queue. On rank 2 a malformed record makes the thread
# die (uncaught JSONDecodeError); the main thread then waits on queue.get() forever and
# the other ranks time out in allreduce (20 s).
import os, sys, json, time, queue, threading, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
r = dist.get_rank()
def records():
    for i in range(200):
        if r == 2 and i == 11:
            yield '{"x": [0.1, 0.2, 0.3, "label": 1}'      # truncated line in shard 2
        else:
            yield json.dumps({"x": [((i * 7 + r) % 13) / 13.0] * 16, "label": i % 4})
q = queue.Queue(maxsize=4)
def prefetch():
    for line in records():
        rec = json.loads(line)
        q.put((torch.tensor(rec["x"]).unsqueeze(0), torch.tensor([rec["label"]])))
    q.put(None)
threading.Thread(target=prefetch, name="prefetch", daemon=True).start()
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
step = 0
while True:
    item = q.get()
    if item is None: break
    x, y = item
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 2 == 0:
        print(f"step={step} loss={loss.item():.4f}", flush=True)
    step += 1; time.sleep(0.2)
