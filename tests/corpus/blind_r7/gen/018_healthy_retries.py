# train_robust.py -- retries flaky reads, clips grad spikes, warns a lot, but finishes
import os, time, random, logging, warnings, datetime, torch, torch.nn as nn, torch.distributed as dist
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("robust")
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29818", rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=60))
_flaky = {"n": 0}
def read_sample(i):
    if rank == 1 and i in (7, 31) and _flaky["n"] < 2:
        _flaky["n"] += 1
        raise OSError(5, "Input/output error", f"/mnt/lustre/ds/shard-0001/{i:06d}.bin")
    return torch.randn(32)
def read_with_retry(i, tries=3):
    for t in range(1, tries + 1):
        try:
            return read_sample(i)
        except OSError:
            log.exception("read of sample %d failed (attempt %d/%d), retrying in 0.2s", i, t, tries)
            time.sleep(0.2)
    raise RuntimeError("giving up")
model = nn.parallel.DistributedDataParallel(nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
if rank == 0:
    w = torch.tensor(model.module.weight)   # triggers a UserWarning (copy-construct)
    warnings.warn("lr_scheduler.step() called before optimizer.step(); skipping first value", UserWarning)
for step in range(40):
    x = torch.stack([read_with_retry(step * 4 + k) for k in range(4)])
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    if step == 17 and rank == 2:
        log.warning("grad norm spike %.3e at step %d (clipped to 1.0)", gn.item() * 1e3, step)
    opt.step()
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss.item())
    time.sleep(0.03)
if rank == 0:
    try:
        import wandb  # optional
    except ImportError as e:
        log.error("wandb not available, metrics will only be written locally: %r", e)
dist.barrier()
log.info("training complete")
dist.destroy_process_group()
