import json, os, time, math
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

rank = int(os.environ["RANK"])
def emit(level, msg, **kw):
    print(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "level": level, "rank": rank, "msg": msg, **kw}), flush=True)

def batches(seed):
    g = torch.Generator().manual_seed(seed)
    for i in range(1, 40):
        x = torch.randn(32, 20, generator=g) * 3
        if rank == 2 and i == 7:
            x[5, 3] = float("inf")          # one sensor row exported with an overflowed value
        yield i, x, x.sum(-1, keepdim=True)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    emit("INFO", "training started", shards=["sensors-2025-01", "sensors-2025-02", "sensors-2025-03"][rank])
    for step, x, y in batches(100 + rank):
        loss = nn.functional.mse_loss(model(x), y)
        if not torch.isfinite(loss):
            emit("ERROR", "non-finite loss, aborting", step=step, loss=str(loss.item()))
            raise FloatingPointError(f"loss is {loss.item()} at step {step}")
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 3 == 0:
            emit("INFO", "train", step=step, loss=round(loss.item(), 4))
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
