"""Trainer with a heartbeat thread and a metrics snapshot hook."""
import os, threading, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
state = {"step": -1, "t": time.time()}
_mlock = threading.Lock()

def heartbeat():
    while True:
        time.sleep(10)
        print(f"[hb] rank {rank}: last completed step {state['step']} ({time.time() - state['t']:.0f}s ago)", flush=True)
threading.Thread(target=heartbeat, daemon=True).start()

snap_rank = int(os.environ.get("SNAPSHOT_RANK", "0"))
def record_metric(name, value, on_flush=None):
    with _mlock:
        if on_flush is not None:
            on_flush()
        return (name, value)

def snapshot():
    log("writing metrics snapshot")
    # flush callback records the flush count itself (re-enters the non-reentrant lock)
    record_metric("loss", 1.0, on_flush=lambda: record_metric("flushes", 1))
    log("metrics snapshot written")

for step in range(40):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step == 7 and rank == snap_rank:
        snapshot()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    state.update(step=step, t=time.time())
    time.sleep(0.3)
dist.destroy_process_group()
