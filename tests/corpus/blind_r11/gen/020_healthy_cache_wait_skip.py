# Regression job: rank 0 builds the shared feature-cache index while the others wait for it; updates
# with a non-finite loss are skipped on all ranks together (found_inf is all-reduced, as AMP does).
import os, sys, json, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-8s %(name)s:%(lineno)d %(message)s")
log = logging.getLogger(f"rank{rank}")
CACHE = os.environ["CACHE_DIR"]

def build_index():
    time.sleep(4)                                         # scanning the raw files
    tmp = os.path.join(CACHE, "index.json.tmp")
    json.dump({"n_rows": 48000, "features": 16}, open(tmp, "w")); os.replace(tmp, os.path.join(CACHE, "index.json"))

def wait_index(tries=10):
    for i in range(1, tries + 1):
        try:
            return json.load(open(os.path.join(CACHE, "index.json")))
        except FileNotFoundError:
            log.warning("feature cache index not ready yet (attempt %d/%d), waiting 1s", i, tries, exc_info=(i == 1))
            time.sleep(1)
    raise RuntimeError("feature cache index never appeared")

def main():
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world, timeout=timedelta(seconds=30))
    if rank == 0:
        log.info("building feature cache index in %s", CACHE); build_index(); log.info("index written")
    meta = wait_index()
    log.info("cache: %s", meta)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    skipped = 0
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 81):
        x = torch.randn(64, 16, generator=g); y = x[:, :4].sum(1, keepdim=True)
        if rank == 2 and step == 33:
            x[5, 3] = 3e38                                # corrupted sensor reading in this shard
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward()
        found_inf = torch.tensor([0.0 if torch.isfinite(loss) else 1.0])
        dist.all_reduce(found_inf)
        if found_inf.item() > 0:
            skipped += 1
            log.warning("step %d: non-finite loss on %d rank(s) (local loss=%s), skipping update (%d skipped so far)",
                        step, int(found_inf.item()), loss.item(), skipped)
            continue
        opt.step()
        if step % 20 == 0:
            with torch.no_grad():
                xv = torch.randn(256, 16, generator=g); err = (model(xv) - xv[:, :4].sum(1, keepdim=True)).abs().mean()
            log.info("step %d train_loss=%.4f val_abs_error=%.4f skipped=%d", step, loss.item(), err.item(), skipped)
        time.sleep(0.05)
    log.info("done: 80 steps, %d skipped", skipped)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
