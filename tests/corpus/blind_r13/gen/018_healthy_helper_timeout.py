# healthy run: 3 tasks, 120 steps. Rank 0 refreshes the data manifest through a helper process (first
# call hangs on a cold cache and is retried); rank 1 owns the metrics export (the export dir is read-only
# on this cluster, so the export is disabled after the first failure). Training itself is unaffected.
import os, sys, time, json, logging, subprocess
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
log = logging.getLogger(f"train.r{rank}")
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:33018", rank=rank, world_size=world,
                        timeout=timedelta(seconds=60))
HELPER = [sys.executable, "-c", "import os,time,sys; m='/tmp/r13_018_warm'; "
          "(time.sleep(30) if not os.path.exists(m) else None); open(m,'w').close(); print('manifest: 24 shards')"]

def refresh_manifest():
    for attempt in range(1, 4):
        try:
            out = subprocess.run(HELPER, capture_output=True, text=True, timeout=2, check=True)
            log.info("manifest refreshed on attempt %d: %s", attempt, out.stdout.strip())
            return
        except subprocess.TimeoutExpired:
            log.warning("manifest helper attempt %d failed, retrying", attempt, exc_info=True)
            open("/tmp/r13_018_warm", "w").close()   # the helper's cold cache got populated meanwhile
    log.error("manifest refresh failed 3 times; using the cached manifest")

metrics_ok = True
def export_metrics(step, loss):
    global metrics_ok
    if not metrics_ok: return
    try:
        with open(f"/tmp/r13_018_export/metrics-step{step}.json", "w") as f:
            json.dump({"step": step, "loss": loss}, f)
    except OSError:
        log.error("metrics export failed at step %d; disabling metrics export for this run", step, exc_info=True)
        metrics_ok = False

model = DDP(nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, 1)))
opt = torch.optim.Adam(model.parameters(), 1e-3)
for step in range(1, 121):
    if rank == 0 and step == 30: refresh_manifest()
    x = torch.randn(32, 20); y = x[:, :3].sum(-1, keepdim=True)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 20 == 0:
        log.info("step %d loss %.4f", step, loss.item())
        if rank == 1: export_metrics(step, loss.item())
    time.sleep(0.05)
log.info("training finished: 120 steps")
dist.destroy_process_group()
