# single-process tabular model, SGDR (cosine with warm restarts every 150 steps).
# restart_peak_lr in the sweep config is 5e-1 (meant 5e-4); the first cycle uses base_lr 1e-3.
import time, math, sys
import torch, torch.nn as nn

torch.manual_seed(0)
X = torch.randn(4096, 32); w = torch.randn(32, 1)
Y = X @ w + 0.05 * torch.randn(4096, 1)
model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
BASE_LR, RESTART_PEAK_LR, CYCLE = 1e-3, 5e-1, 150
best, bad = float("inf"), 0
t0 = time.time()
for step in range(1, 601):
    cyc, pos = divmod(step - 1, CYCLE)
    peak = BASE_LR if cyc == 0 else RESTART_PEAK_LR
    lr = 0.5 * peak * (1 + math.cos(math.pi * pos / CYCLE))
    for gr in opt.param_groups: gr["lr"] = lr
    idx = torch.randint(0, 4096, (128,))
    loss = nn.functional.mse_loss(model(X[idx]), Y[idx])
    opt.zero_grad(); loss.backward(); opt.step()
    l = loss.item()
    best = min(best, l)
    bad = bad + 1 if l > 3 * best else 0
    if step % 10 == 0:
        print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} step {step:4d} lr {lr:.2e} loss {l:.4f} best {best:.4f} ({time.time()-t0:.1f}s)", flush=True)
    if bad >= 60:
        print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} early abort: loss {l:.4f} has stayed above 3x the best loss ({best:.4f}) for {bad} steps", flush=True)
        sys.exit(2)
    time.sleep(0.01)
print("finished", flush=True)
