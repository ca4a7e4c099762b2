"""Healthy-but-noisy trainer: skips non-finite steps collectively, retries a flaky metrics push, warns a lot."""
import datetime, os, sys, time, warnings, socket, math
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

E = os.environ.get
rank = int(E("RANK")); world = int(E("WORLD_SIZE"))
def log(m): print(f"[rank {rank}] {time.strftime('%H:%M:%S')} {m}", flush=True)

if E("CRASH_ONCE") and int(E("CRASH_ONCE")) == rank and not os.path.exists(E("MARKER")):
    open(E("MARKER"), "w").close()
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=15))
log(f"init ok, world={world}")
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1)))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(rank)
ds = TensorDataset(torch.randn(1024, 16, generator=g), torch.randn(1024, 1, generator=g))
dl = DataLoader(ds, batch_size=16, num_workers=int(E("NUM_WORKERS", "0")))
warnings.warn("torch.cuda.amp.GradScaler is enabled but CUDA is not available. Disabling.", UserWarning)
skipped = 0
steps = int(E("STEPS", "50"))
attempt = E("TORCHELASTIC_RESTART_COUNT", "0")
for step, (x, y) in enumerate(dl):
    if step >= steps:
        break
    if E("CRASH_ONCE") and int(E("CRASH_ONCE")) == rank and attempt == "0" and step == 10:
        raise ConnectionResetError(104, "Connection reset by peer (feature store, transient)")
    if E("BAD_SAMPLE") and step in (int(E("BAD_SAMPLE")), int(E("BAD_SAMPLE")) + 9) and rank == int(E("BAD_RANK", "0")):
        import json, traceback
        try:
            meta = json.loads('{"id": 1837, "text": "caf\\udce9", "len": }')
        except Exception:
            log(f"WARNING: failed to parse metadata for sample {step * 16 + 5}, skipping it")
            traceback.print_exc()
            x, y = x[1:], y[1:]
    out = model(x)
    loss = nn.functional.mse_loss(out, y)
    if E("NAN_AT") and step == int(E("NAN_AT")) and rank == int(E("NAN_RANK", "0")):
        loss = loss * float("nan")
    flag = torch.tensor([0.0 if torch.isfinite(loss) else 1.0])
    dist.all_reduce(flag)
    if flag.item() > 0:
        skipped += 1
        log(f"WARNING: non-finite loss detected (loss={loss.item()}) at step {step}; skipping this batch on all ranks ({skipped} skipped so far)")
        continue
    opt.zero_grad(); loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 10 == 0 and rank == 0:
        log(f"step {step} loss {loss.item():.4f} grad_norm {gn.item():.3f}")
    if E("FLAKY_PUSH") and rank == 0 and step == 20:
        for attempt_i in range(1, 4):
            try:
                s = socket.create_connection(("127.0.0.1", int(E("FLAKY_PUSH"))), timeout=2)
                s.close(); log("metrics pushed"); break
            except OSError as e:
                log(f"WARNING: metrics push failed ({e!r}); retrying in 1s (attempt {attempt_i}/3)")
                time.sleep(1)
        else:
            log("WARNING: giving up on metrics push for this interval, continuing training")
    time.sleep(0.03)
dist.barrier()
log(f"training complete: {steps} steps, {skipped} skipped batches")
dist.destroy_process_group()
