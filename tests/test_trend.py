"""Trend rules: a loss that falls, climbs back and stays up is a diverged run; spikes, evaluation
losses and noise are not. The sampling keeps the cost bounded on logs where every line has a loss."""

import random
from itertools import pairwise

import pytest

import signatures
from signatures import _trend
from signatures._schema import Trend
from signatures._sources import source_from_bytes

RULE = Trend(rise=3.0, min_rise=0.5, sustain=3, min_points=6, ignore_series=["val", "eval"])


def points(values):
    return [_trend.Observation(i + 1, v, f"step {i * 10} loss {v}", None, None) for i, v in enumerate(values)]


@pytest.mark.parametrize(
    "values,fires",
    [
        ([4.0, 3.0, 2.0, 1.5, 1.2, 6.0, 7.0, 6.5, 6.8], True),  # diverged, still up
        ([4.0, 3.0, 2.0, 1.5, 1.2, 6.0, 7.0, 6.5, 1.3, 1.2], False),  # spike, recovered
        ([4.0, 3.0, 2.0, 1.5, 1.2, 6.0, 1.1, 6.5, 1.0, 6.6], False),  # alternating: never sustained
        ([2.0, 2.5, 3.0, 6.0, 7.0, 8.0, 9.0], True),  # exploded from the start (excerpt begins at the low)
        ([2.0, 1.9, 1.8, 1.8, 1.7, 1.7, 1.6], False),  # a healthy run
        ([1.2, 0.3, 0.01, 0.05, 0.06, 0.055, 0.062], False),  # big ratio, tiny absolute climb
        ([4.0, 3.0, 1.0, 5.0, 5.0], False),  # too few points
        ([4.0, -1.0, -2.0, 5.0, 5.0, 5.0, 5.0], False),  # negative values: not a loss we follow
        # a per-batch loss that is noise around a steady level (random targets, blind runs_r28 001, rank 0): one
        # low value, then the level it came from; the climb is ~1x the level before it, not a divergence
        ([0.0981, 0.9934, 0.8292, 0.5763, 1.9229, 0.8529, 1.4815, 0.7673, 1.1102, 0.9021, 1.3349, 0.8948], False),
        # seven points of the same noise (blind runs_r28 006): the low is the first value, and the climb does not
        # rise past the values before it (a loss that explodes from the start does)
        ([0.0981, 0.9934, 0.8292, 0.5763, 1.9229, 0.8529, 1.4815], False),
        # the same noise, then a level 4x higher that stays: diverged
        ([0.0981, 0.9934, 0.8292, 0.5763, 1.9229, 0.8529, 1.4815, 0.7673, 4.1, 4.6, 3.9, 4.4], True),
    ],
)
def test_divergence_rule(values, fires):
    assert (_trend.diverged(points(values), RULE) is not None) is fires


def test_divergence_reports_where_it_bottomed_and_climbed():
    found = _trend.diverged(points([4.0, 3.0, 2.0, 1.5, 1.2, 6.0, 7.0, 6.5, 6.8]), RULE)
    assert found is not None
    values = _trend.describe(found)
    assert values["low"] == "1.2" and values["low_at"] == "step 40"
    assert values["value"] == "6" and values["up_at"] == "step 50"
    assert values["rise"] == "5.0x" and values["last"] == "6.8" and values["peak"] == "7"


def test_series_is_bounded_and_evenly_thinned():
    series = _trend.Series()
    for i in range(100_000):
        series.offer(_trend.Observation(i, float(i), "", None, None))
    assert len(series.points) < _trend.SERIES_CAP
    gaps = {b.line - a.line for a, b in pairwise(series.points)}
    assert gaps == {series.stride}  # even spacing over the whole run, first to last
    assert series.points[0].line == 0 and series.points[-1].line > 90_000


def diagnose_text(text: str, matcher) -> signatures.Report:
    return signatures.diagnose_sources([source_from_bytes("train.log", text.encode())], matcher=matcher)


def test_per_rank_series_find_the_rank_that_diverged(matcher):
    lines = []
    for step in range(1, 41):
        for rank in range(4):
            loss = 3.0 / (1 + step / 5)
            if rank == 2 and step > 25:
                loss = 9.0 + step / 100
            lines.append(f"[rank{rank}]: step {step} | loss {loss:.4f} | lr 3e-4")
    report = diagnose_text("\n".join(lines) + "\n", matcher)
    top = report.diagnoses[0]
    assert top.signature == "train.loss_diverged"
    assert top.initiating_rank == 2
    assert "step 26" in top.summary


def test_zero_losses_and_component_losses_are_not_followed(matcher):
    """A 0.0 printed before any step is not a low; a GAN generator's rising loss is not the training loss."""
    lines = ["step 0 loss 0.0000"] + [f"step {s} loss {2.0 - s / 100:.4f}" for s in range(1, 10)]
    lines += [f"[{e}/9] loss_D: {1 / (e + 1):.3f} G loss: {0.5 + e:.3f}" for e in range(9)]
    report = diagnose_text("\n".join(lines) + "\n", matcher)
    assert report.diagnoses == []


