# 020: torchrun --log-dir --redirects 3, @record (error.json). Every rank opens its data
# files without closing them (leak); rank 3's shard is split into many small files
# (5 per step vs 1), so under the job's `ulimit -n 256` it is the one that runs out.
import os, sys, time, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
DATA = os.environ["DATA_DIR"]
_handles = []                      # bug: handles kept for a "lazy" mmap cache, never closed
def read_piece(path):
    f = open(path, "rb"); _handles.append(f)
    return f.read(64)
@record
def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    r = dist.get_rank()
    model = DDP(tiny_model()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
    per_step = 5 if r == 3 else 1
    for step in range(200):
        for k in range(per_step):
            read_piece(os.path.join(DATA, f"r{r}", f"part-{(step * per_step + k) % 50:04d}.bin"))
        x, y = batch(step, r); loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"[{time.strftime('%Y-%m-%d %H:%M:%S')}] step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
