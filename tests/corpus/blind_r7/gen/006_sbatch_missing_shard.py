# finetune.py -- each rank loads its own preprocessed shard
import os, sys, time, logging, datetime, torch, torch.nn as nn, torch.distributed as dist
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-7s %(name)s - %(message)s")
log = logging.getLogger("finetune")
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
DATA = os.environ["DATA_DIR"]
dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{os.environ['MASTER_PORT']}",
                        rank=rank, world_size=world, timeout=datetime.timedelta(seconds=45))
log.info("job %s task %d/%d pid %d", os.environ.get("SLURM_JOB_ID"), rank, world, os.getpid())
model = nn.Sequential(nn.Linear(128, 256), nn.GELU(), nn.Linear(256, 4))
for p in model.parameters(): dist.broadcast(p.data, 0)
log.info("model synced from rank 0 (%d params)", sum(p.numel() for p in model.parameters()))
time.sleep(0.5 * rank)  # (startup jitter)
path = os.path.join(DATA, f"train-{rank:05d}-of-{world:05d}.pt")
log.info("loading shard %s", path)
shard = torch.load(path)
X, Y = shard["x"], shard["y"]
log.info("shard has %d examples", len(X))
opt = torch.optim.Adam(model.parameters(), 1e-3)
for ep in range(2):
    for i in range(0, len(X), 32):
        loss = nn.functional.cross_entropy(model(X[i:i+32]), Y[i:i+32])
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad); p.grad /= world
        opt.step()
    log.info("epoch %d loss %.4f", ep, loss.item())
log.info("finished")
