"""What runs_r37 (34 real runs scored blind on 9f9d56c) revealed, and the real runs made here for the stop after a
stall (tests/corpus/made_r37), each with a variant that must not change."""

from __future__ import annotations

import json
from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes
from signatures._ends import stacks
from signatures._events import Stack

CORPUS = Path(__file__).resolve().parent / "corpus"
R37 = CORPUS / "blind_r37" / "runs"
MADE = CORPUS / "made_r37" / "runs"


def _top(report):
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_, d.initiating_rank) if d else (report.outcome, None, None)


def _inputs(blind: str, run: str) -> list[str]:
    rows = [json.loads(line) for line in (CORPUS / blind / "labels.jsonl").read_text().splitlines()]
    (row,) = [r for r in rows if r["run"] == run]
    return [str(CORPUS / blind / "runs" / run / i) for i in row["inputs"]]


def test_a_monitored_barrier_names_the_rank_that_never_arrived(matcher):
    d = diagnose(_inputs("blind_r37", "026"), matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("c10d.monitored_barrier_timeout", "nccl_timeout", 3)
    assert (d.attribution.rule, d.attribution.confidence) == ("silent_rank", "high")
    assert "rank 3 alone never arrived" in d.attribution.reasons[0].text
    # the text report says where it started and, apart, whose line showed it first
    from signatures._report import render_text

    text = render_text(diagnose(_inputs("blind_r37", "026"), matcher))
    assert "Started: rank 3; first seen on rank 1 on vm, " in " ".join(text.split())
    # a silent rank's host: its own lines', else none; not a launcher's task record (srun's task 1 is an agent, not
    # rank 1), nor the first line's (another rank's)
    from types import SimpleNamespace as NS
    from typing import Any

    from signatures._report import _host

    first, other = NS(rank=1, host="node-a"), NS(rank=2, host="node-b")
    finding: Any = NS(event=first, initiating_rank=3, events=[first, other], related=[], launcher=[])
    assert _host(finding) is None
    finding.launcher = [NS(rank=3, host="node-b")]
    assert _host(finding) is None
    finding.related = [NS(rank=3, host="node-c")]
    assert _host(finding) == "node-c"
    alone: Any = NS(event=first, initiating_rank=3, events=[first], related=[], launcher=[])
    assert _host(alone) is None


def test_stacks_a_stall_watchdog_dumped_before_a_cancel_are_a_hang(matcher):
    # faulthandler.dump_traceback_later(15) fired on every rank: rank 2 in its metrics flush, the others in backward
    assert _top(diagnose(_inputs("blind_r37", "023"), matcher))[1:] == ("job_hang_no_progress", 2)
    # the same dumps, but training went on after them (a slow save tripped the watchdog) before the cancel: not a hang
    text = (R37 / "023" / "slurm-13.out").read_text().splitlines()
    at = next(i for i, line in enumerate(text) if line.startswith("srun: Job step aborted"))
    more = [f"{r}: step {n}/40 loss 0.05 lr 0.05 0.3s/it" for n in range(6, 40) for r in range(4)]
    went_on = "\n".join(text[:at] + more + text[at:]) + "\n"
    assert _top(diagnose_sources([source_from_bytes("s.out", went_on.encode())], matcher))[1] != "job_hang_no_progress"
    lines = [b"1: Timeout (0:00:15)!", b"1: Thread 0x7f (most recent call first):", b'1:   File "t.py", line 3 in f']
    found: dict[tuple[int, int | None], Stack] = {}
    stacks(found, 0, lines, 1, None)
    assert found[(0, 1)].timer == 15
    found.clear()
    stacks(found, 0, lines[1:], 1, None)  # a dump on a signal (faulthandler.register) carries no timer
    assert found[(0, 1)].timer is None


def test_a_stop_from_outside_after_the_job_stalled_is_a_hang(matcher):
    for run in ("term", "scancel"):
        d = diagnose([str(p) for p in sorted((MADE / run).iterdir())], matcher).diagnoses[0]
        assert (d.signature, d.class_) == ("job.stopped_after_stall", "job_hang_no_progress"), run
        assert d.attribution.rule == "stalled_before_limit"
        assert "before it was stopped" in d.attribution.reasons[0].text
    # still stepping when it was stopped: the stop itself
    assert _top(diagnose([str(MADE / "busy" / "console.log")], matcher))[:2] == (
        "torchrun.agent_received_signal",
        "preemption_sigterm",
    )
    # a scheduler's own reason is what it says, however long the job had been quiet
    text = (
        (MADE / "scancel" / "slurm-65.out")
        .read_text()
        .replace("CANCELLED AT 2026-12-06T22:13:21 ***", "CANCELLED AT 2026-12-06T22:13:21 DUE TO PREEMPTION ***")
    )
    assert _top(diagnose_sources([source_from_bytes("p.out", text.encode())], matcher))[1] == "preemption_sigterm"


def test_a_date_less_step_logged_just_after_the_stop_is_not_a_day_earlier(matcher):
    # spot reclaim: the workers' last "[00:04:45.935] step 60" came 0.06 s after the agent's SIGTERM stamp
    assert _top(diagnose(_inputs("blind_r20", "023_spot_node"), matcher))[1] == "preemption_sigterm"
