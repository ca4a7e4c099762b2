# DDP MLP with a background prefetch thread that parses JSONL into batches.
import argparse
import glob
import json
import os
import queue
import threading
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Prefetcher:
    def __init__(self, path, batch_size, depth=4):
        self.path, self.batch_size = path, batch_size
        self.q = queue.Queue(maxsize=depth)
        self.t = threading.Thread(target=self._run, name="prefetch-0", daemon=True)
        self.t.start()

    def _parse(self, raw):
        rec = json.loads(raw.decode("utf-8"))
        return rec["x"], rec["label"]

    def _run(self):
        xs, ys = [], []
        with open(self.path, "rb") as f:
            for raw in f:
                x, y = self._parse(raw)
                xs.append(x)
                ys.append([y])
                if len(xs) == self.batch_size:
                    self.q.put((torch.tensor(xs), torch.tensor(ys)))
                    xs, ys = [], []
        self.q.put(None)

    def __iter__(self):
        while True:
            item = self.q.get()
            if item is None:
                return
            yield item


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data")
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--print-every", type=int, default=20)
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    torch.manual_seed(0)
    shard = sorted(glob.glob(os.path.join(args.data, "train-*.jsonl")))[rank]
    model = DDP(nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    t0 = time.time()
    for step, (x, y) in enumerate(Prefetcher(shard, args.bs), 1):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % args.print_every == 0:
            print(f"[{time.strftime('%H:%M:%S')}] rank {rank} step {step} loss {loss.item():.4f} "
                  f"({args.bs * step / (time.time() - t0):.0f} samples/s)")
        time.sleep(0.02)
    print(f"[{time.strftime('%H:%M:%S')}] rank {rank} epoch done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
