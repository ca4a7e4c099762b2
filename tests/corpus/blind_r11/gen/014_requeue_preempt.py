# Long pretraining job with preemption-aware shutdown: on SIGTERM every rank agrees to stop at the
# end of the current step, rank 0 writes a resume checkpoint, and the job is requeued by the scheduler.
import os, sys, time, signal, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s | %(levelname)s | %(message)s")
log = logging.getLogger()
STOP = torch.zeros(1)
def on_term(signum, frame):
    log.warning("received signal %d (%s), will checkpoint and exit after this step", signum, signal.Signals(signum).name)
    STOP[0] = 1
signal.signal(signal.SIGTERM, on_term)

def main():
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    restarts = os.environ.get("SLURM_RESTART_COUNT", "0")
    log.info("rank %d/%d up, job %s restart_count=%s", rank, world, os.environ["SLURM_JOB_ID"], restarts)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 64)))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(1, 100000):
        x = torch.randn(128, 64)
        loss = nn.functional.mse_loss(model(x), x)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 25 == 0:
            log.info("step %d loss %.5f", step, loss.item())
        flag = STOP.clone(); dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        if flag.item() > 0:
            if rank == 0:
                path = os.path.join(os.environ["CKPT_DIR"], "resume.pt")
                torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, path)
                log.info("preemption checkpoint written at step %d: %s", step, path)
            log.info("rank %d exiting for requeue", rank)
            break
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
