# 004: torchrun with --log-dir --tee 3. 3 ranks. At step 6 rank 1 waits for a
# "pause/resume" control FIFO that nobody writes to (operator tooling), blocking
# forever. Ranks 0 and 2 sit in allreduce until the gloo timeout (20s).
import os, sys, time, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
r = dist.get_rank()
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
ctl = os.environ["CTL_FIFO"]
t0 = time.time()
for step in range(40):
    if r == 1 and step == 6 and os.path.exists(ctl):
        with open(ctl) as f:       # blocks: no writer ever opens the FIFO
            cmd = f.read()
    x, y = batch(step, r)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"it {step:04d}  loss={loss.item():.4f}  elapsed={time.time()-t0:.1f}s", flush=True)
    time.sleep(0.3)
print("done", flush=True)
