# trainer_cb.py -- callback-driven trainer, JSON-lines logs; callback errors are caught by design
import os, sys, json, time, traceback, torch, torch.nn as nn, torch.distributed as dist
RANK = int(os.environ["RANK"]); WORLD = int(os.environ["WORLD_SIZE"])
def jl(level, event, **kw):
    print(json.dumps({"t": round(time.time(), 3), "lvl": level, "rank": RANK, "event": event, **kw}), flush=True)

class EvalCallback:
    def on_step_end(self, step, model):
        if step % 15 or step == 0: return
        n_val = 0 if RANK == 2 else 16      # rank 2's validation split is empty for this language
        correct = 7
        jl("info", "eval", step=step, acc=correct / n_val)
class StragglerMonitor:
    def __init__(self): self.t = time.time()
    def on_step_end(self, step, model):
        dt = time.time() - self.t; self.t = time.time()
        t = torch.tensor([dt]); ts = [torch.zeros(1) for _ in range(WORLD)]; dist.all_gather(ts, t)
        med = sorted(x.item() for x in ts)[WORLD // 2]
        if RANK == 0 and max(x.item() for x in ts) > 2.5 * med:
            slow = max(range(WORLD), key=lambda i: ts[i].item())
            jl("warning", "straggler", step=step, slow_rank=slow, ratio=round(max(x.item() for x in ts) / med, 2))

def run_callbacks(cbs, step, model):
    for cb in cbs:
        try:
            cb.on_step_end(step, model)
        except Exception as e:
            jl("error", "callback_failed", callback=type(cb).__name__, step=step, error=repr(e),
               traceback=traceback.format_exc())

dist.init_process_group("gloo")
jl("info", "start", world=WORLD)
model = nn.parallel.DistributedDataParallel(nn.Linear(12, 3)); opt = torch.optim.Adam(model.parameters(), 1e-2)
cbs = [StragglerMonitor(), EvalCallback()]
for step in range(50):
    if RANK == 1 and step in (20, 21): time.sleep(0.4)    # GC pause / noisy neighbour
    loss = nn.functional.cross_entropy(model(torch.randn(8, 12)), torch.randint(0, 3, (8,)))
    opt.zero_grad(); loss.backward(); opt.step()
    run_callbacks(cbs, step, model)
    if step % 10 == 0: jl("info", "train", step=step, loss=round(loss.item(), 4))
    time.sleep(0.05)
dist.monitored_barrier(timeout=__import__("datetime").timedelta(seconds=30))
jl("info", "finished", steps=50)
dist.destroy_process_group()
