#!/usr/bin/env python3
"""Benchmark the watch's incremental reader: a poll costs what was appended, not what the log holds.

1. A log grown to --size MiB (bench.py's interleaved 8-rank training chatter, a pre-rendered block
   written again and again so generating is fast), then a watch's first look (it reads everything:
   the catch-up), then --polls polls each after --grow MiB more. Later polls must cost what --grow
   MiB costs: the table shows a fresh watch reading a --grow MiB log once, for comparison.
   The same again with one line in each growth that holds a literal of the library, so the
   diagnosis runs on the new 10 MiB (plain training chatter holds none: it is not diagnosed).
2. --files logs with some history each, then one poll over all of them after a few lines were
   appended to each: plain step lines, and lines that hold one of the library's literals (so the
   diagnosis runs on every file).

Times are in-process (the Watcher, not the CLI's start-up), the page cache is warm (the log was
just written), and this machine runs other jobs: medians of the polls, with their range. Prints a
Markdown table.

    python bench/watch.py                     # a 4 GiB log, 10 MiB per poll, 200 files
    python bench/watch.py --size 200          # a quick run
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench as chatter
from bot.config import WatchSection
from bot.watching import Watcher
from signatures import default_matcher

MiB = 1 << 20
# fp16 warm-up chatter that holds one of the library's literals: new output with it is diagnosed
OVERFLOW = b"[rank0]: [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768\n"


class Steps:
    """Training chatter with increasing step numbers, rendered in blocks."""

    def __init__(self, seed: int = 7):
        self.rng = random.Random(seed)
        self.step = 1

    def block(self, size: int) -> bytes:
        lines: list[str] = []
        written = 0
        while written < size:
            batch = chatter._chatter(self.rng, self.step)
            self.step += 1
            lines += batch
            written += sum(len(line) + 1 for line in batch)
        return ("\n".join(lines) + "\n").encode()


def grow(path: Path, size: int, steps: Steps) -> None:
    """Append `size` bytes: one 4 MiB block rendered once and written again (fast), then fresh steps at the end."""
    block = steps.block(4 * MiB)
    with open(path, "ab") as fh:
        while size > len(block) * 2:
            size -= fh.write(block)
        fh.write(steps.block(size))


def timed_poll(watcher: Watcher) -> tuple[float, int]:
    started = time.perf_counter()
    watcher.poll()
    return time.perf_counter() - started, watcher.bytes_read


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} s ({min(values):.3f}–{max(values):.3f})"


def bot_watches(work: Path, jobs: int, polls: int, matcher) -> list[tuple[str, str, str]]:
    """The bot's side: `jobs` watches in one SQLite store (bot/watching/jobs.py), each a running job with its
    own log, and one tick of the ticker looking at all of them (each poll's state and alerts committed with
    it): what must fit in the configured interval."""
    from bot.config import Config
    from bot.fetch import JobFacts
    from bot.store import Store
    from bot.watching.jobs import JobWatches

    config = Config.model_validate({"clusters": {"local": {"kind": "slurm", "allow": ["*"]}}})
    logs = work / "jobs"
    logs.mkdir()
    steps = [Steps(1000 + j) for j in range(jobs)]
    for j, st in enumerate(steps):
        (logs / f"slurm-{j + 1}.out").write_bytes(st.block(64 << 10))
    clock = [time.time()]

    def status(ref, _config, **_):
        return JobFacts(job_id=ref.job_id, state="RUNNING"), [logs / f"slurm-{ref.job_id}.out"]

    store = Store(work / "denpex.db")
    watches = JobWatches(config, store, matcher, deliver=lambda _id: None, status=status, clock=lambda: clock[0])
    for j in range(jobs):
        store.add_watch("local", str(j + 1), "C1", f"1.{j}", "U1", clock[0])
    rows = []
    for label, extra in (("first look (64 KiB of history each)", b""), ("~2 KiB of step lines each", b"")):
        times = []
        for _ in range(1 if "first" in label else polls):
            if "first" not in label:
                for j, st in enumerate(steps):
                    with open(logs / f"slurm-{j + 1}.out", "ab") as fh:
                        fh.write(st.block(2 << 10) + extra)
            clock[0] += 60
            started = time.perf_counter()
            watches.tick()
            times.append(time.perf_counter() - started)
        looked = sum(1 for j in range(jobs) if (store.watch(j + 1) or {}).get("polls"))
        rows.append((f"the bot: {jobs} watched jobs, one tick, {label} ({looked} looked at)", "", spread(times)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=4096, help="the big log, MiB (default 4096)")
    parser.add_argument("--grow", type=int, default=10, help="MiB appended before each later poll (default 10)")
    parser.add_argument("--polls", type=int, default=5, help="later polls (default 5)")
    parser.add_argument("--files", type=int, default=200, help="files watched at once (default 200)")
    parser.add_argument("--dir", help="where the logs are written (default: a temporary directory)")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="denpex-watch-bench-", dir=args.dir))
    matcher = default_matcher()
    config = WatchSection()
    rows: list[tuple[str, str, str]] = []
    try:
        log, steps = work / "train.log", Steps()
        started = time.perf_counter()
        grow(log, args.size * MiB, steps)
        print(f"wrote {log.stat().st_size / MiB:.0f} MiB in {time.perf_counter() - started:.1f} s", file=sys.stderr)

        watcher = Watcher([str(log)], config, matcher)
        seconds, read = timed_poll(watcher)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        rows.append(
            (
                f"first poll of a {args.size} MiB log (the catch-up)",
                f"{read / MiB:.0f} MiB",
                f"{seconds:.2f} s ({read / MiB / seconds:.0f} MiB/s), peak RSS {rss:.0f} MiB",
            )
        )
        for label, extra in (("", b""), (" ending with a line with a library literal (the diagnosis runs)", OVERFLOW)):
            later, later_read = [], []
            for _ in range(args.polls):
                grow(log, args.grow * MiB - len(extra), steps)
                with open(log, "ab") as fh:
                    fh.write(extra)
                seconds, read = timed_poll(watcher)
                later.append(seconds)
                later_read.append(read)
            rows.append(
                (
                    f"later polls, +{args.grow} MiB each{label} (median of {args.polls}, range)",
                    f"{statistics.median(later_read) / MiB:.1f} MiB",
                    spread(later),
                )
            )

        fresh = []
        for i in range(args.polls):  # the same bytes as a log of their own, read once by a new watch
            small = work / f"small{i}.log"
            grow(small, args.grow * MiB, steps)
            fresh.append(timed_poll(Watcher([str(small)], config, matcher))[0])
            small.unlink()
        rows.append(
            (
                f"a new watch's first poll of a {args.grow} MiB log (what {args.grow} MiB costs)",
                f"{args.grow} MiB",
                spread(fresh),
            )
        )

        logs = work / "ranks"
        logs.mkdir()
        rank_steps = [Steps(seed) for seed in range(args.files)]
        for r, st in enumerate(rank_steps):
            (logs / f"rank{r}.log").write_bytes(st.block(64 << 10))
        many = Watcher([str(logs)], config, matcher)
        seconds, read = timed_poll(many)
        rows.append(
            (f"{args.files} files, first poll (64 KiB of history each)", f"{read / MiB:.1f} MiB", f"{seconds:.2f} s")
        )
        for label, extra in (("step lines", b""), ("step lines and a line with a library literal", OVERFLOW)):
            times, reads = [], []
            for _ in range(args.polls):
                for r, st in enumerate(rank_steps):
                    with open(logs / f"rank{r}.log", "ab") as fh:
                        fh.write(st.block(2 << 10) + extra)
                seconds, read = timed_poll(many)
                times.append(seconds)
                reads.append(read)
            rows.append(
                (
                    f"{args.files} files, one poll after ~2 KiB of {label} each (median of {args.polls})",
                    f"{statistics.median(reads) / 1024:.0f} KiB",
                    spread(times),
                )
            )
        rows += bot_watches(work, args.files, args.polls, matcher)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"{os.cpu_count()} CPUs, {len(matcher.library.signatures)} signatures, interval {config.interval}\n")
    print("| measure | bytes read | time |")
    print("|---|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
