# 024: two torchrun agents, 2 procs each; logfmt-style logs. The run is healthy until the
# second "node" is reclaimed: its agent gets SIGTERM (spot/preemption notice) and stops
# its workers; the workers on node 0 then lose their peers.
import os, sys, time, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import datetime, timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=25))
r = dist.get_rank()
def lf(lvl, msg, **kv):
    extra = " ".join(f"{k}={v}" for k, v in kv.items())
    print(f"ts={datetime.now().isoformat(timespec='milliseconds')} lvl={lvl} rank={r} msg=\"{msg}\" {extra}", flush=True)
lf("info", "worker started", node=os.environ.get("GROUP_RANK"), local_rank=os.environ["LOCAL_RANK"])
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(400):
    x, y = batch(step, r); loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0: lf("info", "train", step=step, loss=f"{loss.item():.4f}")
    time.sleep(0.2)
