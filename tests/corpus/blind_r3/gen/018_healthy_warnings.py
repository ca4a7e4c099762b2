# HEALTHY run with scary-but-harmless warnings: deprecated torch.cuda.amp
# GradScaler on a CPU box ("CUDA is not available. Disabling"), DDP with
# find_unused_parameters=True but none unused, an LR scheduler stepped before
# the optimizer on the first iteration, and a user "WARNING" that NCCL is not
# available so gloo is used. Finishes normally with exit code 0.
import os, time, warnings, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend, timeout=datetime.timedelta(seconds=20))
    rank = dist.get_rank()
    if backend != "nccl" and rank == 0:
        print("WARNING: NCCL backend not available (no CUDA), falling back to gloo -- expect slow all-reduce", flush=True)
    torch.manual_seed(0)
    scaler = torch.cuda.amp.GradScaler()
    model = DDP(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)), find_unused_parameters=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    sched.step()   # (bug-ish but harmless ordering on the first iteration)
    g = torch.Generator().manual_seed(rank)
    for step in range(30):
        x = torch.randn(32, 16, generator=g); y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); scaler.scale(loss).backward(); scaler.step(opt); scaler.update(); sched.step()
        if step % 5 == 0:
            print(f"rank {rank} step {step} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f}", flush=True)
        time.sleep(0.1)
    dist.barrier()
    if rank == 0: print("training complete, final loss %.4f" % loss.item(), flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
