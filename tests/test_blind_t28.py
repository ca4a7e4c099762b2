"""What blind_t28 (23 multi-rank excerpts from public issue threads, scored blind on f65d5fd) revealed, each with a
variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

T28 = Path(__file__).resolve().parent / "realworld" / "blind_t28" / "logs"


def _log(prefix: str) -> str:
    (path,) = T28.glob(f"{prefix}_*.log")
    return str(path)


def test_mpiruns_report_of_an_illegal_instruction_names_the_rank(matcher):
    # 003: "mpirun noticed that process rank 0 with PID 0 on node exited on signal 4 (Illegal instruction)." (no node
    # name): it was called healthy
    assert top(diagnose([_log("003")], matcher)) == ("launcher.exit_sigill", "dependency_abi_mismatch", 0)
    # another signal number is not an illegal instruction
    line = "mpirun noticed that process rank 0 with PID 0 on node exited on signal 15 (Terminated).\n"
    assert top_of_text(matcher, line)[0] != "launcher.exit_sigill"


def test_the_first_process_that_exited_non_zero_is_named_by_its_process_name(matcher):
    # 004: Horovod's "The first process to do so was:" / "Exit code: 1" / "Process name: 1" under Determined's
    # prefixes: rank 1 (blind_t29 made the later exit 137 of another container its teardown: test_blind_t29)
    assert top(diagnose([_log("004")], matcher))[2] == 1
    # mpirun's own layout, the name first: rank 3
    text = (
        "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
        "the job to be terminated. The first process to do so was:\n\n"
        "  Process name: [[49920,1],3]\n  Exit code:    1\n"
    )
    assert top_of_text(matcher, text) == ("launcher.exit_error", "python_exception_other", 3)
    # an exit code of 0 names no failed process
    assert top_of_text(matcher, text.replace("Exit code:    1", "Exit code:    0"))[0] != "launcher.exit_error"


def test_an_accelerate_evaluation_start_is_a_healthy_log_not_no_log(matcher):
    # 022: accelerate's "The following values were not passed to `accelerate launch`" notice and pycocotools'
    # "loading annotations into memory..." on two processes, then nothing else: it was called no training log
    assert top(diagnose([_log("022")], matcher))[0] == "healthy"
    # a README quoting the notice mid-sentence is still no log
    prose = "If you see that the following values were not passed to accelerate, run accelerate config.\nThanks!\n"
    assert top_of_text(matcher, prose, "README.md")[0] == "not_a_log"


def test_open_mpis_peer_disconnected_notice_is_a_lost_peer_without_a_rank(matcher):
    # 017: Open MPI's "An MPI communication peer process has unexpectedly disconnected" help text, with the local and
    # peer hosts: it was called no training log
    d = diagnose([_log("017")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "mpi.peer_unexpectedly_disconnected",
        "nccl_remote_peer_exited",
        None,
    )
    # with mpirun's report of the process that ended first, that one is named
    text = (
        Path(_log("017")).read_text()
        + "mpirun noticed that process rank 5 with PID 81 on node n7 exited on signal 9 (Killed).\n"
    )
    assert top_of_text(matcher, text)[2] == 5
