# 3 ranks, torchrun --tee 3 --log-dir, tqdm-style progress bar on rank 0 (stderr, \r updates).
# LR schedule bug: warmup factor (step/warmup)**2 is never capped at 1 after warmup, so the LR
# keeps growing quadratically; the loss climbs, overflows to inf, then NaN -- identically on
# every rank (DDP keeps replicas in sync). Every rank's finite-loss guard raises.
import math, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
PEAK_LR, WARMUP, TOTAL = 0.02, 10, 120

def lr_at(step):
    return PEAK_LR * (step / WARMUP) ** 2   # BUG: missing min(1.0, ...)

class Bar:
    def __init__(self, total): self.total, self.t0, self.n = total, time.time(), 0
    def update(self, n, **post):
        self.n = n; el = time.time() - self.t0; rate = n / max(el, 1e-6)
        pct = int(100 * n / self.total); fill = int(10 * n / self.total)
        rem = (self.total - n) / max(rate, 1e-6)
        p = ", ".join(f"{k}={v}" for k, v in post.items())
        sys.stderr.write(f"\rtrain: {pct:3d}%|{'█' * fill}{' ' * (10 - fill)}| {n}/{self.total} "
                         f"[{int(el)//60:02d}:{int(el)%60:02d}<{int(rem)//60:02d}:{int(rem)%60:02d}, {rate:.2f}it/s, {p}]")
        sys.stderr.flush()

def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=lr_at(1))
    g = torch.Generator().manual_seed(100 + rank)
    w_true = torch.randn(20, 1, generator=torch.Generator().manual_seed(7))
    bar = Bar(TOTAL) if rank == 0 else None
    if rank == 0:
        print(f"config: optimizer=sgd peak_lr={PEAK_LR} warmup_steps={WARMUP} schedule=poly2-warmup", flush=True)
    for step in range(1, TOTAL + 1):
        for pg in opt.param_groups: pg["lr"] = lr_at(step)
        x = torch.randn(32, 20, generator=g); y = x @ w_true
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
        opt.step()
        if bar: bar.update(step, loss=f"{loss.item():.3g}", lr=f"{lr_at(step):.3g}")
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4g} grad_norm {gn.item():.4g} lr {lr_at(step):.4g}", flush=True)
        if not math.isfinite(loss.item()):
            if bar: sys.stderr.write("\n")
            raise FloatingPointError(f"Loss is {loss.item()} at step {step} (lr={lr_at(step):.4g}, grad_norm={gn.item():.4g}); aborting")
        time.sleep(0.08)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
