# HEALTHY. sbatch + srun --label, 3 tasks. Manual dynamic loss scaling with fp16 gradient
# overflow checks: a few "Gradient overflow. Skipping step" at warm-up (scale starts at 2^20),
# a burst of mislabeled samples at steps 140-145 makes the loss spike ~5x, it recovers.
# tqdm-like \r progress bar on rank 0's stderr. Exit 0.
import os, sys, time, datetime, math
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])

def main():
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29718")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    W = torch.randn(16, 4)
    model = nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 4))
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scale = 2.0 ** 20; good = 0
    g = torch.Generator().manual_seed(rank)
    total = 420; t0 = time.time()
    for step in range(1, total + 1):
        x = torch.randn(64, 16, generator=g); y = x @ W
        if 140 <= step <= 145:
            y = y[torch.randperm(64, generator=g)] * 4      # bad shard: shuffled, rescaled targets
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); (loss * scale).backward()
        for p in model.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        overflow = any(not torch.isfinite(p.grad.half()).all() for p in model.parameters())
        if overflow:
            scale /= 2; good = 0
            if rank == 0:
                print(f"\n[{datetime.datetime.now():%H:%M:%S}] Gradient overflow. Skipping step, loss scale reduced to {scale:.1f}", flush=True)
            continue
        for p in model.parameters(): p.grad /= scale
        opt.step(); good += 1
        if good == 100: scale *= 2; good = 0
        if rank == 0:
            n = int(30 * step / total); el = time.time() - t0
            sys.stderr.write(f"\rEpoch 1: {100*step//total:3d}%|{'█'*n}{' '*(30-n)}| {step}/{total} [{el:.0f}s<{el/step*(total-step):.0f}s, loss={loss.item():.3f}, scale={scale:.0f}]")
            sys.stderr.flush()
        if step % 20 == 0 or 138 <= step <= 150:
            print(f"step {step} rank {rank} loss {loss.item():.4f}", flush=True)
        time.sleep(0.04)
    dist.barrier()
    if rank == 0: print(f"\nTraining complete. final loss {loss.item():.3f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
