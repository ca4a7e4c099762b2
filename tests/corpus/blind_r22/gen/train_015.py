# 015: torchrun, 3 ranks, Flight Recorder on (TORCH_FR_BUFFER_SIZE). Each rank dumps its FR
# trace to ${TORCH_FR_DUMP_TEMP_FILE}<rank> when it fails or is terminated (the job's own
# hook; gloo has no watchdog dump). Every 8 steps an eval all-reduces [sum_loss, count];
# rank 1's eval shard is empty and the code skips the all_reduce when count == 0, so rank 1
# goes straight into the next training step's gradient allreduce.
import os, sys, time, signal, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
r = dist.get_rank()
def dump_fr(*_):
    p = os.environ["TORCH_FR_DUMP_TEMP_FILE"] + str(r)
    with open(p, "wb") as f: f.write(torch._C._distributed_c10d._dump_fr_trace())
    print(f"flight recorder trace written to {p}", file=sys.stderr, flush=True)
def on_term(signum, frame):
    dump_fr(); sys.exit(128 + signum)
signal.signal(signal.SIGTERM, on_term)
model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
eval_n = {0: 32, 1: 0, 2: 32}[r]          # rank 1 got no eval samples (eval split / world mismatch)
try:
    for step in range(1, 40):
        x, y = batch(step, r); loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        print(f"rank={r} step={step} loss={loss.item():.4f}", flush=True)
        if step % 8 == 0:
            with torch.no_grad():
                s = sum(F.cross_entropy(model(batch(1000 + k, r)[0]), batch(1000 + k, r)[1]).item() for k in range(eval_n // 8))
            m = torch.tensor([s, float(eval_n)])
            if eval_n > 0:                    # bug: every rank must join the collective
                dist.all_reduce(m)
            print(f"rank={r} eval step={step} val_loss={m[0].item() / max(m[1].item(), 1):.4f}", flush=True)
        time.sleep(0.2)
except Exception:
    dump_fr(); raise
