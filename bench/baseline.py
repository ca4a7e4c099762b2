#!/usr/bin/env python3
"""Benchmark the diff against a good run (`denpex diagnose --baseline`): time and peak memory to hold a good run
and to compare a failed run with it, by size. The good and failed logs are bench.py's training log, generated
twice with other seeds (other numbers, the same program); the failed one ends in bench.py's planted failure.
Each size runs in a fresh interpreter (its own peak RSS). Prints a Markdown table.

    python bench/baseline.py                # 64, 256 and 1024 MB
    python bench/baseline.py --sizes 64
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench as normal

OUT = Path(__file__).resolve().parent / "out"


def _child(good: str, failed: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from signatures import open_sources
    from signatures._baseline import Baseline

    cpu = time.process_time()
    base = Baseline(open_sources([good]))
    build = time.process_time() - cpu
    cpu = time.process_time()
    diff = base.compare(open_sources([failed]))
    compare = time.process_time() - cpu
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    first = diff.new[0].text[:60] if diff.new else ""
    print(json.dumps({"build": build, "compare": compare, "rss": rss, "new": diff.new_total, "first": first}))


def _cut_before(path: Path, marker: bytes) -> None:
    """Truncate `path` at the start of the line holding `marker`, if it does."""
    with open(path, "r+b") as fh:
        offset, carry = 0, b""
        while chunk := fh.read(1 << 20):
            data = carry + chunk
            found = data.find(marker)
            if found >= 0:
                fh.truncate(offset - len(carry) + data.rfind(b"\n", 0, found) + 1)
                return
            carry = data[-len(marker) :]
            offset += len(chunk)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024], help="sizes in MiB")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return 0
    OUT.mkdir(exist_ok=True)
    print(f"{os.cpu_count()} CPUs\n")
    print(
        "| size | good run held (CPU s) | MB/s | failed run compared (CPU s) | MB/s | peak RSS | new messages | first |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for size in args.sizes:
        good, failed = OUT / f"baseline_good_{size}MB.log", OUT / f"baseline_failed_{size}MB.log"
        for path, seed in ((good, 1), (failed, 2)):
            if not path.exists():
                normal.generate(path, size, seed=seed)
        # the good run ends where the failed one fails: keep its planted failure out of the good run
        # (read a megabyte at a time: a child's peak RSS on Linux starts from its parent's at the fork)
        _cut_before(good, b"Traceback")
        proc = subprocess.run(
            [sys.executable, __file__, "--child", str(good), str(failed)], capture_output=True, text=True, check=True
        )
        r = json.loads(proc.stdout)
        mb = failed.stat().st_size / 1e6
        print(
            f"| {mb:.0f} MB | {r['build']:.2f} | {good.stat().st_size / 1e6 / r['build']:.0f} | {r['compare']:.2f} "
            f"| {mb / r['compare']:.0f} | {r['rss'] / 2**20:.0f} MB | {r['new']} | `{r['first']}` |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
