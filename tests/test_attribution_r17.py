"""The rules added after the blind runs_r17 (real CPU runs in tests/corpus/blind_r17/runs), on the runs that showed
the gaps and on in-memory logs that must keep their answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r17" / "runs"


@pytest.fixture
def in_run(monkeypatch, matcher):
    def diagnose(name: str):
        monkeypatch.chdir(RUNS / name)
        import signatures

        return signatures.diagnose(["."], matcher=matcher)

    return diagnose


def test_a_chained_traceback_a_fallback_record_printed_is_handled(in_run):
    # logging.exception("checkpoint save ... failed, falling back") prints torch.save's ENOSPC error and the
    # exception raised while handling it; the rank saves elsewhere and every rank finishes
    assert in_run("028_healthy_ckpt_fallback_after_enospc").outcome == "healthy"


CHAINED = """
{intro}
Traceback (most recent call last):
  File "/job/train.py", line 40, in save
    torch.save(sd, path)
RuntimeError: basic_ios::clear: iostream error

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/usr/lib/python3.11/site-packages/torch/serialization.py", line 834, in __exit__
    self.file_like.write_end_of_file()
RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 12480 vs 12384
"""


def test_a_chained_traceback_with_nothing_printing_it_is_the_failure(matcher):
    report = run(matcher, ("rank0.log", CHAINED.format(intro="2026-12-05 13:44:36,545 [rank0] INFO step 5 loss=1.38")))
    assert report.diagnoses and report.diagnoses[0].class_ == "checkpoint_disk_full"


def test_a_handled_traceback_earlier_does_not_excuse_a_later_one(matcher):
    body = (
        "2026-12-05 13:44:30,000 [rank0] WARNING upload failed, retrying\n"
        "Traceback (most recent call last):\n"
        '  File "/job/up.py", line 3, in push\n'
        "ConnectionError: refused\n" + CHAINED.format(intro="")
    )
    report = run(matcher, ("rank0.log", body))
    assert report.diagnoses and report.diagnoses[0].class_ == "checkpoint_disk_full"


def test_ddps_model_check_names_the_rank_whose_model_differs(in_run):
    # "DDP expects same model across all ranks, but Rank 0 has 6 params, while rank 2 has inconsistent 8 params":
    # rank 0 compares itself with ranks 1, 2, ... in order and names the first that differs, so rank 1 agrees
    d = in_run("004_ddp_model_config_drift").diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("collective_mismatch", 2, "collective_odd_one_out")
    assert d.attribution.confidence == "high"


def test_a_truncated_npz_is_a_data_error_on_its_rank(in_run):
    # np.load raises zipfile.BadZipFile on rank 0; the other ranks then lose their peer
    d = in_run("013_npz_shard_truncated").diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("data.archive_unreadable", "tokenizer_or_data_error", 0)


def test_the_one_rank_the_launcher_saw_end_on_its_own_is_the_lost_peer(in_run):
    # srun: "task 3: Exited with exit code 124" (timeout(1) stopped it), then the step is cancelled and tasks 0-2
    # are Terminated; a survivor reports its peer closed the connection
    d = in_run("011_rank_sigterm_by_timeout_wrapper").diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (3, "launcher_exit")
    assert "timeout(1)" in d.attribution.reasons[0].text


INTERRUPTED = RUNS / "025_metrics_lock_deadlock_ctrl_c" / "terminal.log"


def test_a_ctrl_c_that_found_the_others_in_a_collective_names_the_rank_elsewhere(in_run):
    # torchrun forwards the user's SIGINT: ranks 0 and 2 were in all_reduce, rank 1 in `with _mlock:` (a lock it
    # already held), and the steps had stopped; not a preemption to requeue but a hang on rank 1
    d = in_run("025_metrics_lock_deadlock_ctrl_c").diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("job_hang_no_progress", 1, "interrupted_elsewhere")
    assert d.attribution.confidence == "low"  # the step lines carry no date: how long it was stuck is unknown
    assert "with _mlock" in " ".join(r.text for r in d.attribution.reasons)
    assert d.action == "fix_and_restart"


def _dated(log: str, minute: str) -> str:
    """The run's `[13:42:SS]` step stamps as dated ones in minute `minute` (seconds kept: the stop is 13:43:19)."""
    import re

    return re.sub(
        r"\[13:42:(\d)(\d)\]", lambda m: f"2026-12-05 {minute}:{m[1] if minute.endswith('42') else '0'}{m[2]},000", log
    )


def test_an_interrupted_hang_with_timed_steps_says_how_long_it_was_stuck(matcher):
    report = run(matcher, ("terminal.log", _dated(INTERRUPTED.read_text(), "13:42")))
    d = report.diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.confidence) == ("job_hang_no_progress", 1, "medium")
    assert "in the 46 s before it" in d.attribution.reasons[0].text


def test_a_ctrl_c_of_a_job_still_stepping_is_a_stop_not_a_hang(matcher):
    # the same tracebacks, but every rank logged a step within 20 s of the stop: the fast ranks were merely
    # waiting for the slowest one, as they do at any instant of a running job
    report = run(matcher, ("terminal.log", _dated(INTERRUPTED.read_text(), "13:43")))
    assert report.diagnoses[0].class_ == "preemption_sigterm"


def test_ddps_unfinished_reduction_is_a_program_error_on_the_rank_without_gradients(in_run):
    # unused parameters are the model's bug, not ranks calling different collectives (no mismatch report)
    d = in_run("005_ddp_unused_param_one_shard").diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("python_exception_other", 3)


def test_a_future_timeout_after_a_record_naming_the_checkpoint_upload_is_a_checkpoint_timeout(in_run):
    d = in_run("014_async_ckpt_upload_deadline").diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("checkpoint_write_timeout", 2)


def test_a_rank_whose_store_address_answers_something_else_is_the_rendezvous_failure(in_run):
    # rank 2's stale MASTER_ADDR reaches an HTTP server (the ping's nonce comes back as b"HTTP"); rank 0's store
    # waits for it (3/4 clients joined) and ranks 1 and 3 time out waiting on the store
    d = in_run("009_rank_wrong_master_addr").diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("c10d.store_ping_mismatch", "rendezvous_failure", 2)


def test_timeouts_explain_the_lost_peers_and_the_rank_in_another_collective_started_it(in_run):
    # rank 3 alone called barrier() (inside `if rank == writer:`); ranks 1 and 3 timed out, 0 and 2 lost the peer
    # that exited after its timeout; 0, 1 and 2 were in backward's gradient all-reduce, rank 3 in barrier
    # (ranks in different collectives: a collective mismatch, the evaluator's second label; its first was the timeout)
    d = in_run("012_barrier_inside_rank_branch").diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("collective_mismatch", 3, "collective_odd_one_out")
    assert {c.class_ for c in d.collateral} >= {"nccl_remote_peer_exited", "nccl_timeout"}
