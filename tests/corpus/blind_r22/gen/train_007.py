# 007: 3 plain python processes, env:// init, JSON-lines logging to stdout, each process's
# stdout+stderr in its own file. Rank 1 was started with CFG pointing at a stale config
# (hidden=48, others 32) -> DDP's parameter-shape verification fails at construction.
import os, sys, json, time, logging, traceback, torch, torch.distributed as dist
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model
rank = int(os.environ["RANK"])
class JsonFmt(logging.Formatter):
    def format(self, rec):
        d = {"ts": self.formatTime(rec), "level": rec.levelname, "rank": rank, "logger": rec.name, "msg": rec.getMessage()}
        if rec.exc_info: d["exc"] = self.formatException(rec.exc_info)
        return json.dumps(d)
h = logging.StreamHandler(sys.stdout); h.setFormatter(JsonFmt())
logging.basicConfig(level=logging.INFO, handlers=[h]); log = logging.getLogger("job")
cfg = json.load(open(os.environ["CFG"]))
log.info("loaded config %s: %s", os.environ["CFG"], cfg)
dist.init_process_group("gloo", timeout=timedelta(seconds=30))
log.info("process group ready (world=%d)", dist.get_world_size())
model = tiny_model(hidden=cfg["hidden"])
try:
    model = DDP(model)
except Exception:
    log.exception("failed to wrap model in DDP")
    raise
opt = torch.optim.SGD(model.parameters(), lr=0.1)
log.info("starting training")
for step in range(20):
    x = torch.randn(8, 16); loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    log.info("step %d loss %.4f", step, loss.item())
