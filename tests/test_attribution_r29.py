"""The changes made after the blind runs_r29 (real CPU runs in tests/corpus/blind_r29), on the runs that showed
the gaps and on variants that must not trigger them."""

from __future__ import annotations

import re
from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r29" / "runs"


def test_the_rank_whose_own_line_went_non_finite_first_in_an_untimed_console(matcher, tmp_path):
    # torchrun --tee prefixes only, no times: at step 650 every rank's grad norm is nan (all-reduced), and rank 2's
    # own loss alone is nan too; each rank's non-finite loss lines are counted on their own (per_rank)
    log = RUNS / "005" / "console.log"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nan_inf_loss", 2, "first_sign")
    assert "more non-finite values" in d.attribution.reasons[0].text
    # the same console where rank 2's loss at step 650 was still finite: no rank's own line stands out any more
    # (rank 2 may still be named for printing first, but not for its values)
    text = log.read_text().replace(
        "[default2]:INFO:trainer:step 650/900 epoch 3 loss nan",
        "[default2]:INFO:trainer:step 650/900 epoch 3 loss 2.4411",
    )
    (tmp_path / "console.log").write_text(text)
    d = diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0]
    assert d.class_ == "nan_inf_loss" and "more non-finite values" not in d.attribution.reasons[0].text


def test_each_ranks_non_finite_losses_are_counted_on_their_own(matcher, tmp_path):
    # one non-finite step printed by four ranks is one bad step per rank, forgiven: not a broken run
    lines = [
        f"[default{r}]:INFO:trainer:step {s}/900 loss {2.5 - s / 1000:.4f} lr 3.00e-03"
        for s in range(10, 200, 10)
        for r in range(4)
    ]
    lines += [f"[default{r}]:INFO:trainer:step 200/900 loss nan lr 3.00e-03" for r in range(4)]
    lines += [
        f"[default{r}]:INFO:trainer:step {s}/900 loss {2.3 - s / 1000:.4f} lr 3.00e-03"
        for s in range(210, 400, 10)
        for r in range(4)
    ]
    (tmp_path / "console.log").write_text("\n".join(lines) + "\n")
    report = diagnose([str(tmp_path / "console.log")], matcher)
    assert not any(re.search("nonfinite", d.signature) for d in report.diagnoses)


def test_a_time_limit_after_a_hang_in_a_log_stamped_with_times_of_day_only(matcher, tmp_path):
    # srun --label, "[07:34:13][INFO][2]" stamps with no date: every rank logged step 695, rank 2 then logged that
    # it took a lock and never came back; 44 s later Slurm cancelled the job at its time limit (the only dated line)
    log = RUNS / "030" / "slurm-10.out"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("job_hang_no_progress", 2, "stalled_before_limit")
    # the same job cancelled 5 s after its last step: it was still training, the time limit stands
    text = log.read_text(errors="replace").replace("2026-12-06T07:34:57", "2026-12-06T07:34:18")
    (tmp_path / "slurm-10.out").write_text(text)
    assert diagnose([str(tmp_path / "slurm-10.out")], matcher).diagnoses[0].class_ == "slurm_time_limit"


def test_times_of_day_without_a_date_are_read_at_the_head_of_a_line_only():
    from signatures._lines import parse_clock

    assert parse_clock("1: [07:34:12][INFO][1] step 675/4000") == 7 * 3600 + 34 * 60 + 12
    assert parse_clock("21:24:05 rank 3 step 86 local_loss 0.38700") == 21 * 3600 + 24 * 60 + 5
    assert parse_clock("[rank2]: 07:34:12.250 INFO step 5") == 7 * 3600 + 34 * 60 + 12.25
    assert parse_clock("epoch 2:  51%|#####| 203/400 [00:05<00:05, 33.83it/s]") is None  # a duration, not at the head
    assert parse_clock("step 100 eta 01:02:03") is None
    assert parse_clock("12:34:56:78 not a time") is None


def test_a_rank_in_brackets_right_after_the_level(matcher):
    from signatures._context import rank_and_host
    from signatures._lines import parse_prefix

    line = "[07:39:59][INFO][1] step 800/1200 epoch 2 loss nan lr 3.00e-03 grad_norm nan"
    assert parse_prefix(line).rank == rank_and_host(line)[0] == 1
    assert rank_and_host("[07:39:59][INFO] step 800 [1] loss 2.5")[0] is None  # not right after the level
    # blind runs_r29 042: fp16 overflows on every rank, then rank 1's own loss alone goes nan (the temperature typo);
    # its nan losses come on steps the scaler announced it skipped (the overflow, not counted since stop 39), and what
    # stays is rank 1's loss climbing from 2.6 to thousands: a divergence, on rank 1
    d = diagnose([str(RUNS / "042" / "console.log")], matcher).diagnoses[0]
    assert d.class_ in ("nan_inf_loss", "fp16_loss_scale_overflow", "loss_spike_divergence") and d.initiating_rank == 1
