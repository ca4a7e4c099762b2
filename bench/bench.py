#!/usr/bin/env python3
"""Benchmark `denpex diagnose` on a generated multi-rank training log.

Generates an interleaved 8-rank log of the requested sizes (step lines, NCCL INFO
chatter, benign warnings, warm-up loss-scale overflows) with a failure planted
near the end (a CUDA OOM on rank 3, then NCCL watchdog timeouts on the other
ranks and torchrun's teardown), runs the installed `denpex diagnose --json` on
it as a separate process, and reports throughput, peak RSS (from wait4), and the
diagnosis. When `rg` is installed, it times ripgrep over the same patterns the
library confirms, and prints denpex's speed as a ratio of ripgrep's.

    python bench/bench.py                      # 128 MB, 512 MB and 1 GB
    python bench/bench.py --sizes 64 --keep    # one size, keep the file
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RANKS = 8
OUT = Path(__file__).resolve().parent / "out"


def _chatter(rng: random.Random, step: int) -> list[str]:
    lines = []
    for rank in range(RANKS):
        lines.append(
            f"[rank{rank}]: 2026-11-30 12:{step // 60 % 60:02d}:{step % 60:02d},{rng.randrange(1000):03d} INFO "
            f"train: step {step} | loss {2.5 / (1 + step / 5000) + rng.random() * 0.05:.4f} | lr 3.00e-04 "
            f"| grad_norm {0.5 + rng.random():.3f} | tokens/s {rng.randrange(90000, 110000)} | {random_ms(rng)} ms/step"
        )
    if step % 7 == 0:
        r = rng.randrange(RANKS)
        lines.append(
            f"gpu-node-0{r // 4}:{40000 + r}:{41000 + r} [{r % 4}] NCCL INFO Channel {rng.randrange(32):02d}/0 : "
            f"{r} -> {(r + 1) % RANKS} via P2P/CUMEM/read"
        )
    if step % 97 == 0:
        lines.append(
            f"[rank{rng.randrange(RANKS)}]: /usr/lib/python3.11/site-packages/torch/utils/checkpoint.py:91: "
            "UserWarning: None of the inputs have requires_grad=True. Gradients will be None"
        )
    if step % 503 == 0:
        lines.append(
            f"[rank{rng.randrange(RANKS)}]: [2026-11-30 12:00:00,000] [INFO] [logging.py:96:log_dist] "
            f"[Rank 0] step={step}, skipped=0, lr=[0.0003], mom=[(0.9, 0.95)]"
        )
    return lines


def random_ms(rng: random.Random) -> str:
    return f"{rng.uniform(180, 220):.1f}"


def _prologue() -> list[str]:
    lines = [
        "W1130 11:59:58.000000 4242 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default",
    ]
    for rank in range(RANKS):
        lines.append(
            f"gpu-node-0{rank // 4}:{40000 + rank}:{40000 + rank} [{rank % 4}] NCCL INFO NCCL version 2.21.5+cuda12.4"
        )
        lines.append(
            f"[rank{rank}]: [2026-11-30 12:00:00,000] [INFO] [stage_1_and_2.py:148:__init__] Reduce bucket size 500000000"
        )
    for step in range(1, 9):
        r = step % RANKS
        lines.append(
            f"[rank{r}]: [2026-11-30 12:00:0{step},000] [INFO] [loss_scaler.py:183:update_scale] "
            f"[deepspeed] OVERFLOW! Rank {r} Skipping step. Attempted loss scale: {2 ** (17 - step)}, reducing to {2 ** (16 - step)}"
        )
    return lines


def _failure(step: int) -> list[str]:
    t = f"2026-11-30 13:{step // 60 % 60:02d}"
    lines = [
        "[rank3]: Traceback (most recent call last):",
        '[rank3]:   File "/workspace/train.py", line 211, in <module>',
        "[rank3]:     loss.backward()",
        "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of "
        "79.10 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 78.03 GiB memory in use.",
    ]
    for rank in range(RANKS):
        if rank == 3:
            continue
        lines.append(
            f"[rank{rank}]:[E1130 13:10:0{rank}.000000000 ProcessGroupNCCL.cpp:616] [Rank {rank}] Watchdog caught "
            f"collective operation timeout: WorkNCCL(SeqNum={step * 3}, OpType=ALLREDUCE, NumelIn=1048576, "
            "NumelOut=1048576, Timeout(ms)=600000) ran for 600031 milliseconds before timing out."
        )
    lines.append(
        f"W1130 13:10:10.000000 4242 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 4250 closing signal SIGTERM  {t}"
    )
    lines.append(
        "E1130 13:10:11.000000 4242 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
        "local_rank: 3 (pid: 4253) of binary: /usr/bin/python3"
    )
    return lines


def generate(path: Path, size_mb: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    target = size_mb << 20
    # A pool of pre-rendered steps keeps generation fast; step numbers stay increasing.
    with open(path, "w", encoding="utf-8") as fh:
        written = fh.write("\n".join(_prologue()) + "\n")
        step = 1
        while written < target - (64 << 10):
            block = []
            for _ in range(200):
                block.extend(_chatter(rng, step))
                step += 1
            written += fh.write("\n".join(block) + "\n")
        written += fh.write("\n".join(_failure(step)) + "\n")


def run_denpex(path: Path) -> tuple[float, int, dict]:
    exe = shutil.which("denpex")
    cmd = (
        [exe, "diagnose", "--json", "-q", str(path)]
        if exe
        else [sys.executable, "-m", "bot.cli", "diagnose", "--json", "-q", str(path)]
    )
    started = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        assert proc.stdout is not None  # stdout=PIPE
        out = proc.stdout.read()  # not communicate(): it would reap the child before wait4 reads its usage
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak RSS
        elapsed = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            raise SystemExit(f"denpex failed ({code}): {err.read().decode()[-500:]}")
    return elapsed, usage.ru_maxrss * 1024, json.loads(out)


def library_regexes() -> list[str]:
    """The regexes the matcher confirms, in a form ripgrep accepts (single-line ones)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from signatures import ERRORLIKE, default_library

    out = []
    for sig in default_library().signatures:
        pats = list(sig.patterns) + (sig.absence.start if sig.absence else [])
        for p in pats:
            if "\\n" in p.regex or p.lines_before:
                continue  # multi-line patterns need rg -U, which changes its speed class
            # rg joins the patterns into one alternation: group names must not repeat
            out.append(("(?i)" if p.caseless else "") + re.sub(r"\(\?P<\w+>", "(", p.regex))
    out += [rx for _, rx in ERRORLIKE]
    return out


