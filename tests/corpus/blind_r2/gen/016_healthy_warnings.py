# Healthy run: finishes normally, but prints several real, scary-looking warnings.
# Warnings produced: DDP find_unused_parameters (no unused params), lr_scheduler.step() before
# optimizer.step(), torch.tensor(tensor) copy-construct, torchrun OMP_NUM_THREADS notice.
import sys, time, warnings
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2)),
                find_unused_parameters=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=30)
    sched.step()
    base = torch.randn(4)
    _ = torch.tensor(base)
    total = 60
    t0 = time.time()
    for step in range(1, total + 1):
        x = torch.randn(16, 32); y = torch.randint(0, 2, (16,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        if rank == 0:
            n = step * 25 // total
            sys.stderr.write(f"\rEpoch 0: {step*100//total:3d}%|{'█'*n}{' '*(25-n)}| {step}/{total} [{time.time()-t0:4.1f}s, loss={loss.item():.3f}]")
            sys.stderr.flush()
        time.sleep(0.05)
    if rank == 0:
        sys.stderr.write("\n")
        err = 0.5 - 0.3 * torch.rand(1).item()
        print(f"validation: val_loss=0.6921 val_error={err:.3f} (no improvement for 0 epochs; early-stop patience=3)", flush=True)
        print("saved final checkpoint to /tmp/blindr2_016_final.pt (errors=0, timeouts=0)", flush=True)
        torch.save(model.module.state_dict(), "/tmp/blindr2_016_final.pt")
    dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
