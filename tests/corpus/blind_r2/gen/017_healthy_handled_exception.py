# Healthy run (mp.spawn, 3 ranks): rank 0 tries to resume from a checkpoint that does not exist and
# logs the full traceback with logger.exception, then starts from scratch; a metrics push to an
# unreachable endpoint is caught and logged; one step with a non-finite grad norm is skipped by the
# clipping guard (handled). Training completes and every process exits 0.
import logging, math, os, sys, time, urllib.request
from datetime import timedelta
import torch, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

def worker(rank, world):
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
        format=f"%(asctime)s [%(levelname)s] [rank {rank}] %(name)s - %(message)s")
    log = logging.getLogger("trainer")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    model = DDP(torch.nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    start = 0
    if rank == 0:
        try:
            ck = torch.load("/work/blind/r2/data/017/checkpoints/last.pt")
            start = ck["step"]
        except FileNotFoundError:
            log.exception("Could not resume from checkpoints/last.pt; starting from scratch")
        try:
            urllib.request.urlopen("http://127.0.0.1:9/metrics/push", timeout=2)
        except Exception as e:
            log.warning("metrics push failed (%s: %s); will retry at next log interval", type(e).__name__, e)
    skipped = 0
    for step in range(start + 1, 61):
        x = torch.randn(16, 10); y = x.sum(1, keepdim=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward()
        if step == 7:
            for p in model.parameters():
                p.grad.fill_(float("inf"))   # simulate one bad step (same on all ranks)
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if not math.isfinite(gn.item()):
            skipped += 1
            log.warning("step %d: grad norm is %s, skipping optimizer step (skipped so far: %d)", step, gn.item(), skipped)
            continue
        opt.step()
        if step % 15 == 0:
            log.info("step %d loss %.4f grad_norm %.3f", step, loss.item(), gn.item())
        time.sleep(0.03)
    dist.barrier()
    log.info("Training complete: 60 steps, %d skipped", skipped)
    dist.destroy_process_group()

if __name__ == "__main__":
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29627"
    mp.spawn(worker, args=(3,), nprocs=3)
    print("all workers exited cleanly", flush=True)
