# sbatch + srun -o %x-%j-%t.out -e %x-%j-%t.err, 4 tasks, job has `ulimit -n 256`.
# The dataset keeps every shard file handle open in a cache (never evicted). Ranks 0,2,3 read
# 48 big shard files; rank 1's slice of the index points at a directory of ~600 tiny files
# (an unmerged crawl dump), so rank 1 runs out of file descriptors -> EMFILE.
import os, sys, time, datetime
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])

class HandleCachedDataset:
    def __init__(self, files):
        self.files = files; self.handles = {}
    def read(self, i):
        f = self.files[i % len(self.files)]
        if f not in self.handles:
            self.handles[f] = open(f, "rb")
        h = self.handles[f]; h.seek(0)
        return np.frombuffer(h.read(64 * 4), dtype=np.float32)

def main():
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29713")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=30))
    root = os.environ["DATA_ROOT"]
    d = os.path.join(root, "crawl_dump" if rank == 1 else f"merged_{rank}")
    files = sorted(os.path.join(d, x) for x in os.listdir(d))
    print(f"{datetime.datetime.now().isoformat(timespec='milliseconds')} rank={rank} data_dir={d} files={len(files)}", flush=True)
    print(f"rank={rank} RLIMIT_NOFILE={os.sysconf('SC_OPEN_MAX')}", file=sys.stderr, flush=True)
    ds = HandleCachedDataset(files)
    model = nn.Linear(64, 16)
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(60):
        x = torch.from_numpy(np.stack([ds.read(step * 16 + j) for j in range(16)]))
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step()
        time.sleep(0.1)
        if step % 10 == 0:
            print(f"{datetime.datetime.now().isoformat(timespec='milliseconds')} rank={rank} step={step} loss={loss.item():.5f} open_handles={len(ds.handles)}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
