"""What blind_t38 (22 issue-thread excerpts, scored once on 38a7c5f by an evaluator who did not see the attribution
code) revealed, with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

LOGS = Path(__file__).resolve().parent / "realworld" / "blind_t38" / "logs"


def test_a_rank_torchrun_saw_exit_before_another_ranks_timeout_is_the_one_it_waited_for(matcher):
    # 003: torchrun's table says rank 4 exited 1 at 11:37:36; rank 0's watchdog fires at 11:47:24, its 600 s timeout
    # later (srun's "task 1" is the agent that ran rank 4, not rank 1): rank 4 (was rank 0, the one that waited)
    (log,) = LOGS.glob("003_*.log")
    report = diagnose([str(log)], matcher)
    assert top(report)[1:] == ("nccl_timeout", 4)
    assert report.diagnoses[0].attribution.rule == "launcher_exit"
    # the same table stamped after the timeout (it saw the exit only then): rank 4 may have exited because of it
    later = log.read_text().replace("2024-08-20_11:37:36", "2024-08-20_11:47:30")
    assert top_of_text(matcher, later)[2] != 4
