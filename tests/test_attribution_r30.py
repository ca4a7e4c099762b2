"""The changes made after the blind runs_r30 (real CPU runs in tests/corpus/blind_r30), on the runs that showed
the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r30" / "runs"


def test_a_noisy_per_batch_loss_is_not_a_divergence(matcher):
    # batch sizes of 4-8 with label noise: the loss learns, then plateaus between ~0.01 and ~3 (002 also has a
    # four-step spike it recovers from; 012 logs 2,000 steps per rank)
    for run in ("002", "012"):
        report = diagnose([str(RUNS / run / "logs")], matcher)
        assert report.top is None and report.outcome == "healthy", run


def test_the_real_failure_is_no_longer_hidden_behind_a_false_divergence(matcher):
    d = diagnose([str(RUNS / "014" / "console.log")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("nan_inf_loss", 3)


def test_an_exception_caught_logged_and_trained_past_to_the_end_is_not_a_failure(matcher, tmp_path):
    # rank 0 logs a caught FileNotFoundError for an optional file ("using defaults"), trains on and says
    # "training finished: 500 steps"
    log = RUNS / "006" / "console.log"
    assert diagnose([str(log)], matcher).outcome == "healthy"
    # the same console cut before training said it finished: the error stands
    text = log.read_text(errors="replace")
    (tmp_path / "console.log").write_text(text[: text.index("training finished")])
    d = diagnose([str(tmp_path / "console.log")], matcher).top
    assert d is not None and d.signature == "data.dataset_file_missing"
