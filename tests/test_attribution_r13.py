"""The attribution rules added after the blind runs_r13 (real CPU runs in tests/corpus/blind_r13/runs), each on
the run that showed the gap and on a hand-made variant that must not trigger it."""

from __future__ import annotations

from pathlib import Path

from helpers import top_diagnosis as top

import signatures

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r13" / "runs"


def test_a_launcher_record_of_sigill_names_the_rank_and_an_abi_cause(matcher):
    d = top([RUNS / "012_sigill_march_ext"], matcher)
    assert (d.signature, d.class_, d.initiating_rank) == ("launcher.exit_sigill", "dependency_abi_mismatch", 2)
    assert d.attribution is not None and d.attribution.rule == "launcher_fatal_signal"


def test_an_untimed_first_attempt_traceback_comes_before_the_restarts_timed_errors(matcher):
    # struct.error (a module's lower-case exception) in attempt 0, printed before any timestamp; the restarted
    # attempts' gloo errors come later in the same file, under timestamps
    d = top([RUNS / "010_restarts_truncated_index"], matcher)
    assert d.initiating_rank == 1
    assert "struct.error" in d.evidence[0].text


def test_a_gathered_checkpoint_exception_listing_one_rank_names_it(matcher):
    d = top([RUNS / "015_dcp_resume_vocab"], matcher)
    assert (d.class_, d.initiating_rank) == ("checkpoint_load_mismatch", 2)
    assert d.attribution is not None and "lists rank 2 alone" in d.attribution.reasons[0].text


def test_a_gathered_exception_listing_every_rank_names_none(matcher, tmp_path):
    lines = []
    for printer in range(2):
        lines += [
            f"[rank{printer}]: torch.distributed.checkpoint.api.CheckpointException: "
            "CheckpointException ranks:dict_keys([0, 1])",
        ]
        for failed in range(2):
            lines += [
                f"[rank{printer}]: Traceback (most recent call last): (RANK {failed})",
                f'[rank{printer}]:   File "/x/torch/distributed/checkpoint/filesystem.py", line 1, in write_data',
                f"[rank{printer}]: OSError: [Errno 28] No space left on device",
            ]
    log = tmp_path / "save.log"
    log.write_text("\n".join(lines) + "\n")
    d = top([log], matcher)
    assert d.class_ == "checkpoint_disk_full" and d.initiating_rank is None


def test_a_global_loss_check_on_rank_0_points_at_the_rank_whose_local_loss_went_nan(matcher):
    d = top([RUNS / "017_logdur_nan_rank0_guard"], matcher)
    assert (d.class_, d.initiating_rank) == ("nan_inf_loss", 3)
    assert d.attribution is not None and d.attribution.rule == "first_sign"


def test_the_raising_rank_is_kept_when_it_printed_the_bad_value_itself(matcher, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "train.0.log").write_text("10:00:01 rank 0 step 5 local_loss nan\n")
    (logs / "train.1.log").write_text("10:00:01 rank 1 step 5 local_loss nan\n")
    (logs / "train.0.err").write_text("[rank0]: RuntimeError: global train loss is nan at step 5\n")
    d = top([logs], matcher)
    assert (d.class_, d.initiating_rank) == ("nan_inf_loss", 0)


def test_an_error_logged_before_disabling_a_feature_is_not_the_failure_of_a_run_that_finished(matcher):
    report = signatures.diagnose([str(RUNS / "018_healthy_helper_timeout")], matcher=matcher)
    assert report.diagnoses == [] and report.outcome == "healthy"


def test_an_abort_after_a_ranks_own_lost_peer_is_not_the_cause(matcher):
    # rank 2 swallowed a data error and left early (exit 0); ranks 0, 1 and 3 lost their peer, and rank 0's process
    # then aborted ("terminate called", srun: task 0: Aborted): the abort followed rank 0's own knock-on
    d = top([RUNS / "014_swallowed_schema_error"], matcher)
    assert d.initiating_rank == 2 and d.signature != "launcher.exit_sigabrt"
