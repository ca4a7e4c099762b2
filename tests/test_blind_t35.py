"""What blind_t35 (20 issue-thread excerpts, scored once on 418114e by an evaluator who did not see the attribution
code) revealed, with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top_of_text

from signatures import diagnose

LOGS = Path(__file__).resolve().parent / "realworld" / "blind_t35" / "logs"


def test_deepspeeds_launcher_killing_its_workers_is_never_a_healthy_run(matcher):
    # 020: DeepSpeed's launcher logs "[launch.py:315:sigkill_handler] Killing subprocess N", which it does only when
    # a worker exited non-zero or it was signalled; nothing else in the paste names the failure: unrecognised with
    # that line as the first error, not healthy
    (log,) = LOGS.glob("020_*.log")
    report = diagnose([str(log)], matcher)
    assert report.outcome == "unrecognised"
    assert any("Killing subprocess" in line.text for r in report.unrecognised for line in r.lines)
    # a launcher that only reports the workers it started and their clean exit is no failure
    started = (
        "[2024-01-22 16:40:01,316] [INFO] [launch.py:163:main] dist_world_size=2\n"
        "[2024-01-22 16:50:49,553] [INFO] [launch.py:348:main] Process 1080504 exits successfully.\n"
    )
    assert top_of_text(matcher, started)[0] == "healthy"
