"""What runs_r56 (55 real CPU runs made by a blind evaluator, scored once on 588df76) revealed, each with a variant
that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import run, top

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r56" / "runs"


def _run(number: str, *inputs: str):
    return diagnose([str(RUNS / number / name) for name in inputs])


def test_files_numbered_by_node_are_not_per_rank_files(matcher):
    # 046: two torchrun agents' consoles, node0.log and node1.log; node1's lines name ranks 2 and 3, and its caught,
    # retried ConnectionError tracebacks print no rank: they were taken for rank 1's failure (a healthy run flagged)
    assert top(_run("046", "node0.log", "node1.log"))[0] == "healthy"
    # per-task files whose lines name no other rank still give their number to an unprefixed traceback
    report = run(
        matcher,
        ("task-0.out", "step 1 loss 0.52\nstep 2 loss 0.50\n"),
        (
            "task-1.out",
            'step 1 loss 0.52\nTraceback (most recent call last):\n  File "t.py", line 3, in <module>\n'
            "RuntimeError: bad batch shape\n",
        ),
    )
    assert top(report)[2] == 1


def test_a_helper_thread_that_died_before_the_time_limit(matcher):
    # 014: rank 0 starts an async checkpoint, its writer thread dies out of space (unprefixed), every rank stops
    # logging steps, and Slurm cancels the job at its time limit (untimed steps): the disk, on rank 0 (it was the time
    # limit, no rank)
    report = _run("014", "slurm-5.out")
    assert top(report) == ("checkpoint.enospc", "checkpoint_disk_full", 0)
    assert report.diagnoses[0].attribution.confidence == "low"
    # the same thread failure, after which the ranks kept stepping: the time limit ended a running job
    text = (RUNS / "014" / "slurm-5.out").read_text()
    went_on = text.replace(
        "OSError: [Errno 28] No space left on device\n",
        "OSError: [Errno 28] No space left on device\n[rank0]: step 5 loss 0.5937\n[rank1]: step 5 loss 0.5937\n"
        "[rank2]: step 5 loss 0.5937\n[rank3]: step 5 loss 0.5937\n",
    )
    assert went_on != text
    assert top(run(matcher, ("slurm-5.out", went_on)))[1] == "slurm_time_limit"
    # a helper thread's failure in a job's stderr while its stdout (another file) kept stepping to the limit: the
    # limit stands (a review's case: "after every rank's last step" held only for a file with no steps at all)
    out = "".join(f"[2026-12-07 10:{m:02d}:00] step {m * 10} loss 0.5\n" for m in range(0, 59))
    err = (
        "Exception in thread ckpt-writer:\nTraceback (most recent call last):\n"
        '  File "/work/t.py", line 9, in run\n'
        "OSError: [Errno 28] No space left on device\n"
        "slurmstepd: error: *** JOB 42 ON node1 CANCELLED AT 2026-12-07T10:59:30 DUE TO TIME LIMIT ***\n"
    )
    assert top(run(matcher, ("slurm-42.out", out), ("slurm-42.err", err)))[1] == "slurm_time_limit"