def test_a_healthy_noisy_loss_does_not_fire(matcher):
    rng = random.Random(7)
    lines = [f"step {s} loss {2.5 / (1 + s / 300) * rng.uniform(0.7, 1.4):.4f}" for s in range(5000)]
    report = diagnose_text("\n".join(lines) + "\n", matcher)
    assert report.diagnoses == []


def test_a_divergence_deep_in_a_large_log_is_found_by_sampling(matcher, tmp_path):
    """~40 MB, a loss on every line: the windows sample it and still see the climb near the end."""
    path = tmp_path / "big.log"
    with open(path, "w") as fh:
        for step in range(400_000):
            loss = 3.0 / (1 + step / 20_000) if step < 360_000 else 7.5
            fh.write(
                f"[rank0]: 2026-11-30 12:00:00,000 INFO train: step {step} | loss {loss:.4f} | lr 3e-4 | "
                f"grad_norm 0.91 | tokens/s 101000\n"
            )
    assert path.stat().st_size > 40 << 20
    report = signatures.diagnose([str(path)], matcher=matcher)
    top = report.diagnoses[0]
    assert top.signature == "train.loss_diverged"
    step = int(top.values["up_at"].split()[-1])
    assert 360_000 <= step < 366_000  # the first sampled elevated step, within a window of the real one


def test_a_spike_that_recovered_at_the_very_end_of_a_thinned_series_does_not_fire(matcher):
    """The newest value is judged even when thinning dropped it from the kept points."""
    lines = [f"step {s} loss {3.0 / (1 + s / 500):.4f}" for s in range(20_000)]
    for s in range(19_940, 19_992):
        lines[s] = f"step {s} loss 9.0000"
    report = diagnose_text("\n".join(lines) + "\n", matcher)
    assert report.diagnoses == []


def test_a_value_that_goes_negative_is_not_a_loss_this_rule_judges(matcher):
    values = [0.9, 0.5, 0.02, -0.3, 0.01, 0.4, 0.9, 1.1, 1.2, 1.3, 1.1]
    report = diagnose_text("".join(f"step {i} loss {v}\n" for i, v in enumerate(values)), matcher)
    assert report.diagnoses == []


def test_one_rank_diverging_in_a_few_megabyte_log_is_sampled_densely_enough(matcher, tmp_path):
    path = tmp_path / "train.log"
    with open(path, "w") as fh:
        for step in range(12_000):
            for rank in range(4):
                loss = 3.0 / (1 + step / 800) if rank != 2 or step < 9_000 else 8.0
                fh.write(f"[rank{rank}]: step {step} | loss {loss:.4f} | lr 3e-4 | grad_norm 0.91 | tokens/s 99000\n")
    assert 2 << 20 < path.stat().st_size < 8 << 20  # one block, more than the full-scan size
    top = signatures.diagnose([str(path)], matcher=matcher).top
    assert top is not None
    assert top.signature == "train.loss_diverged" and top.initiating_rank == 2


def test_distinct_counting_ignores_the_timestamp_and_launcher_prefix(matcher):
    repeated = "".join(f"[rank0]: 2026-12-02 10:00:0{i},000 step 6/400 | loss inf | lr 6e-3\n" for i in range(4))
    assert diagnose_text(repeated, matcher).diagnoses == []
    distinct = "".join(f"[rank0]: 2026-12-02 10:00:0{i},000 step {6 + i}/400 | loss inf | lr 6e-3\n" for i in range(4))
    assert diagnose_text(distinct, matcher).diagnoses[0].class_ == "nan_inf_loss"


def test_a_noisy_loss_on_every_rank_of_a_healthy_run_is_not_a_divergence(matcher):
    # blind runs_r28 001: torchrun, 4 ranks, 20 steps on random targets; each rank's loss is noise between ~0.1 and
    # ~2.3 and the run completes: no failure (before the level check, train.loss_diverged fired on rank 0)
    from pathlib import Path

    run = Path(__file__).resolve().parent / "corpus" / "blind_r28" / "runs" / "001"
    report = signatures.diagnose([str(run / "console.log")], matcher)
    assert report.top is None and report.outcome == "healthy"


def test_noise_around_a_steady_level_is_not_a_divergence_and_a_level_shift_is():
    # seeded synthetic per-batch losses: a decaying curve times heavy log-normal noise (sigma 0.5, batch sizes of a
    # few samples), 20 to 2000 points; then the same series with its last 20% six times higher
    rng = random.Random(7)
    flagged = found = 0
    for _ in range(150):
        n = rng.choice([20, 60, 300, 2000])
        noisy = [max(0.001, (2.3 * 0.97**i + 0.3) * rng.lognormvariate(0, 0.5)) for i in range(n)]
        cut = int(n * 0.8)
        flagged += _trend.diverged(points(noisy), RULE) is not None
        found += _trend.diverged(points(noisy[:cut] + [v * 6 for v in noisy[cut:]]), RULE) is not None
    assert flagged <= 1  # the rule before the running median and the separation test flagged 8 of 200
    assert found >= 140
