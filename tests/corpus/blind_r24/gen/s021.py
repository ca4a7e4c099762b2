# 021: "new best validation loss" is decided per rank (local val loss) instead of on the reduced
# value; at step 8 only rank 1 thinks it has a new best and broadcasts its weights, the others
# go straight to the next gradient all_reduce.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=25)
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    best = float("inf")
    for step in range(1, 31):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        print(f"{time.strftime('%H:%M:%S')} step={step} loss={loss.item():.4f}", flush=True)
        if step % 4 == 0:
            with torch.no_grad():
                vx, vy = lib.batch(30_000 + step, rank)
                val = torch.nn.functional.mse_loss(m(vx), vy).item()
            print(f"{time.strftime('%H:%M:%S')} val_loss={val:.4f} best={best:.4f}", flush=True)
            if val < best and step > 4:
                print(f"{time.strftime('%H:%M:%S')} new best, syncing weights from this rank", flush=True)
                for p in m.parameters():
                    dist.broadcast(p.data, src=rank)
            best = min(best, val)
        time.sleep(0.1)

if __name__ == "__main__":
    main()
