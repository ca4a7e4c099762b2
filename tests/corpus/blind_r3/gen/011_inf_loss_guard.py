# Regression on sensor readings. One reading in rank 3's shard is a raw
# sensor overflow value (3.4e+20) that the preprocessing did not clip; its
# squared error overflows float32 to inf. The training loop has a guard that
# raises FloatingPointError on a non-finite loss (before backward, so the inf
# never reaches the all-reduce). main() is wrapped with @record, so torchrun's
# summary carries the traceback. Prints carry an "R<rank>" prefix.
import os, time, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(8, 32), nn.SiLU(), nn.Linear(32, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(40):
        x = torch.randn(32, 8, generator=g)
        y = x[:, :1] * 2.0 - x[:, 1:2]
        if rank == 3 and step == 17:
            y[5, 0] = 3.4e20          # unclipped sensor overflow in this shard
        pred = model(x)
        loss = ((pred - y) ** 2).mean()
        if not torch.isfinite(loss):
            raise FloatingPointError(f"non-finite loss ({loss.item()}) at step {step}; aborting before backward")
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 4 == 0:
            print(f"R{rank} | step {step:4d} | mse {loss.item():9.5f} | lr 3.0e-03", flush=True)
        time.sleep(0.15)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
