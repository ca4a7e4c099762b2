"""What blind_t26 (15 excerpts from public issue threads of less-used stacks, scored blind on 7f0ec13) revealed, each
with a variant that must not change."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

T26 = Path(__file__).resolve().parent / "realworld" / "blind_t26" / "logs"


def _log(prefix: str) -> str:
    (path,) = T26.glob(f"{prefix}_*.log")
    return str(path)


def test_jaxs_coordination_service_names_the_task_whose_heartbeat_stopped(matcher):
    # 001: "Task /job:jax_worker/replica:0/task:37 heartbeat timeout. This indicates that the remote task has failed,
    # got preempted, or crashed unexpectedly." while every other process had just logged step 198: it was "healthy"
    assert top(diagnose([_log("001")], matcher)) == (
        "jax.coordination_heartbeat_timeout",
        "nccl_remote_peer_exited",
        37,
    )
    # the task's own error, logged before the service noticed, is what started it
    own = (
        "2022-11-15 16:02:50.000000: E trainer.py:12] jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out "
        "of memory while trying to allocate 1073741824 bytes.\n"
    )
    text = Path(_log("001")).read_text()
    lines = text.splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if "heartbeat timeout" in line)
    assert top_of_text(matcher, "".join(lines[:cut] + [own] + lines[cut:]))[:2] == (
        "xla.resource_exhausted_oom",
        "cuda_oom",
    )


def test_a_failure_table_entry_without_its_pid_is_still_the_launchers_record(matcher):
    # 003: an older torchrun prints "exitcode  : 1 " with no "(pid: N)" in its Root Cause entry, and the agent's own
    # line is not in the paste: it was "healthy"
    assert top(diagnose([_log("003")], matcher)) == ("launcher.exit_error", "python_exception_other", 1)
    # an entry that exited 0 is no failure
    text = Path(_log("003")).read_text().replace("exitcode  : 1 ", "exitcode  : 0 ")
    assert top_of_text(matcher, text)[1] != "python_exception_other"


def test_a_kill_the_table_times_after_another_ranks_own_exit_is_teardown(matcher):
    # 010: rank 3 exits 1 at 13:02:58; rank 0 is SIGKILLed and rank 2 SIGTERMed at 13:03:29, when torchrun gave up
    # on the survivors; the Root Cause entry (rank 1) is cut off after its rank line. The kill was taken for an OOM
    assert top(diagnose([_log("010")], matcher)) == ("launcher.exit_error", "python_exception_other", 3)
    # a kill in the same second as the exit may have come first: it still leads
    text = Path(_log("010")).read_text().replace("2026-09-07_13:03:29", "2026-09-07_13:02:58")
    assert top_of_text(matcher, text)[1:] == ("host_oom_killed", 0)


def test_the_root_cause_entry_leads_only_where_its_index_is_in_the_paste(matcher):
    # 010's Root Cause block lost its exit line, so its Failures entries keep their order: the last of them is not
    # taken for the Root Cause
    text = Path(_log("010")).read_text()
    assert "[0]:" in text and top_of_text(matcher, text)[2] == 3
    # 013: four ranks exit 1 in the same second; the Root Cause (rank 0) is named, with low confidence, and the reason
    # says the others ended in that second too
    report = diagnose([_log("013")], matcher)
    d = report.diagnoses[0]
    assert d.initiating_rank == 0 and d.attribution.confidence == "low"
    assert any(re.search(r"ranks 2, 3 ended in the same second", r.text) for r in d.attribution.reasons)


def test_several_ranks_timing_out_alike_with_several_missing_name_no_rank(matcher):
    # 014: ranks 1, 7, 2, 3, 5 time out in one _ALLGATHER_BASE (SeqNum 211067); ranks 0, 4 and 6 are not in the
    # excerpt. The first timeout printed (rank 1) was named; any of the three missing could be the one
    report = diagnose([_log("014")], matcher)
    d = report.diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_timeout", None, "all_alike")
    assert "ranks 0, 4, 6 did not report the timeout" in d.attribution.reasons[0].text
    # with only rank 6 missing, it is the silent rank the others waited for
    text = Path(_log("014")).read_text()
    line = next(x for x in text.splitlines(keepends=True) if "[Rank 1]" in x)
    more = text + line.replace("[Rank 1]", "[Rank 0]") + line.replace("[Rank 1]", "[Rank 4]")
    assert top_of_text(matcher, more)[1:] == ("nccl_timeout", 6)


REVIEW = Path(__file__).resolve().parent / "corpus" / "review_s36"


def test_review_probes_of_this_stops_rules(matcher):
    # p1: the Root Cause entry numbered [1]: it is found by its header, not by its number
    assert top(diagnose([str(REVIEW / "p1_rootcause_idx1.log")], matcher))[2] == 1
    # p2: node B's agent stopped rank 2 after rank 3's own exit; node A's ranks 0, 1 timed out: rank 3, not the
    # stopped rank (its table lists no rank whose timeout is shown)
    assert top(diagnose([str(REVIEW / "p2_nodeB_crash_then_timeouts.log")], matcher))[2] == 3
    # p9: of the ranks not in the timeouts, rank 3 stopped making progress first (step 97, the others 100)
    d = diagnose([str(REVIEW / "p9_two_missing_one_stopped_early.log")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (3, "progress_stopped_first")
    # p3: srun saw task 5 exit on its own before the others timed out
    d = diagnose([str(REVIEW / "p3_timeouts_srun_task_failed.log")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (5, "launcher_exit")
