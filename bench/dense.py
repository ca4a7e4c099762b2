#!/usr/bin/env python3
"""Benchmark `denpex diagnose` on error-dense logs: most or all lines are candidates.

A log where nearly every line holds one of the library's literals is the worst case for a
literal prefilter: every line reaches Python. This generates such logs from the library's own
kinds of lines and times them end to end (`denpex diagnose --json` as a process, peak RSS from
wait4) and the scan alone (`Matcher.scan` in a fresh interpreter, its own peak RSS), next to a
normal log from bench.py's generator for comparison. Prints a Markdown table.

Profiles:
  errors      every line an error line: `[rankN]: RuntimeError`, NCCL watchdog timeouts, CUDA OOM,
              NCCL WARN, lines with many literals, with and without timestamps (8 ranks)
  tracebacks  `Traceback (most recent call last)`, frames and the exception, repeated on 8 ranks
  ranks       the `errors` lines spread over 256 ranks (each rank's first events are kept)
  normal      bench.py's training log: a failure at the end of healthy chatter

    python bench/dense.py                           # every profile at 4, 16, 64 and 200 MB
    python bench/dense.py --sizes 16 --profiles errors --keep
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench as normal

OUT = Path(__file__).resolve().parent / "out"
PROFILES = ("errors", "tracebacks", "ranks", "normal")


def _stamp(step: int, rng: random.Random) -> str:
    return f"2026-11-30 {12 + step // 3600 % 12:02d}:{step // 60 % 60:02d}:{step % 60:02d},{rng.randrange(1000):03d}"


def _error_line(rng: random.Random, step: int, ranks: int) -> str:
    r = rng.randrange(ranks)
    kind = rng.randrange(7)
    if kind == 0:
        return f"[rank{r}]: RuntimeError: CUDA error: an illegal memory access was encountered (step {step})"
    if kind == 1:
        return (
            f"[rank{r}]:[E1130 13:{step // 60 % 60:02d}:{step % 60:02d}.{rng.randrange(10**9):09d} "
            f"ProcessGroupNCCL.cpp:616] [Rank {r}] Watchdog caught collective operation timeout: "
            f"WorkNCCL(SeqNum={step}, OpType=ALLREDUCE, NumelIn={rng.randrange(1, 1 << 24)}, NumelOut=1048576, "
            f"Timeout(ms)=600000) ran for {600000 + rng.randrange(100)} milliseconds before timing out."
        )
    if kind == 2:
        return (
            f"[rank{r}]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {rng.uniform(0.5, 9):.2f} GiB. "
            f"GPU {r % 8} has a total capacity of 79.10 GiB of which {rng.uniform(0, 2):.2f} GiB is free. Including "
            f"non-PyTorch memory, this process has {rng.uniform(70, 79):.2f} GiB memory in use."
        )
    if kind == 3:
        return (
            f"{_stamp(step, rng)} ERROR [rank{r}] fatal: Segmentation fault (core dumped) Aborted Killed "
            f"exitcode: 1 RuntimeError: Exception in thread FAILED error: NCCL error {step}"
        )
    if kind == 4:
        return f"gpu-node-{r // 8:02d}:{40000 + r}:{41000 + r} [{r % 8}] NCCL WARN Cuda failure 'out of memory'"
    if kind == 5:
        return (
            f"[rank{r}]: {_stamp(step, rng)} ERROR train: ValueError: Expected all tensors to be on the same "
            f"device, but found at least two devices, cuda:{r % 8} and cpu!"
        )
    return f"[rank{r}]: Traceback (most recent call last):"


def _traceback(rng: random.Random, step: int, ranks: int) -> list[str]:
    r = rng.randrange(ranks)
    p = f"[rank{r}]:"
    return [
        f"{p} Traceback (most recent call last):",
        f'{p}   File "/workspace/train.py", line {200 + step % 50}, in <module>',
        f"{p}     main()",
        f'{p}   File "/workspace/train.py", line {100 + step % 30}, in main',
        f"{p}     loss.backward()",
        f"{p} torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {rng.uniform(0.5, 9):.2f} GiB. "
        f"GPU {r % 8} has a total capacity of 79.10 GiB of which {rng.uniform(0, 2):.2f} GiB is free.",
        f"{p} [{_stamp(step, rng)}] step {step} failed, retrying",
    ]


def generate(path: Path, profile: str, size_mb: int, seed: int = 11) -> None:
    if profile == "normal":
        normal.generate(path, size_mb)
        return
    rng = random.Random(seed)
    target = size_mb << 20
    ranks = 256 if profile == "ranks" else 8
    step = 0
    with open(path, "w", encoding="utf-8") as fh:
        written = 0
        while written < target:
            block = []
            for _ in range(500):
                step += 1
                if profile == "tracebacks":
                    block.extend(_traceback(rng, step, ranks))
                else:
                    block.append(_error_line(rng, step, ranks))
            written += fh.write("\n".join(block) + "\n")


def in_process(path: Path) -> tuple[float, float, int, int]:
    """Matcher.scan alone, in a fresh interpreter (the compiled library from the cache): seconds, CPU seconds
    (what the scan costs when other processes share the machine), that interpreter's peak RSS, and how many
    events the scan kept."""
    proc = subprocess.run([sys.executable, __file__, "--child", str(path)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"in-process run failed: {proc.stderr[-500:]}")
    out = json.loads(proc.stdout)
    return out["seconds"], out["cpu"], out["rss"], out["events"]


def _child(path: str) -> None:
    import resource

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from signatures import default_matcher, open_sources

    matcher = default_matcher()
    started, cpu = time.perf_counter(), time.process_time()
    scan = matcher.scan(open_sources([path]))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rss": rss, "events": len(scan.events)}))


def _top(report: dict) -> str:
    if not report["diagnoses"]:
        return "none"
    d = report["diagnoses"][0]
    return f"{d['signature']} x{d['count']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 16, 64, 200], help="sizes in MiB")
    parser.add_argument("--profiles", nargs="+", choices=PROFILES, default=list(PROFILES))
    parser.add_argument("--keep", action="store_true", help="keep generated logs in bench/out/")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return 0
    OUT.mkdir(exist_ok=True)
    print(f"{os.cpu_count()} CPUs\n")
    print(
        "| profile | MB | lines | process s | process MB/s | process peak RSS | scan s | scan MB/s | scan CPU s "
        "| scan MB/s of CPU | scan peak RSS | events kept | top diagnosis |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    rows = []
    for profile in args.profiles:
        for size in args.sizes:
            path = OUT / f"dense_{profile}_{size}MB.log"
            if not path.exists():
                generate(path, profile, size)
            mb = path.stat().st_size / 1e6
            subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)  # a warm page cache for both
            seconds, rss, report = normal.run_denpex(path)
            inner, cpu, inner_rss, events = in_process(path)
            lines = report["stats"]["lines"]
            print(
                f"| {profile} | {mb:.0f} | {lines} | {seconds:.2f} | {mb / seconds:.0f} | {rss / 2**20:.0f} MB "
                f"| {inner:.2f} | {mb / inner:.0f} | {cpu:.2f} | {mb / cpu:.0f} | {inner_rss / 2**20:.0f} MB | {events} "
                f"| {_top(report)} |",
                flush=True,
            )
            rows.append(
                {
                    "profile": profile,
                    "mb": round(mb),
                    "lines": lines,
                    "seconds": round(seconds, 3),
                    "mb_per_s": round(mb / seconds, 1),
                    "peak_rss_mb": round(rss / 2**20),
                    "scan_seconds": round(inner, 3),
                    "scan_mb_per_s": round(mb / inner, 1),
                    "scan_cpu_seconds": round(cpu, 3),
                    "scan_mb_per_cpu_s": round(mb / cpu, 1),
                    "scan_peak_rss_mb": round(inner_rss / 2**20),
                    "events_kept": events,
                    "diagnosis": _top(report),
                }
            )
            if not args.keep:
                path.unlink()
    fits = _fits(rows)
    if fits:
        print(
            "\nScan CPU seconds against size, least squares over the sizes above: a bounded cost that does not grow "
            "with the log (each rank's first events, first use of lazily compiled regexes) and the rate of the rest.\n"
        )
        print("| profile | sizes | fixed s | marginal MB/s of CPU | worst residual s |")
        print("|---|---|---:|---:|---:|")
        for f in fits:
            print(
                f"| {f['profile']} | {f['sizes']} | {f['fixed_s']:.3f} | {f['marginal_mb_per_cpu_s']:.0f} "
                f"| {f['worst_residual_s']:.3f} |"
            )
    (OUT / "dense_results.json").write_text(json.dumps({"runs": rows, "fits": fits}, indent=2))
    return 0


def _fits(rows: list[dict]) -> list[dict]:
    """Per profile with two or more sizes: scan CPU seconds = fixed + MB / marginal rate, by least squares."""
    out = []
    for profile in dict.fromkeys(r["profile"] for r in rows):
        pts = [(r["mb"], r["scan_cpu_seconds"]) for r in rows if r["profile"] == profile]
        if len({x for x, _ in pts}) < 2:
            continue
        n = len(pts)
        mx, my = sum(x for x, _ in pts) / n, sum(y for _, y in pts) / n
        slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
        fixed = my - slope * mx
        out.append(
            {
                "profile": profile,
                "sizes": "/".join(str(x) for x, _ in pts),
                "fixed_s": round(fixed, 4),
                "marginal_mb_per_cpu_s": round(1 / slope, 1) if slope > 0 else float("inf"),
                "worst_residual_s": round(max(abs(y - fixed - slope * x) for x, y in pts), 4),
            }
        )
    return out


if __name__ == "__main__":
    sys.exit(main())
