# Rank 0 writes a checkpoint every 25 steps to a small scratch filesystem (1 MB tmpfs) that fills up.
import os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

CKPT_DIR = "/work/blind/r2/full005/ckpt"

def bar(rank, step, total, loss, t0):
    if rank != 0:
        return
    frac = step / total
    n = int(30 * frac)
    el = time.time() - t0
    sys.stderr.write(f"\rtrain: {int(frac*100):3d}%|{'#'*n}{' '*(30-n)}| {step}/{total} [{el:05.1f}s, {step/el:.2f}it/s, loss={loss:.3f}]")
    sys.stderr.flush()

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(128, 512), torch.nn.Tanh(), torch.nn.Linear(512, 128)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    total = 100
    t0 = time.time()
    for step in range(1, total + 1):
        x = torch.randn(32, 128)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        bar(rank, step, total, loss.item(), t0)
        time.sleep(0.05)
        if step % 25 == 0:
            if rank == 0:
                os.makedirs(CKPT_DIR, exist_ok=True)
                path = f"{CKPT_DIR}/step_{step:06d}.pt"
                sys.stderr.write("\n"); print(f"saving checkpoint to {path}", flush=True)
                torch.save({"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step}, path)
                print(f"saved {path} ({os.path.getsize(path)/1e6:.2f} MB)", flush=True)
            dist.barrier()
    if rank == 0:
        sys.stderr.write("\n")
    print(f"rank {rank} finished", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
