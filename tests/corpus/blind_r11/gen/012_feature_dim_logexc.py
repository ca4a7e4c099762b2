# Tabular CTR model trained on per-rank feature shards (.npy). Errors in the step are logged and the
# worker exits with a non-zero status (the team's "fail loudly" wrapper).
import os, sys, glob, time, logging
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s.%(msecs)03d %(levelname)s rank{rank} %(module)s - %(message)s",
                    datefmt="%H:%M:%S")
logger = logging.getLogger("ctr")
logger.info("stdout goes to the log dir; warnings and errors stay on the console")

def batches(files, bs=64):
    for f in files:
        arr = np.load(f)
        for i in range(0, len(arr) - bs + 1, bs):
            b = torch.from_numpy(arr[i:i + bs]).float()
            yield f, b[:, :-1], b[:, -1]

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    files = sorted(glob.glob(os.path.join(os.environ["FEATURES"], f"part-r{rank}-*.npy")))
    print(f"rank{rank}: {len(files)} feature files", flush=True)
    model = DDP(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    step = 0
    for src, x, y in batches(files):
        step += 1
        try:
            logit = model(x).squeeze(-1)
            loss = nn.functional.binary_cross_entropy_with_logits(logit, y)
            opt.zero_grad(); loss.backward(); opt.step()
        except Exception:
            logger.exception("training step %d failed (batch from %s)", step, os.path.basename(src))
            sys.exit(1)
        if step % 10 == 0:
            print(f"rank{rank} step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
        if step == 90: break
    print(f"rank{rank} done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
