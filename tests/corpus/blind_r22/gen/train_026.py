# 026 HEALTHY: mp.spawn, 2 ranks, tqdm-like \r progress bars on both ranks, a numpy
# non-writable-array warning, an epoch-end eval and a checkpoint. Completes.
import os, sys, time, numpy as np, torch, torch.distributed as dist
import torch.multiprocessing as mp, torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model
def run(rank, world, out):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="27260")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=30))
    rng = np.random.default_rng(rank)
    X = rng.standard_normal((256, 16)).astype(np.float32); X.setflags(write=False)
    Y = rng.integers(0, 4, 256)
    xs = torch.from_numpy(X)                     # UserWarning: non-writable array
    ys = torch.from_numpy(Y)
    model = DDP(tiny_model()); opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(2):
        t0 = time.time()
        for i in range(0, 256, 16):
            loss = F.cross_entropy(model(xs[i:i+16]), ys[i:i+16])
            opt.zero_grad(); loss.backward(); opt.step()
            n = i // 16 + 1
            sys.stderr.write(f"\rEpoch {epoch} [rank {rank}]: {100*n//16:3d}%|{'█'*n}{' '*(16-n)}| {n}/16 [{time.time()-t0:.2f}s, loss={loss.item():.3f}]")
            sys.stderr.flush(); time.sleep(0.08)
        sys.stderr.write("\n")
        with torch.no_grad():
            acc = (model(xs).argmax(1) == ys).float().mean()
        a = acc.clone(); dist.all_reduce(a)
        print(f"epoch {epoch} done on rank {rank}: train_acc={a.item()/world:.3f}", flush=True)
    if rank == 0:
        torch.save(model.module.state_dict(), os.path.join(out, "model.pt")); print("checkpoint written", flush=True)
    dist.barrier(); dist.destroy_process_group()
if __name__ == "__main__":
    mp.spawn(run, args=(2, sys.argv[1]), nprocs=2)
    print("all workers finished")
