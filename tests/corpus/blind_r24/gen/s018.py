# 018: rank 2 doubles as the metrics rank and reads a config key that was renamed
# (eval_interval -> eval_every); KeyError at its first eval.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

CFG = {"train": {"lr": 0.02, "steps": 40}, "metrics": {"eval_every": 8, "rank": 2}}

@record
def main():
    rank, world = lib.init(timeout=30)
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=CFG["train"]["lr"])
    for step in range(1, CFG["train"]["steps"] + 1):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        if rank == CFG["metrics"]["rank"] and step % CFG["metrics"]["eval_interval"] == 0:
            print("eval ...", flush=True)
        time.sleep(0.1)

if __name__ == "__main__":
    main()
