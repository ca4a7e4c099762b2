# long_train.py -- emergency checkpoint on SIGTERM (rank 0 writes it)
import os, sys, time, signal, logging, datetime, torch, torch.nn as nn, torch.distributed as dist
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format=f"[%(asctime)s][rank {rank}][%(levelname)s] %(message)s")
log = logging.getLogger()
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29816", rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=60))
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64)))
opt = torch.optim.Adam(model.parameters(), 1e-3)
state = {"step": 0}
def on_term(signum, frame):
    log.warning("received signal %d at step %d", signum, state["step"])
    if rank == 0:
        torch.save(model.module.state_dict(), os.environ["RUN_DIR"] + "/emergency.pt")
        log.warning("emergency checkpoint written")
    sys.exit(143)
signal.signal(signal.SIGTERM, on_term)
log.info("starting training for 5000 steps")
for step in range(5000):
    state["step"] = step
    x = torch.randn(128, 64)
    loss = (model(x) - x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 50 == 0: log.info("step %d loss %.5f", step, loss.item())
    time.sleep(0.02)
log.info("training complete")
