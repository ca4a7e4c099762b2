"""What blind_t31 (20 excerpts from public issue threads, scored blind on e5c0910) revealed, and runs_r55 037, each
with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

TESTS = Path(__file__).resolve().parent
T31 = TESTS / "realworld" / "blind_t31" / "logs"


def _log(prefix: str) -> str:
    (path,) = T31.glob(f"{prefix}_*.log")
    return str(path)


def test_a_blocking_waits_timeout_is_a_collective_timeout(matcher):
    # 001: PyTorch 1.x's "RuntimeError: Operation timed out!" from all_reduce's work.wait(): it was a generic exception
    assert top(diagnose([_log("001")], matcher))[:2] == ("c10d.work_wait_timeout", "nccl_timeout")
    # PyTorch 2.x's words for it
    text = (
        "[rank1]:[E1002 18:16:40.662691402 ProcessGroupNCCL.cpp:756] [Rank 1] Work WorkNCCL(SeqNum=2521, "
        "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) timed out in blocking wait.\n"
    )
    assert top_of_text(matcher, text)[:2] == ("c10d.work_wait_timeout", "nccl_timeout")
    # macOS's ETIMEDOUT from a socket is not a collective
    text = "OSError: [Errno 60] Operation timed out\n"
    assert top_of_text(matcher, text)[0] != "c10d.work_wait_timeout"


def test_nccls_error_code_returned_from_its_api_at_info_level(matcher):
    # 010: "NCCL WARN nvmlDeviceGetHandleByPciBusId() failed", then "NCCL INFO init.cc:1548 -> 2" up to group.cc:
    # a system error returned to the program (it was the workers' cut traceback)
    assert top(diagnose([_log("010")], matcher))[:2] == ("nccl.warn_error_return", "nccl_system_error")
    # a deep frame's code at INFO level alone (a retried socket) is not
    text = "node1:1234:1290 [0] NCCL INFO misc/socket.cc:561 -> 3\nnode1:1234:1290 [0] NCCL INFO init.cc:1548 -> 0\n"
    assert top_of_text(matcher, text)[0] != "nccl.warn_error_return"


def test_a_ranks_last_word_done_says_it_finished(matcher):
    # runs_r55 037: both ranks catch and print shape errors (tracebacks interleaved with no rank prefix), train on,
    # and end with "[rank1] done" / "[rank0] done": healthy (it was the one healthy run still flagged)
    run = TESTS / "corpus" / "blind_r55" / "runs" / "037" / "console.log"
    assert top(diagnose([str(run)], matcher))[0] == "healthy"
    # the same errors with the ranks stopping there (no step, no "done" after them) are the failure
    lines = run.read_text().splitlines(keepends=True)
    cut = "".join(lines[: next(i for i, line in enumerate(lines) if line.startswith("[rank1] step 5"))])
    assert top_of_text(matcher, cut)[1] == "shape_mismatch"
