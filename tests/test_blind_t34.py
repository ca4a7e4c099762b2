"""What blind_t34 (25 issue-thread excerpts, scored once on a0027693 by an evaluator who did not see the attribution
code) revealed, with variants that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

LOGS = Path(__file__).resolve().parent / "realworld" / "blind_t34" / "logs"


def _one(name: str) -> Path:
    (path,) = LOGS.glob(f"{name}_*.log")
    return path


def test_insightfaces_grad_scale_printed_as_zero_is_a_collapsed_loss_scale(matcher):
    # 010 (insightface #2277): arcface_torch logs GradScaler's scale with "%2.f": " 0" is below 0.5
    assert top(diagnose([str(_one("010"))], matcher))[:2] == ("fp16.loss_scale_collapsed", "fp16_loss_scale_overflow")
    # a healthy run's scale is in the thousands, and a scale of 0.5 or more prints as 1 or more
    line = (
        "Training: 2021-08-18 06:00:43,232-Speed 461.27 samples/sec   Loss 43.0147   LearningRate 0.0781   Epoch: 0   "
        "Global Step: 2800   Fp16 Grad Scale: {}   Required: 236 hours\n"
    )
    for scale in ("12800", " 1", "65536"):
        assert top_of_text(matcher, line.format(scale) * 3)[0] == "healthy", scale


def test_timms_distributed_banner_makes_a_start_up_paste_a_log(matcher):
    # 022: four processes of timm's train.py starting, no failure: healthy, not "not a training log"
    assert diagnose([str(_one("022"))], matcher).outcome == "healthy"
