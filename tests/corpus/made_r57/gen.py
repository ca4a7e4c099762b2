"""A tiny gloo job for Flight Recorder JSON dumps (CPU PyTorch 2.13): every rank all-reduces once a step; the rank
named by BAD blocks at step AT (mode hang) or every rank raises at step AT after its collective (mode raise). Each
rank writes torch._C._distributed_c10d._dump_fr_trace_json() to $OUT/fr_trace_rank_<rank>.json when its collective
fails or when torchrun's SIGTERM reaches it. Run with TORCH_FR_BUFFER_SIZE=2000 (see run.sh)."""

import datetime
import os
import signal
import sys
import time

import torch
import torch.distributed as dist

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=8))
rank = dist.get_rank()
mode, bad, at = os.environ.get("MODE", "hang"), int(os.environ.get("BAD", "1")), int(os.environ.get("AT", "3"))


def dump(why):
    with open(f"{os.environ['OUT']}/fr_trace_rank_{rank}.json", "wb") as f:
        f.write(torch._C._distributed_c10d._dump_fr_trace_json())
    print(f"[rank{rank}]: flight recorder dumped ({why})", file=sys.stderr, flush=True)


signal.signal(signal.SIGTERM, lambda *_: (dump("SIGTERM"), sys.exit(143)))
for step in range(6):
    if mode == "hang" and rank == bad and step == at:
        print(f"[rank{rank}]: entering custom eval hook", flush=True)
        time.sleep(3600)
    t = torch.ones(4)
    try:
        dist.all_reduce(t)
    except Exception:
        dump("collective failure")
        raise
    print(f"[rank{rank}]: step {step} loss {1.0 / (step + 1):.4f}", flush=True)
    if mode == "raise" and step == at:
        dump("before raising")
        raise ValueError(f"bad record at step {step}")
dist.destroy_process_group()
