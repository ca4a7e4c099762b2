"""The changes made after the blind runs_r27 (real CPU runs in tests/corpus/blind_r27, pasted as users paste
them), on the runs that showed the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r27" / "runs"
MADE = Path(__file__).resolve().parent / "corpus" / "made_r26" / "runs"


def test_a_console_copied_while_the_job_hung_is_a_hang(matcher, tmp_path):
    # torchrun --tee 3: steps logged every 20 up to 100, then only each rank's heartbeat "step=120
    # last_step_age=97s" for 99 s; no error yet (blind); and a second format made here (made_r26 002)
    for log in (
        RUNS / "023_hang_no_progress_live" / "train_live.log",
        MADE / "002_hang_live_status" / "console_live.log",
    ):
        d = diagnose([str(log)], matcher).diagnoses[0]
        assert (d.class_, d.initiating_rank, d.attribution.rule) == (
            "job_hang_no_progress",
            None,
            "stalled_while_logging",
        )
    # the same console cut at the last step: nothing says the job stopped
    lines = (RUNS / "023_hang_no_progress_live" / "train_live.log").read_text().splitlines()
    (tmp_path / "cut.log").write_text("\n".join(x for x in lines if "heartbeat" not in x) + "\n")
    assert diagnose([str(tmp_path / "cut.log")], matcher).outcome == "healthy"
    # heartbeats 40 s apart from the last step but their step far past it: the job trains without loss lines
    (tmp_path / "moving.log").write_text(
        "\n".join(x.replace("step=120", "step=900") if "heartbeat" in x else x for x in lines) + "\n"
    )
    assert diagnose([str(tmp_path / "moving.log")], matcher).outcome == "healthy"


def test_a_rank_killed_by_a_signal_before_every_other_failure_started_it(matcher, tmp_path):
    # torchrun --max-restarts 2: rank 1 SIGKILLed (the launcher's exitcode -9), the others lose it; each restart
    # then fails to connect (gloo's connectFullMesh), seconds after the kill
    log = RUNS / "028_sigkill_rank1_restarts_fail_full" / "console.log"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("host_oom_killed", 1, "launcher_fatal_signal")
    # without the launcher's record of the kill, the restart's own failure is all there is
    lines = log.read_text().splitlines()
    (tmp_path / "console.log").write_text("\n".join(x for x in lines if "exitcode: -9" not in x) + "\n")
    assert diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0].class_ != "host_oom_killed"