_NEEDLESS_ESCAPE = re.compile(r"\\([/'\"<>!@%=:,;`~#&])")


def ripgrep_patterns(patterns: list[str]) -> tuple[list[str], list[str]]:
    """The patterns in a form rg accepts (older rg rejects escapes RE2 allows, such as \\/), and those it rejects."""
    rg = shutil.which("rg")
    if rg is None:
        return [], list(patterns)
    ok: list[str] = []
    rejected: list[str] = []
    for pat in patterns:
        pat = _NEEDLESS_ESCAPE.sub(r"\1", pat)
        probe = subprocess.run([rg, "--no-config", "-e", pat, "/dev/null"], capture_output=True)
        (ok if probe.returncode in (0, 1) else rejected).append(pat)
    return ok, rejected


def run_ripgrep(path: Path, patterns: list[str]) -> float | None:
    rg = shutil.which("rg")
    if not rg:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(patterns) + "\n")
        pat_file = fh.name
    try:
        best = None
        for _ in range(2):
            started = time.perf_counter()
            proc = subprocess.run([rg, "-c", "--no-config", "-f", pat_file, str(path)], capture_output=True)
            elapsed = time.perf_counter() - started
            if proc.returncode not in (0, 1):
                raise SystemExit(f"rg failed: {proc.stderr.decode()[-500:]}")
            best = elapsed if best is None else min(best, elapsed)
        return best
    finally:
        os.unlink(pat_file)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[128, 512, 1024], help="sizes in MiB")
    parser.add_argument("--keep", action="store_true", help="keep generated logs in bench/out/")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    patterns = library_regexes()
    if shutil.which("rg"):
        patterns, rejected = ripgrep_patterns(patterns)
        print(
            f"{os.cpu_count()} CPUs; {len(patterns)} single-line patterns given to ripgrep"
            f" ({len(rejected)} rejected by this rg: {rejected[:3]})"
        )
    print(f"{'size':>8} {'denpex s':>9} {'MB/s':>8} {'peak RSS':>9} {'rg s':>7} {'ratio':>6}  diagnosis")
    rows = []
    for size in args.sizes:
        path = OUT / f"bench_{size}MB.log"
        if not path.exists():
            generate(path, size)
        mb = path.stat().st_size / 1e6
        subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)  # same warm page cache for both
        seconds, rss, report = run_denpex(path)
        rg_seconds = run_ripgrep(path, patterns)
        top = report["diagnoses"][0] if report["diagnoses"] else None
        diag = f"{top['class']} rank {top['initiating_rank']}" if top else "NONE"
        ratio = f"{rg_seconds / seconds:.2f}" if rg_seconds else "-"
        rg_s = f"{rg_seconds:.2f}" if rg_seconds else "-"
        print(f"{mb:7.0f}M {seconds:9.2f} {mb / seconds:8.0f} {rss / 2**20:8.0f}M {rg_s:>7} {ratio:>6}  {diag}")
        rows.append(
            {
                "mb": round(mb),
                "seconds": round(seconds, 3),
                "mb_per_s": round(mb / seconds),
                "peak_rss_mb": round(rss / 2**20),
                "rg_seconds": rg_seconds and round(rg_seconds, 3),
                "ratio_vs_rg": rg_seconds and round(rg_seconds / seconds, 2),
                "diagnosis": diag,
            }
        )
        if not args.keep:
            path.unlink()
    (OUT / "results.json").write_text(json.dumps(rows, indent=2))
    ok = all(r["diagnosis"] == "cuda_oom rank 3" for r in rows)
    if not ok:
        print("the planted failure (CUDA OOM on rank 3) was not the top diagnosis", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
