# HEALTHY. torchrun --tee 3 --log-dir, 2 ranks. Real torch.amp.GradScaler("cpu") started at an
# absurd scale so the first steps overflow and are skipped (scale backs off: warm-up overflows
# are normal); one batch with a corrupted label weight gives a NaN loss that the loop detects
# and skips; validation every epoch; early stopping ends training with a message; exit 0.
import datetime, math, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"])
def p(msg): print(f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S,%f}"[:-3] + f" | {msg}", flush=True)

def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    X = torch.randn(1200, 10); w = torch.randn(10, 1); Y = X @ w + 0.3 * torch.randn(1200, 1)
    Xv, Yv = X[1000:], Y[1000:]; X, Y = X[rank * 500:(rank + 1) * 500], Y[rank * 500:(rank + 1) * 500]
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 127, growth_interval=1000)
    best, best_ep, bad, patience = float("inf"), -1, 0, 3
    gstep = 0
    for ep in range(1, 40):
        for b in range(0, 500, 25):
            gstep += 1
            x, y = X[b:b + 25], Y[b:b + 25]
            wts = torch.ones(len(x), 1)
            if ep == 2 and b == 175:
                wts[3] = float("nan")  # a corrupt sample weight in this batch
            loss = (wts * (model(x) - y) ** 2).mean()
            flag = torch.tensor([0.0 if math.isfinite(loss.item()) else 1.0]); dist.all_reduce(flag)
            if flag.item() > 0:
                p(f"WARNING rank{rank} non-finite loss at epoch {ep} step {gstep} (local loss={loss.item()}); skipping batch")
                opt.zero_grad(set_to_none=True); continue
            opt.zero_grad(); scaler.scale(loss).backward()
            before = scaler.get_scale(); scaler.step(opt); scaler.update(); after = scaler.get_scale()
            if after < before:
                p(f"WARNING rank{rank} gradient overflow at step {gstep}: skipping optimizer step, loss scale {before:.3g} -> {after:.3g}")
        with torch.no_grad():
            vl = ((model(Xv) - Yv) ** 2).mean().item()
        p(f"INFO rank{rank} epoch {ep} val_loss {vl:.4f} loss_scale {scaler.get_scale():.3g}")
        if vl < best - 1e-2:
            best, best_ep, bad = vl, ep, 0
            if rank == 0: torch.save(model.module.state_dict(), "best.pt"); p(f"INFO rank0 new best val_loss {vl:.4f}, saved best.pt")
        else:
            bad += 1
            if bad >= patience:
                p(f"INFO rank{rank} EarlyStopping: val_loss has not improved for {patience} epochs (best {best:.4f} at epoch {best_ep}). Stopping training.")
                break
        time.sleep(0.1)
    p(f"INFO rank{rank} done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
