"""What blind_t33 (25 issue-thread excerpts, scored once on 9c87514 by an evaluator who did not see the attribution
code) revealed, with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

LOGS = Path(__file__).resolve().parent / "realworld" / "blind_t33" / "logs"


def test_tensorboardx_warning_again_and_again_of_a_nan_value_is_a_nan_run(matcher):
    # 015 (UPSNet #141): fourteen "NaN or Inf found in input tensor." from tensorboardX's x2num, nothing else
    (log,) = LOGS.glob("015_*.log")
    assert top(diagnose([str(log)], matcher))[:2] == ("tensorboardx.nonfinite_scalar_repeated", "nan_inf_loss")
    # four of them, between finite losses, are a metric's hiccup, not a failure
    lines = [line for line in log.read_text().splitlines(keepends=True) if line.strip()][:4]
    steps = "".join(f"2021-03-17 12:20:{10 + i:02d},000 | train.py | line 80 : iter {i} loss 0.52\n" for i in range(4))
    assert top_of_text(matcher, steps + "".join(lines))[0] == "healthy"
