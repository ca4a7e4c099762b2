"""A time limit that ended a job already hung (signatures/_stall.py): the hang is the diagnosis, and the rank
whose last line is not a step is where it hung."""

from __future__ import annotations

from pathlib import Path

import pytest

from signatures import diagnose_sources
from signatures._ends import last_words
from signatures._schema import Signature
from signatures._sources import source_from_bytes

CORPUS = Path(__file__).resolve().parent / "corpus"


def _steps(ranks: int, steps: int, every: float, start: float = 0.0) -> list[str]:
    """Step lines of `ranks` ranks, srun --label style, one every `every` seconds."""
    out = []
    for i in range(1, steps + 1):
        t = start + i * every
        for r in range(ranks):
            stamp = f"10:{int(t) // 60:02d}:{int(t) % 60:02d},{round(t % 1 * 1000):03d}"
            out.append(f"{r}: 2026-12-05 {stamp} INFO step {i * 10} loss {2.0 - i / 100:.4f}")
    return out


def _limit(at: str = "10:05:00") -> list[str]:
    return [
        f"0: slurmstepd-n1: error: *** STEP 7.0 ON n1 CANCELLED AT 2026-12-05T{at} DUE TO TIME LIMIT ***",
        f"slurmstepd-n1: error: *** JOB 7 ON n1 CANCELLED AT 2026-12-05T{at} DUE TO TIME LIMIT ***",
        "srun: error: n1: tasks 0-3: Terminated",
    ]


def _diagnose(lines: list[str], matcher):
    return diagnose_sources([source_from_bytes("slurm-7.out", ("\n".join(lines) + "\n").encode())], matcher)


def test_a_hang_after_steady_steps_is_named_with_the_rank_that_went_elsewhere(matcher):
    lines = _steps(4, 6, 1.0)
    lines.append("2: 2026-12-05 10:00:06,200 INFO opening shard index /scratch/idx/part-2.idx")
    report = _diagnose(lines + _limit(), matcher)
    d = report.diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("slurm.time_limit_after_stall", "job_hang_no_progress", 2)
    assert d.attribution.rule == "stalled_before_limit" and d.attribution.rank == 2
    assert any("294 s" in r.text and "every 1 s" in r.text for r in d.attribution.reasons)
    assert "opening shard index" in d.first_seen.text


def test_every_rank_silent_after_the_same_step_is_a_hang_with_no_rank(matcher):
    d = _diagnose(_steps(4, 6, 1.0) + _limit(), matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("job_hang_no_progress", None)
    assert d.attribution.rule == "stalled_before_limit" and d.attribution.confidence == "low"


def test_a_job_still_stepping_at_its_limit_keeps_the_time_limit(matcher):
    # steps every 20 s, the last one 60 s before the limit: three intervals, not a hang
    d = _diagnose(_steps(2, 12, 20.0) + _limit("10:05:00"), matcher).diagnoses[0]
    assert d.class_ == "slurm_time_limit"


def test_untimed_steps_give_no_pace_and_keep_the_time_limit(matcher):
    lines = [f"{r}: step {i} loss 1.{i}" for i in range(1, 6) for r in range(2)] + _limit()
    d = _diagnose(lines, matcher).diagnoses[0]
    assert d.class_ == "slurm_time_limit"


def test_two_ranks_busy_elsewhere_is_not_a_hang(matcher):
    lines = _steps(4, 6, 1.0)
    lines += ["1: 2026-12-05 10:00:06,200 INFO evaluating", "3: 2026-12-05 10:00:06,300 INFO evaluating"]
    d = _diagnose(lines + _limit(), matcher).diagnoses[0]
    assert d.class_ == "slurm_time_limit"


def test_another_failure_before_the_limit_is_not_turned_into_a_hang(matcher):
    lines = _steps(2, 6, 1.0)
    lines.append(
        "1: 2026-12-05 10:00:06,500 ERROR torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
    )
    d = _diagnose(lines + _limit(), matcher).diagnoses[0]
    assert d.class_ != "job_hang_no_progress"


@pytest.mark.parametrize(
    "run, rank",
    [("blind_r18/runs/026_index_lock_stall_timelimit", 0), ("blind_r13/runs/013_abba_deadlock_timelimit", 1)],
)
def test_real_runs_hung_until_the_limit(matcher, run, rank):
    from signatures import diagnose

    d = diagnose([str(CORPUS / run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("job_hang_no_progress", rank, "stalled_before_limit")


def test_last_words_leave_out_the_schedulers_lines_under_a_rank_label():
    into: dict = {}
    lines = [
        b"0: 2026-12-05 10:00:01,000 INFO step 10 loss 1.0",
        b"1: 2026-12-05 10:00:01,000 INFO step 10 loss 1.1",
        b"0: slurmstepd-n1: error: *** STEP 7.0 ON n1 CANCELLED AT 2026-12-05T10:05:00 DUE TO TIME LIMIT ***",
        b"srun: error: n1: tasks 0-1: Terminated",
    ]
    last_words(into, 0, lines, 100, 2026, None)
    assert into[(0, 0)].line == 100 and "step 10" in into[(0, 0)].text
    assert into[(0, 1)].line == 101 and (0, None) not in into


def test_a_signature_made_by_a_rule_has_no_patterns_of_its_own():
    base = {
        "id": "x.made",
        "title": "made by a rule",
        "class": "job_hang_no_progress",
        "severity": "high",
        "role": "root",
        "made_by": "stalled_until_limit",
        "summary": "a summary long enough",
        "mechanism": "a mechanism long enough",
        "root_causes": ["a"],
        "fix": "a fix here",
        "checklist": ["a", "b", "c"],
        "prevention": "prevent it",
        "verify": "grep",
        "references": ["https://example.org"],
        "cases": [{"kind": "match", "log": "x"}, {"kind": "near_miss", "log": "y"}],
    }
    Signature.model_validate(base)
    with pytest.raises(ValueError, match="made_by"):
        Signature.model_validate(base | {"patterns": [{"literal": "hung job", "regex": "hung job"}]})
    # a signature's own answer to "can I just requeue?" comes with its reason, or not at all
    Signature.model_validate(base | {"action": "fix_and_restart", "action_reason": "a reason long enough"})
    with pytest.raises(ValueError, match="action"):
        Signature.model_validate(base | {"action": "fix_and_restart"})
    with pytest.raises(ValueError, match="action"):
        Signature.model_validate(base | {"action": "requeue", "action_reason": "a reason long enough"})


MADE = CORPUS / "made_r19" / "runs"


def test_a_fresh_json_lines_job_hung_on_a_lock_until_its_limit(matcher):
    from signatures import diagnose

    d = diagnose([str(MADE / "002_vocab_lock_timelimit")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("job_hang_no_progress", 2, "stalled_before_limit")
    assert "refreshing vocabulary cache" in d.first_seen.text


def test_the_same_job_still_stepping_at_its_limit_is_a_time_limit(matcher):
    from signatures import diagnose

    d = diagnose([str(MADE / "003_steady_timelimit")], matcher).diagnoses[0]
    assert (d.signature, d.initiating_rank) == ("slurm.time_limit_cancelled", None)
