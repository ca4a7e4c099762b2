"""What blind_t29 (22 multi-rank excerpts from public issue threads, scored blind on 588df76) revealed, each with a
variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

REALWORLD = Path(__file__).resolve().parent / "realworld"


def _log(prefix: str, blind_set: str = "blind_t29") -> str:
    (path,) = (REALWORLD / blind_set / "logs").glob(f"{prefix}_*.log")
    return str(path)


def _why(report) -> str:
    attribution = report.diagnoses[0].attribution
    return " ".join(r.text for r in attribution.reasons)


def test_horovods_stall_inspector_names_the_rank_the_others_wait_for(matcher):
    # 002: "allreduce.avg_loss [missing ranks: 1]" under the stall warning: rank 1 (rank 0 was named)
    report = diagnose([_log("002")], matcher)
    assert top(report) == ("horovod.stall_inspector_warning", "job_hang_no_progress", 1)
    assert "rank 1 alone missing" in _why(report)
    # 001: only the tensors with "[ready ranks: 5, 6, 3, 1, 4, 0]", no warning line: rank 2 is the one not ready (it
    # was called healthy)
    assert top(diagnose([_log("001")], matcher)) == ("horovod.stall_inspector_warning", "job_hang_no_progress", 2)
    # blind_t28 001: eleven broadcasts "[missing ranks: 0]": rank 0
    assert top(diagnose([_log("001", "blind_t28")], matcher))[2] == 0
    # 017: "[ready ranks: 3]" for the loss, "[ready ranks: 2, 0, 1]" for every gradient: rank 3 ran different code
    report = diagnose([_log("017")], matcher)
    assert top(report)[2] == 3
    assert "rank 3 alone ready" in _why(report)


def test_horovod_stalls_that_single_out_no_rank_name_none(matcher):
    warning = (
        "One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are "
        "waiting for remainder of ranks for more than 60 seconds.\n"
    )
    # different ranks missing from different tensors
    text = warning + "HorovodAllreduce_a_0 [missing ranks: 1]\nHorovodAllreduce_b_0 [missing ranks: 2]\n"
    assert top_of_text(matcher, text)[2] is None
    # two ranks missing alike
    assert top_of_text(matcher, warning + "HorovodAllreduce_a_0 [missing ranks: 1, 2]\n")[2] is None
    # four ranks stepping, "[ready ranks: 0, 2]": ranks 1 and 3 are both missing, whatever the list's highest rank
    steps = "".join(f"[rank{r}]: step 7 loss 0.5\n" for r in range(4))
    assert top_of_text(matcher, steps + warning + "HorovodAllreduce_a_0 [ready ranks: 0, 2]\n")[2] is None
    # two ranks alone in one tensor against two in another: no single odd one
    text = warning + "HorovodAllreduce_a_0 [ready ranks: 0, 1]\nHorovodAllreduce_b_0 [ready ranks: 2, 3]\n"
    assert top_of_text(matcher, text)[2] is None


def test_a_monitored_barrier_report_that_points_at_the_coordinator(matcher):
    # 003: "Rank 3 successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0.
    # Please check rank 0 logs for faulty rank": rank 0 ran the check, and its own log names the rank that never
    # arrived (blind_r37 026 has both: ranks 1 and 2 print this line about rank 0, rank 0 names rank 3). The label's
    # rank 0 is where to look, not the culprit: no rank
    assert top(diagnose([_log("003")], matcher)) == ("c10d.monitored_barrier_timeout", "nccl_timeout", None)
    # the report of the rank that ran the check names the rank that never arrived
    text = "[rank0]: RuntimeError: Rank 2 failed to pass monitoredBarrier in 20000 ms\n"
    assert top_of_text(matcher, text)[2] == 2


def test_a_port_in_use_message_wrapped_over_lines(matcher):
    # 007: "... bind to [::]:29600 (errno: 98 - Address\nalready in use)" as posted: it was a generic exception
    assert top(diagnose([_log("007")], matcher)) == ("c10d.server_socket_bind_failed", "port_in_use", None)
    # a wrapped refusal to connect is not a port in use
    text = (
        "RuntimeError: The client socket has failed to connect to any network address of (node1, 29600).\n"
        "The client socket has failed to connect to node1:29600 (errno: 111 - Connection\nrefused).\n"
    )
    assert top_of_text(matcher, text)[1] != "port_in_use"


def test_a_ray_task_that_raised_torchs_out_of_memory_error(matcher):
    # 009: "ray.exceptions.RayTaskError(OutOfMemoryError): ray::main_task()" with the log cut below it: a GPU OOM (it
    # was a cut traceback)
    assert top(diagnose([_log("009")], matcher))[:2] == ("cuda.out_of_memory", "cuda_oom")
    # Ray's own memory monitor is host memory
    text = "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
    assert top_of_text(matcher, text)[1] == "host_oom_killed"


def test_deepspeeds_zero3_disagreement_between_ranks(matcher):
    # 012: one report, "disagreement between rank0 and rank6": the ranks ran different code, and one report cannot
    # tell which of the two did (it was a generic exception on rank 0)
    assert top(diagnose([_log("012")], matcher)) == ("deepspeed.zero3_rank_disagreement", "collective_mismatch", None)
    # every other rank of a 3-rank job differing from rank 0: rank 0 is the odd one
    text = (
        "[rank1]: RuntimeError: disagreement between rank0 and rank1: rank0: [1, 2], rank1: [1, 3]\n"
        "[rank2]: RuntimeError: disagreement between rank0 and rank2: rank0: [1, 2], rank2: [1, 3]\n"
    )
    assert top_of_text(matcher, text) == ("deepspeed.zero3_rank_disagreement", "collective_mismatch", 0)
    # two of six ranks differing from rank 0 (the other three agree with it): no rank (a review's case)
    text = "".join(f"[rank{r}]: step 3 loss 0.5\n" for r in range(6)) + (
        "[rank2]: RuntimeError: disagreement between rank0 and rank2: rank0: [1, 2], rank2: [1, 3]\n"
        "[rank5]: RuntimeError: disagreement between rank0 and rank5: rank0: [1, 2], rank5: [1, 4]\n"
    )
    assert top_of_text(matcher, text)[2] is None


def test_a_tpu_slice_whose_hosts_did_not_all_join(matcher):
    # 015: torch_xla's "Invalid system configuration: 2x4 host topology with 0 missing hosts, but 1 hosts in total"
    # (it was called healthy)
    assert top(diagnose([_log("015")], matcher)) == ("tpu.invalid_system_configuration", "rendezvous_failure", None)


def test_a_workers_store_request_that_timed_out(matcher):
    # 005: two workers' "[c10d] waitForInput: socket ... timed out after 1800000ms", then a traceback cut short: the
    # store timeout (it was the cut traceback)
    assert top(diagnose([_log("005")], matcher))[:2] == ("c10d.store_wait_timeout", "nccl_timeout")
    # the same timeout in torchrun's own agent (its traceback through run.py) stays the agent's rendezvous failure
    text = (
        "[W228 18:45:15.741177013 socket.cpp:487] [c10d] waitForInput: socket SocketImpl(fd=11, addr=[a]:38674, "
        "remote=[b]:23456) timed out after 900000ms\nTraceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/run.py", line 923, in <module>\n'
    )
    assert top_of_text(matcher, text)[0] == "elastic.agent_store_read_timeout"


def test_a_container_killed_after_the_first_process_failed_is_teardown(matcher):
    # blind_t28 004: Horovod's "The first process to do so was: Exit code: 1, Process name: 1" at 10:43:01, then
    # another container's "exit code 137" at 10:43:22: rank 1's own failure, the kill its teardown
    report = diagnose([_log("004", "blind_t28")], matcher)
    assert top(report) == ("launcher.exit_error", "python_exception_other", 1)
    # a kill stamped before the first process's exit is still the failure
    text = (
        "[2021-12-07 10:42:50] INFO: container failed with non-zero exit code:  (exit code 137)\n"
        "[2021-12-07 10:43:01] The first process to do so was:\n"
        "[2021-12-07 10:43:01] Exit code: 1\n[2021-12-07 10:43:01] Process name: 1\n"
    )
    assert top_of_text(matcher, text)[1] == "host_oom_killed"
