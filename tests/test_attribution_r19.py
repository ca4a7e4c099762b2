"""The changes made after the blind runs_r19 (real CPU runs in tests/corpus/blind_r19/runs), on the runs that
showed the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r19" / "runs"


def test_a_silent_rank_whose_last_line_started_a_save_hung_in_it(matcher):
    # two torchrun agents; every rank logs "saving checkpoint | step 30"; ranks 0, 2 and 3 go on to the barrier and
    # time out there; rank 1 blocked on a lock inside its save and never printed again
    d = diagnose([str(RUNS / "010_ckpt_lock_wait")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "checkpoint.save_never_completed",
        "checkpoint_writer_hang",
        1,
    )
    assert d.attribution.rule == "silent_rank"
    assert any("started what it never finished" in r.text for r in d.attribution.reasons)
    assert any(c.class_ == "nccl_timeout" for c in d.collateral)


def test_a_silent_rank_whose_last_line_is_a_step_stays_the_timeouts_finding(matcher, tmp_path):
    # the same run with rank 1's save line removed: its last word is a step, nothing says where it stopped
    for log in (RUNS / "010_ckpt_lock_wait").iterdir():
        kept = [line for line in log.read_text().splitlines() if not ("rank 1/4 | saving checkpoint | step 30" in line)]
        (tmp_path / log.name).write_text("\n".join(kept) + "\n")
    d = diagnose([str(tmp_path)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_timeout", 1, "silent_rank")
