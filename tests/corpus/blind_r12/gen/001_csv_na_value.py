# tabular regression; each rank reads its own CSV shard
import os, csv, logging, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger("tabtrain")

def make_shards(d, world):
    os.makedirs(d, exist_ok=True)
    g = torch.Generator().manual_seed(0)
    for r in range(world):
        p = f"{d}/part-{r:05d}.csv"
        if os.path.exists(p): continue
        with open(p, "w") as f:
            w = csv.writer(f); w.writerow([f"f{i}" for i in range(8)] + ["y"])
            for i in range(400):
                row = torch.randn(9, generator=g).tolist()
                vals = [f"{v:.4f}" for v in row]
                if r == 1 and i == 233: vals[5] = "N/A"   # upstream export wrote a missing value
                w.writerow(vals)

def rows(path):
    with open(path) as f:
        rd = csv.reader(f); next(rd)
        for row in rd:
            yield [float(x) for x in row]

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    rank, world = dist.get_rank(), dist.get_world_size()
    if rank == 0: make_shards("data", world)
    dist.barrier()
    model = DDP(nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batch, buf, step = [], [], 0
    log.info("rank %d/%d reading data/part-%05d.csv", rank, world, rank)
    for epoch in range(2):
        for r in rows(f"data/part-{rank:05d}.csv"):
            buf.append(r)
            if len(buf) == 16:
                t = torch.tensor(buf); buf = []
                loss = nn.functional.mse_loss(model(t[:, :8]).squeeze(-1), t[:, 8])
                opt.zero_grad(); loss.backward(); opt.step(); step += 1
                if step % 5 == 0: log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
                time.sleep(0.05)
    log.info("done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
