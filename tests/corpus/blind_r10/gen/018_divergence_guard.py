# small LM-ish regression; LR schedule with warmup; divergence guard aborts the run
import os, math, logging, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

PEAK_LR, WARMUP, STEPS = 0.03, 40, 400     # PEAK_LR meant to be 3e-4 (typo in the sweep yaml)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [rank{rank}] %(levelname)s %(message)s")
    log = logging.getLogger()
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 32)))
    opt = torch.optim.SGD(model.parameters(), lr=PEAK_LR, momentum=0.95)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / WARMUP))
    W = torch.randn(32, 32) / math.sqrt(32)
    g = torch.Generator().manual_seed(rank)
    best, bad = float("inf"), 0
    for step in range(STEPS):
        x = torch.randn(64, 32, generator=g) * 3
        loss = nn.functional.mse_loss(model(x), (x @ W) * 4)
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        gl = loss.detach().clone(); dist.all_reduce(gl); gl = gl.item() / world
        if rank == 0 and step % 10 == 0:
            log.info("step %d loss %.4f lr %.5f", step, gl, sched.get_last_lr()[0])
        best = min(best, gl)
        if gl > 1.5 * best and step > WARMUP:
            bad += 1
            if bad >= 20:
                log.error("loss %.3f is %.1fx the best loss %.3f for %d consecutive steps", gl, gl / best, best, bad)
                raise RuntimeError(f"training diverged at step {step}: loss {gl:.3f} (best {best:.3f})")
        else:
            bad = 0
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
