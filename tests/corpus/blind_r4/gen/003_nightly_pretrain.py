import os, sys, time, math
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
local = int(os.environ["LOCAL_RANK"])

def _harness_memory_cap():
    # evaluation harness only: give one worker a 300 MB memory cgroup so the
    # kernel OOM killer really fires on it (simulates a small-RAM node/limit)
    cg = os.environ.get("R4_CG")
    if cg and rank == int(os.environ.get("R4_CG_RANK", "-1")):
        with open(os.path.join(cg, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

def bar(i, n, t0, loss):
    frac = i / n; w = 20; full = int(frac * w)
    el = time.time() - t0; rate = i / el if el else 0
    eta = (n - i) / rate if rate else 0
    sys.stderr.write(f"\rpretrain: {int(frac*100):3d}%|{'█'*full}{' '*(w-full)}| {i}/{n} "
                     f"[{int(el)//60:02d}:{int(el)%60:02d}<{int(eta)//60:02d}:{int(eta)%60:02d}, {rate:.2f}it/s, loss={loss:.3f}]")
    sys.stderr.flush()

def main():
    _harness_memory_cap()
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    print(f"[{os.uname().nodename}] worker {rank}/{world} (local {local}) up", flush=True)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.Linear(512, 256)))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
    keep = []   # "debug" capture of hidden states for the attention-entropy probe
    n = 60; t0 = time.time()
    for i in range(1, n + 1):
        x = torch.randn(64, 256)
        y = model(x)
        loss = (y - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if local == 1:
            keep.append(torch.randn(40 * 1024 * 1024 // 4))   # probe buffer never freed
        if rank == 0:
            bar(i, n, t0, loss.item())
        time.sleep(0.25)
    if rank == 0:
        sys.stderr.write("\n"); print("finished", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
