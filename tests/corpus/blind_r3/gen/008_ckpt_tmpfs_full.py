# Rank 0 shows a tqdm-style progress bar and saves a checkpoint at the end of
# every epoch to CKPT_DIR, which is a 1 MB tmpfs (mounted by the .sh) standing in
# for a nearly full scratch volume. The ~3 MB state dict does not fit, so
# torch.save on rank 0 fails with ENOSPC; rank 1 waits at the barrier after
# the save and loses its peer.
import os, sys, time, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

CKPT_DIR = os.environ["CKPT_DIR"]

def bar(epoch, i, n, t0, loss):
    frac = i / n; w = 20; full = int(frac * w)
    el = time.time() - t0; rate = i / el if el > 0 else 0.0
    rem = (n - i) / rate if rate else 0
    s = (f"\rEpoch {epoch}: {int(frac*100):3d}%|{'█'*full}{' '*(w-full)}| {i}/{n} "
         f"[{int(el)//60:02d}:{int(el)%60:02d}<{int(rem)//60:02d}:{int(rem)%60:02d}, {rate:.2f}it/s, loss={loss:.3f}]")
    sys.stderr.write(s); sys.stderr.flush()

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(128, 1024), nn.ReLU(), nn.Linear(1024, 128)))  # ~1 MB fp32, x3 with Adam
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    n = 20
    for epoch in range(3):
        t0 = time.time()
        for i in range(1, n + 1):
            x = torch.randn(32, 128, generator=g)
            loss = (model(x) - x).pow(2).mean()
            opt.zero_grad(); loss.backward(); opt.step()
            if rank == 0: bar(epoch, i, n, t0, loss.item())
            time.sleep(0.1)
        if rank == 0:
            sys.stderr.write("\n")
            path = os.path.join(CKPT_DIR, f"epoch{epoch:03d}.pt")
            print(f"saving checkpoint to {path}", flush=True)
            torch.save({"epoch": epoch, "model": model.module.state_dict(), "optim": opt.state_dict()}, path)
            print(f"saved {path} ({os.path.getsize(path)/1e6:.1f} MB)", flush=True)
        dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
