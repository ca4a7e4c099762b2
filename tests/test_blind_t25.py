"""What blind_t25 (21 multi-rank excerpts from public issue threads, scored blind on 07352c4) revealed, each with a
variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose, diagnose_sources, source_from_bytes

T25 = Path(__file__).resolve().parent / "realworld" / "blind_t25" / "logs"


def _log(prefix: str) -> str:
    (path,) = T25.glob(f"{prefix}_*.log")
    return str(path)


def test_torchruns_agent_line_alone_names_a_segfault(matcher):
    # 008: "failed (exitcode: -11) local_rank: 1 (pid: 5528)" after the survivors were SIGTERMed then SIGKILLed; no
    # failure table with the signal's name: it was answered as no failure at all
    assert top(diagnose([_log("008")], matcher)) == ("process.segfault", "native_crash", 1)
    # a worker stopped by the agent's SIGTERM is no segfault
    line = "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -15) local_rank: 1 (pid: 5528)\n"
    assert top_of_text(matcher, line)[0] != "process.segfault"


def test_mpiruns_report_with_its_pid_blanked_out_names_the_killed_rank(matcher):
    # 020: "mpirun noticed that process rank 1 with PID xxxxxx on node xxxxxxxx exited on signal 9 (Killed)."
    assert top(diagnose([_log("020")], matcher)) == ("launcher.exit_sigkill", "host_oom_killed", 1)
    # the same report of a segfault and of an abort
    said = "mpirun noticed that process rank {r} with PID 4242 on node gpu2 exited on signal {s} ({w}).\n"
    assert top_of_text(matcher, said.format(r=2, s=11, w="Segmentation fault")) == (
        "process.segfault",
        "native_crash",
        2,
    )
    assert top_of_text(matcher, said.format(r=3, s=6, w="Aborted"))[::2] == ("launcher.exit_sigabrt", 3)


def test_torchruns_failure_table_names_its_root_cause_entry_not_the_first_printed(matcher):
    # 002: "Failures:" lists rank 7 and "Root Cause (first observed failure):" rank 6, both exit 1 in the same second
    assert top(diagnose([_log("002")], matcher)) == ("launcher.exit_error", "python_exception_other", 6)
    # the same table with the two entries' ranks swapped names the other rank: the entry, not the number, decides
    text = Path(_log("002")).read_text()
    swapped = text.replace("rank      : 7 (local_rank: 7)", "@@").replace(
        "rank      : 6 (local_rank: 6)", "rank      : 7 (local_rank: 7)"
    )
    swapped = swapped.replace("@@", "rank      : 6 (local_rank: 6)")
    assert top_of_text(matcher, swapped)[2] == 7


def test_srun_killing_the_other_tasks_after_its_step_was_cancelled_is_teardown(matcher):
    # 006: "task 5: Exited with exit code 1", slurmstepd's "*** STEP ... CANCELLED AT ... ***", then fifteen tasks
    # "Killed" (some in lists: "tasks 9-10,12-15"): the kills are srun ending the step, the exit is the cause
    assert top(diagnose([_log("006")], matcher)) == ("launcher.exit_error", "python_exception_other", 5)
    report = diagnose([_log("006")], matcher)
    reasons = " ".join(r.text for r in report.diagnoses[0].attribution.reasons)
    assert "stopped 15 other rank(s)" in reasons
    text = Path(_log("006")).read_text()
    # without a task's error exit before it, the cancel stands as what ended the step
    cancelled = "".join(line for line in text.splitlines(keepends=True) if "Exited with exit code" not in line)
    assert top_of_text(matcher, cancelled)[1] == "preemption_sigterm"
    # and with no cancel between the exit and the kills, the kills are not taken for srun's teardown
    kills = "".join(line for line in text.splitlines(keepends=True) if "CANCELLED AT" not in line)
    assert top_of_text(matcher, kills)[1] == "host_oom_killed"


def test_timeouts_in_different_collectives_at_one_seqnum_without_the_group_named(matcher):
    # 003: a release that names no process group; ranks 0, 1, 3 time out in ALLREDUCE and rank 2 in ALLGATHER, all
    # at SeqNum=1803: rank 2 ran another collective
    assert top(diagnose([_log("003")], matcher)) == (
        "nccl.ranks_differ_at_same_collective",
        "collective_mismatch",
        2,
    )
    text = Path(_log("003")).read_text()
    # a low sequence number could be two groups' calls: no mismatch without the group
    assert top_of_text(matcher, text.replace("SeqNum=1803", "SeqNum=37"))[1] == "nccl_timeout"
    # nor with only two ranks' timeouts (no majority to tell the odd one)
    two = "".join(line for line in text.splitlines(keepends=True) if "[Rank 0]" not in line and "[Rank 3]" not in line)
    assert top_of_text(matcher, two)[1] == "nccl_timeout"
    # nor when another rank timed out at another number
    other = text.replace(
        "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1803",
        "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1790",
    )
    assert top_of_text(matcher, other)[1] == "nccl_timeout"
    # nor when only the sizes differ: two groups used in lockstep (a mixture-of-experts job's dense and expert
    # reduces) reach the same count, and a rank in the other group's reduce shows another size (blind_c1 039)
    sizes = text.replace("OpType=ALLGATHER", "OpType=ALLREDUCE")
    sizes = sizes.replace(
        "WorkNCCL(SeqNum=1803, OpType=ALLREDUCE, ", "WorkNCCL(SeqNum=1803, OpType=ALLREDUCE, NumelIn=9, "
    )
    sizes = sizes.replace(
        "[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1803, OpType=ALLREDUCE, NumelIn=9",
        "[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1803, OpType=ALLREDUCE, NumelIn=7",
    )
    assert "NumelIn=7" in sizes and top_of_text(matcher, sizes)[1] == "nccl_timeout"


def test_vllm_worker_names_give_ranks(matcher):
    # 016: "(Worker_DP0_TP0_EP0 pid=1539019) ... CUDA error: an illegal memory access": every index 0 is rank 0
    assert top(diagnose([_log("016")], matcher)) == ("cuda.illegal_memory_access", "cuda_illegal_memory_access", 0)
    text = Path(_log("016")).read_text()
    # a worker named by two non-zero places: the sizes are not in the name, no rank
    assert top_of_text(matcher, text.replace("Worker_DP0_TP0_EP0", "Worker_DP1_TP1_EP3"))[2] is None
    # one dimension: its index (a pipeline stage, a tensor-parallel shard, with the EP index that subdivides it)
    assert top_of_text(matcher, text.replace("Worker_DP0_TP0_EP0", "Worker_PP3"))[2] == 3
    assert top_of_text(matcher, text.replace("Worker_DP0_TP0_EP0", "Worker_TP2_EP2"))[2] == 2


def test_a_vllm_workers_traceback_is_a_failure_of_its_rank_not_a_text_that_is_no_log(matcher):
    # 015: only "WorkerProc hit an exception." and the traceback's first lines, each under vLLM's "(Worker_PP3
    # pid=...) ERROR 10-17 02:19:27 [file.py:654]" prefix: it was called no training log at all
    report = diagnose([_log("015")], matcher)
    assert report.not_a_log is None and report.outcome != "healthy"
    assert report.unrecognised and report.unrecognised[0].rank == 3
    # prose that mentions a pid in brackets mid-line is still no log
    prose = "The service (see the notes above, pid=42) restarts nightly.\nNothing else happened.\n"
    assert diagnose_sources([source_from_bytes("notes.txt", prose.encode())], matcher).not_a_log is not None


def test_several_agents_failure_tables_in_one_file_each_end_at_their_root_cause(matcher):
    # after a review: two torchrun agents' tables in one console (blind_r2 006's, without the agents' own "failed
    # (exitcode: 1)" lines): node B's table (Root Cause rank 2, at 12:36:29) comes first, node A's (rank 1, then Root
    # Cause rank 0, at 12:36:30) after it; node A's Root Cause must not be moved above node B's
    console = Path(__file__).resolve().parent / "corpus" / "blind_r2" / "runs" / "006_ckpt_readonly_node_r2"
    lines = (console / "console.log").read_text().splitlines(keepends=True)[60:139]
    tables = "".join(line for line in lines if "failed (exitcode" not in line)
    assert "Root Cause" in tables and top_of_text(matcher, tables)[2] == 2


def test_the_ungrouped_odd_operation_needs_one_rank_against_the_rest_and_no_point_to_point(matcher):
    # after a review of 003's fix: two ranks against two is two groups in lockstep as well; a send against the
    # receives it pairs with is one exchange
    text = Path(_log("003")).read_text()
    two_two = text.replace(
        "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1803, OpType=ALLREDUCE",
        "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1803, OpType=ALLGATHER",
    )
    assert top_of_text(matcher, two_two)[1] == "nccl_timeout"
    p2p = text.replace("OpType=ALLREDUCE", "OpType=RECV").replace("OpType=ALLGATHER", "OpType=SEND")
    assert top_of_text(matcher, p2p)[1] == "nccl_timeout"


def test_a_vllm_workers_name_wins_over_a_rank_its_message_mentions(matcher):
    text = (
        "(Worker_TP3 pid=4242) INFO 10-17 02:19:20 [parallel_state.py:1] rank 0 in world size 4 is assigned as DP "
        "rank 0, PP rank 0, TP rank 3\n"
        "(Worker_TP3 pid=4242) ERROR 10-17 02:19:27 [multiproc_executor.py:654] torch.AcceleratorError: CUDA error: "
        "an illegal memory access was encountered\n"
    )
    assert top_of_text(matcher, text) == ("cuda.illegal_memory_access", "cuda_illegal_memory_access", 3)
