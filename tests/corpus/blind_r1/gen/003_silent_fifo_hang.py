# DDP MLP streaming pre-tokenized chunks from a shared data directory.
import argparse
import logging
import os
import signal
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("trainer")


def dump_flight_recorder(reason):
    """Write this rank's c10d Flight Recorder buffer next to TORCH_FR_DUMP_TEMP_FILE."""
    prefix = os.environ.get("TORCH_FR_DUMP_TEMP_FILE")
    if not prefix or not dist.is_initialized():
        return
    import torch._C._distributed_c10d as c10d
    path = f"{prefix}{dist.get_rank()}"
    with open(path, "wb") as f:
        f.write(c10d._dump_fr_trace())
    log.warning("flight recorder dumped to %s (%s)", path, reason)


def on_sigterm(signum, frame):
    dump_flight_recorder("SIGTERM")
    sys.exit(128 + signum)


def chunk_reader(root, rank, batch_size):
    """Yield (x, y) batches from root/rank{rank}/chunk_XXXX.bin files in order."""
    files = sorted(os.listdir(os.path.join(root, f"rank{rank}")))
    for name in files:
        with open(os.path.join(root, f"rank{rank}", name), "rb") as f:
            buf = f.read()
        t = torch.frombuffer(bytearray(buf), dtype=torch.float32).view(-1, 17)
        for i in range(0, t.shape[0] - batch_size + 1, batch_size):
            b = t[i:i + batch_size]
            yield b[:, :16], b[:, 16:]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="/tmp/blindwork/shared_data")
    p.add_argument("--steps", type=int, default=240)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--log-every", type=int, default=10)
    args = p.parse_args()

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s.%(msecs)03d %(levelname)s %(name)s [%(process)d] rank=" + str(rank) + " %(message)s",
                        datefmt="%Y-%m-%d %H:%M:%S")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 96), nn.Tanh(), nn.Linear(96, 96), nn.Tanh(), nn.Linear(96, 1)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    log.info("world=%d data=%s batch=%d", world, args.data, args.batch_size)

    signal.signal(signal.SIGTERM, on_sigterm)
    batches = chunk_reader(args.data, rank, args.batch_size)
    t_last = time.time()
    try:
        for step in range(1, args.steps + 1):
            x, y = next(batches)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % args.log_every == 0:
                now = time.time()
                log.info("step %d loss %.4f step_time %.1fms", step, loss.item(), (now - t_last) / args.log_every * 1000)
                t_last = now
            time.sleep(0.02)
    except Exception:
        dump_flight_recorder("exception in training loop")
        raise
    log.info("training complete")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
