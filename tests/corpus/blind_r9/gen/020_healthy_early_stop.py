# fine-tune with dynamic loss scaling (emulated), a non-finite-batch guard, validation, and early stopping
import os, sys, time, math, warnings, datetime
import torch, torch.distributed as dist
rank = int(os.environ["SLURM_PROCID"]); ws = int(os.environ["SLURM_NTASKS"])
def main():
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=ws, timeout=datetime.timedelta(seconds=30))
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(24, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-2)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 20))
    warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call them in the opposite order", UserWarning)
    scale = 65536.0
    g = torch.Generator().manual_seed(rank)
    w = torch.randn(24, 1, generator=torch.Generator().manual_seed(7))
    best, bad_evals, patience = float("inf"), 0, 3
    step = 0
    for epoch in range(1, 50):
        for _ in range(15):
            step += 1
            x = torch.randn(32, 24, generator=g); y = x @ w + 0.5 * torch.randn(32, 1, generator=g)
            if rank == 2 and step == 37:
                x[0, 0] = float("nan")
            loss = torch.nn.functional.mse_loss(model(x), y)
            bad = torch.tensor([0.0 if torch.isfinite(loss) else 1.0]); dist.all_reduce(bad)
            if bad.item() > 0:
                print(f"WARNING: non-finite loss (nan) at step {step} on {int(bad.item())} rank(s), skipping batch", flush=True)
                continue
            opt.zero_grad(); loss.backward()
            if step in (1, 2, 3):
                scale /= 2
                print(f"| WARNING: overflow detected, setting loss scale to: {scale}", flush=True)
                continue
            opt.step(); sched.step()
            time.sleep(0.02)
        # validation (converges then plateaus -> early stop)
        with torch.no_grad():
            xv = torch.randn(256, 24, generator=torch.Generator().manual_seed(99)); val = torch.nn.functional.mse_loss(model(xv), xv @ w + 0.5 * torch.randn(256, 1, generator=torch.Generator().manual_seed(98)))
        vt = val.clone(); dist.all_reduce(vt); vt /= ws
        v = round(vt.item(), 3)
        if rank == 0:
            print(f"epoch {epoch:3d} | step {step:5d} | train_loss {loss.item():.4f} | val_loss {v:.3f} | lr {sched.get_last_lr()[0]:.2e} | loss_scale {scale}", flush=True)
        if v < best - 0.01:
            best, bad_evals = v, 0
        else:
            bad_evals += 1
            if rank == 0:
                print(f"val_loss did not improve ({v:.3f} >= best {best:.3f}); patience {bad_evals}/{patience}", flush=True)
            if bad_evals >= patience:
                if rank == 0:
                    print(f"Early stopping at epoch {epoch}: no improvement for {patience} evaluations. Best val_loss {best:.3f}.", flush=True)
                break
    dist.barrier(); dist.destroy_process_group()
    print(f"rank {rank} exiting normally", flush=True)
if __name__ == "__main__":
    main()
