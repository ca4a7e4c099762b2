# Each rank logs JSON lines; at step 30 the rank named by STUCK_RANK refreshes a shared vocabulary cache under
# an exclusive flock that another (stale) process holds: it blocks in flock() and never logs again. The others
# wait in the next DDP all-reduce (the process group's default 30-minute timeout) until Slurm's time limit.
import datetime, fcntl, json, os, sys, time
import torch, torch.distributed as dist
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
def log(msg, **kw):
    print(json.dumps({"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "rank": rank, "msg": msg, **kw}), flush=True)
dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{os.environ['PORT']}", rank=rank, world_size=world)
model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(1, 100000):
    x = torch.randn(16, 32); y = torch.randn(16, 1)
    loss = torch.nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    time.sleep(0.05)
    if step % 10 == 0:
        log("train", step=step, loss=round(loss.item(), 4))
    if step == 30 and (os.environ.get("STUCK_RANK") == str(rank)):
        log("refreshing vocabulary cache", path=os.environ["LOCKFILE"])
        with open(os.environ["LOCKFILE"], "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            log("vocabulary cache refreshed")
