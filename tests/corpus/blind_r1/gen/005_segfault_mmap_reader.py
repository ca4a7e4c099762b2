# DDP MLP reading samples zero-copy from a memory-mapped record file via an offset index.
import argparse
import ctypes
import mmap
import os
import time
from datetime import datetime, timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

REC_FLOATS = 25  # 24 features + 1 target
REC_BYTES = REC_FLOATS * 4


class MmapRecords:
    def __init__(self, data_path, index_path):
        self._f = open(data_path, "rb")
        # private copy-on-write mapping so ctypes can take the address of the buffer
        self._mm = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_COPY)
        self._base = ctypes.addressof(ctypes.c_char.from_buffer(self._mm))
        self.offsets = torch.load(index_path)

    def __len__(self):
        return len(self.offsets)

    def batch(self, start, n):
        out = torch.empty(n, REC_FLOATS)
        dst = out.data_ptr()
        for j in range(n):
            off = int(self.offsets[start + j])
            ctypes.memmove(dst + j * REC_BYTES, self._base + off, REC_BYTES)
        return out[:, :24], out[:, 24:]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--batch-size", type=int, default=32)
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    torch.manual_seed(0)
    ds = MmapRecords(os.path.join(args.data, f"part-{rank}.rec"), os.path.join(args.data, f"part-{rank}.idx"))
    print(f"{datetime.now():%H:%M:%S} rank {rank}: mapped {len(ds)} records")
    model = DDP(nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1, args.steps + 1):
        x, y = ds.batch((step - 1) * args.batch_size, args.batch_size)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"{datetime.now():%H:%M:%S} rank {rank}: step {step} loss={loss.item():.4f}")
        time.sleep(0.02)
    print(f"{datetime.now():%H:%M:%S} rank {rank}: done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
