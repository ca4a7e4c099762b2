"""A run that logs full tracebacks of exceptions it catches and handles (INFO/DEBUG level)."""
import json, logging, os, socket, sys
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
logging.basicConfig(level=logging.DEBUG, format=f"%(asctime)s %(levelname)-5s [r{rank}] %(name)s - %(message)s")
for noisy in ("urllib3", "matplotlib"):
    logging.getLogger(noisy).setLevel(logging.WARNING)
log = logging.getLogger("trainer")
try:
    import apex  # noqa: F401
    fused = True
except ImportError:
    log.debug("apex not installed, falling back to torch.optim.AdamW", exc_info=True)
    fused = False

def push_metrics(d):
    try:
        s = socket.create_connection(("127.0.0.1", 58990), timeout=1)
        s.sendall(json.dumps(d).encode()); s.close()
    except OSError:
        log.info("metrics push to 127.0.0.1:58990 failed; metrics are kept locally and retried later", exc_info=True)

records = ['{"x": 1}', '{"x": 2', '{"x": 3}']
def parse(r):
    try:
        return json.loads(r)
    except json.JSONDecodeError:
        log.info("skipping malformed metadata record %r (handled)", r, exc_info=True)
        return None
meta = [m for m in (parse(r) for r in records) if m]
log.info("loaded %d/%d metadata records", len(meta), len(records))
model = DDP(MLP()); opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
x, y = make_data(seed=12)
for step in range(60):
    i = (step * 32) % 448
    loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32]); opt.zero_grad(); loss.backward(); opt.step()
    if step % 15 == 0:
        log.info("step %d loss %.4f", step, loss.item())
        if rank == 0:
            push_metrics({"step": step, "loss": loss.item()})
log.info("training finished: 60 steps, final loss %.4f", loss.item())
dist.barrier(); dist.destroy_process_group()
