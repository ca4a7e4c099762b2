"""What runs_r59 (50 real CPU runs leaning to hard initiating ranks, scored once on 9c87514 by an evaluator who did
not see the attribution code) revealed, with variants that must not change."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose
from signatures._lines import parse_time

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r59" / "runs"


def test_a_scancel_after_json_lines_stamped_with_epoch_seconds_stopped_is_a_hang(matcher):
    # 033: srun -l, 4 ranks logging JSON lines whose only time is {"ts": 1796678463.346, ...}; every rank logs step 3,
    # then nothing for 3.5 minutes until the operator's scancel
    log = RUNS / "033" / "slurm-10.out"
    assert top(diagnose([str(log)], matcher))[:2] == ("job.stopped_after_stall", "job_hang_no_progress")
    # the same records with no time in them say nothing about how long it was quiet: the stop stands
    text = log.read_text()
    untimed = re.sub(r'"ts": \d+\.\d+, ', "", text)
    assert untimed != text
    assert top_of_text(matcher, untimed, "slurm-10.out")[:2] == ("slurm.job_cancelled", "preemption_sigterm")


def test_epoch_seconds_are_read_only_from_a_json_records_time_field():
    assert parse_time('3: {"ts": 1796678463.346, "level": "INFO", "rank": 3}') == 1796678463.346
    assert parse_time('{"time": 1796678463346, "msg": "step 1"}') == 1796678463.346  # milliseconds
    assert parse_time('{"timestamp": 1796678463}') == 1796678463.0
    # a number in another field, or one too long to be seconds or milliseconds, is no time
    assert parse_time('{"step": 1796678463, "loss": 0.4}') is None
    assert parse_time('{"ts": 17966784634612}') is None
    assert parse_time("ts 1796678463 tokens seen") is None
