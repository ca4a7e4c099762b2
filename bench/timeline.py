#!/usr/bin/env python3
"""Benchmark the timeline picture (bot/timeline.py) for jobs of 10 to 1,000 ranks.

Each job is written as real logs, one file per rank plus the launcher's, in the line shapes of
examples/job_812345.tar.gz: NCCL's start-up lines (the host), a step line every 50 steps, rank 3's CUDA
OOM traceback at 12:10:05, every other rank's NCCL watchdog timeout ten minutes later (a second apart at
most), one rank that never timed out, two that timed out four minutes after the rest, and torchrun's
record of rank 0 aborting. The job is diagnosed with the bundled library (`signatures.diagnose`), and its
timeline drawn: in this process after a first picture (warm: what the bot pays per picture), and as the first
picture of a fresh interpreter (cold: matplotlib's import and font loading included, what `denpex diagnose
--timeline` pays). Prints a Markdown
table; --out DIR keeps the pictures.

    python bench/timeline.py                      # 10, 100 and 1000 ranks
    python bench/timeline.py --ranks 1000 --out /tmp/pictures
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import signatures  # noqa: E402
from bot import timeline  # noqa: E402

OOM_RANK = 3
STEP_SECONDS = 0.33
COLD = """
import pickle, sys, time
from bot import timeline
tl = pickle.load(open(sys.argv[1], "rb"))
started = time.perf_counter()
timeline.render(tl)
print(time.perf_counter() - started)
"""  # a fresh interpreter that has diagnosed (signatures is imported): the picture's first cost, matplotlib's import


def _stamp(seconds: float) -> str:
    """2026-11-30 12:00:00 plus `seconds`, as Python's logging writes it."""
    whole = int(seconds)
    return f"2026-11-30 {12 + whole // 3600:02d}:{whole // 60 % 60:02d}:{whole % 60:02d},{int(seconds % 1 * 1000):03d}"


def _nccl_stamp(seconds: float) -> str:
    whole = int(seconds)
    return f"E1130 {12 + whole // 3600:02d}:{whole // 60 % 60:02d}:{whole % 60:02d}.{int(seconds % 1 * 1e6):06d}"


def rank_log(rank: int, world: int, rng: random.Random) -> str:
    host, local = f"gpu-node-{rank // 8:03d}", rank % 8
    lines = [
        f"{_stamp(0.2)} INFO [rank{rank}] train: world_size={world} backend=nccl model=llama-7b micro_batch=4",
        f"{host}:{5000 + rank}:{5000 + rank} [{local}] NCCL INFO Bootstrap : Using ib0:10.0.{rank // 8}.1<0>",
        f"{host}:{5000 + rank}:{5000 + rank} [{local}] NCCL INFO comm 0x7f3 rank {rank} nranks {world} cudaDev "
        f"{local} busId 18000 - Init COMPLETE",
    ]
    last = 1800 if rank == OOM_RANK else 1795
    for step in range(50, last + 1, 50):
        lines.append(
            f"{_stamp(6 + step * STEP_SECONDS + rng.random())} INFO [rank{rank}] train: step {step} loss "
            f"{2.9 - step / 1000:.4f} lr 3.00e-04 grad_norm 0.8 412 ms/step"
        )
    if rank == OOM_RANK:
        p = f"[rank{rank}]:"
        lines += [
            f"{_stamp(605.9)} INFO [rank{rank}] train: step 1801: sequence length 8192 (packed), batch tokens 32768",
            f"{p} Traceback (most recent call last):",
            f'{p}   File "/workspace/train.py", line 160, in main',
            f"{p}     loss = model(**batch).loss",
            f"{p} torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB. GPU {local} has a total "
            "capacity of 79.14 GiB of which 6.12 GiB is free.",
        ]
    elif rank != world // 2 + 1:  # that one never times out: it sat in something else
        late = 240 if rank in (world - 2, world - 1) and world > 8 else 0
        at = _nccl_stamp(1205 + late + rng.random())
        lines += [
            f"[rank{rank}]:[{at} ProcessGroupNCCL.cpp:616] [Rank {rank}] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=21604, OpType=ALLREDUCE, NumelIn=65536000, NumelOut=65536000, "
            "Timeout(ms)=600000) ran for 600047 milliseconds before timing out.",
            f"[rank{rank}]:[{at} ProcessGroupNCCL.cpp:636] [Rank {rank}] To avoid data inconsistency, we are "
            "taking the entire process down.",
        ]
    return "\n".join(lines) + "\n"


LAUNCHER = """W1130 12:20:07.200000 71 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 80 closing \
signal SIGTERM
E1130 12:20:07.900000 71 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) local_rank: 0 \
(pid: 80) of binary: /usr/bin/python3
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
Root Cause (first observed failure):
[0]:
  time      : 2026-11-30_12:20:07
  host      : gpu-node-000
  rank      : 0 (local_rank: 0)
  exitcode  : -6 (pid: 80)  (SIGABRT)
"""


def write_job(directory: Path, world: int, seed: int = 1) -> Path:
    """A failed job of `world` ranks as per-rank logs in `directory` (see the module's docstring)."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    for rank in range(world):
        (directory / f"rank{rank}.log").write_text(rank_log(rank, world, rng))
    (directory / "launcher.log").write_text(LAUNCHER)
    return directory


def measure(world: int, out: Path | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        job = write_job(Path(tmp) / f"job_{world}", world)
        started = time.perf_counter()
        report = signatures.diagnose([str(job)])
        scan = time.perf_counter() - started
        tl = report.timeline
        assert tl is not None, "no timeline for the generated job"
        timeline.render(tl)  # the first picture loads matplotlib and its fonts
        warm = []
        for _ in range(5):
            started = time.perf_counter()
            png = timeline.render(tl)
            warm.append(time.perf_counter() - started)
        dump = Path(tmp) / "timeline.pickle"
        dump.write_bytes(pickle.dumps(tl))
        cold = subprocess.run(
            [sys.executable, "-c", COLD, str(dump)], cwd=ROOT, capture_output=True, text=True, check=True
        )
    if out:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"timeline_{world}.png").write_bytes(png)
    return {
        "ranks": world,
        "rows": len(timeline.layout(tl)),
        "scan": scan,
        "warm": statistics.median(warm),
        "cold": float(cold.stdout.split()[-1]),
        "bytes": len(png),
        "caption": signatures.timeline_caption(tl),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--out", type=Path, help="keep the pictures here")
    args = parser.parse_args()
    print(f"{timeline.WIDTH} x {timeline.HEIGHT} px PNG\n")
    print("| ranks | rows drawn | diagnosis | picture | first picture (matplotlib's import included) | PNG |")
    print("|---:|---:|---:|---:|---:|---:|")
    for world in args.ranks:
        m = measure(world, args.out)
        print(
            f"| {m['ranks']} | {m['rows']} | {m['scan']:.2f} s | {m['warm']:.3f} s | {m['cold']:.2f} s "
            f"| {m['bytes'] / 1024:.0f} KB |",
            flush=True,
        )
        print(f"<!-- {m['caption']} -->")


if __name__ == "__main__":
    main()
