"""What blind_t30 (22 multi-rank excerpts from public issue threads, scored blind on 13d1fc8) revealed, each with a
variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

T30 = Path(__file__).resolve().parent / "realworld" / "blind_t30" / "logs"


def _log(prefix: str) -> str:
    (path,) = T30.glob(f"{prefix}_*.log")
    return str(path)


def test_torch_1_9s_failure_summary(matcher):
    # 020: "Root Cause:" / "rank: 0 (local_rank: 0)" / "exitcode: 1 (pid: 866229)" without padding: rank 0's error exit
    # (it was unrecognised)
    assert top(diagnose([_log("020")], matcher)) == ("launcher.exit_error", "python_exception_other", 0)
    # an exit code of 0 in that layout is no failure
    text = "Root Cause:\n[0]:\n  time: 2025-02-20_22:01:20\n  rank: 0 (local_rank: 0)\n  exitcode: 0 (pid: 8)\n"
    assert top_of_text(matcher, text)[0] != "launcher.exit_error"


def test_torchelastics_process_failure_record(matcher):
    # 015: dlrover's "{0: ProcessFailure(local_rank=0, pid=54, exitcode=-7, ...)}": a SIGBUS on rank 0 (it was healthy)
    assert top(diagnose([_log("015")], matcher))[::2] == ("launcher.exit_sigbus", 0)
    # on a node whose workers are ranks 4-7, the record's local rank 1 is global rank 5 (a review's case)
    steps = "".join(f"[rank{r}]: step 10 loss=1.10\n" for r in range(4, 8))
    record = (
        "[2024-03-26 10:13:01,000] [ERROR] [training.py:120:_invoke_run] The worker fails with {1: ProcessFailure("
        "local_rank=1, pid=77, exitcode=1, error_file='<N/A>', error_file_data={'message': '<NONE>'}, "
        "message='<NONE>', timestamp=1711419181)}\n"
    )
    assert top_of_text(matcher, steps + record)[2] == 5
    # a record with exit code 0 is a worker that finished
    text = "{1: ProcessFailure(local_rank=1, pid=9, exitcode=0, error_file='<N/A>', message='', timestamp=1)}\n"
    assert top_of_text(matcher, text)[0] not in ("launcher.exit_error", "launcher.exit_sigbus")


def test_pytorch_and_lightning_lines_make_a_text_a_log(matcher):
    # 013: PyTorch's C++ warning "(Triggered internally at ../torch/csrc/distributed/c10d/reducer.cpp:325.)" in
    # backticks, and 010: Lightning's "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8": both were called no log
    assert top(diagnose([_log("013")], matcher))[0] == "healthy"
    assert top(diagnose([_log("010")], matcher))[0] == "healthy"
    # prose about the warning, without where it was raised, is still no log
    prose = "If you see a warning that was triggered internally, read the DDP notes.\nThanks for the help!\n"
    assert top_of_text(matcher, prose, "README.md")[0] == "not_a_log"


def test_one_ranks_timeout_alone_names_no_other_rank(matcher):
    # 016, 017: only rank 1's watchdog timeout is in the excerpt; rank 0 was named as the silent one because the
    # numbering implied it, though the other ranks' logs are simply not there
    for prefix in ("016", "017"):
        d = diagnose([_log(prefix)], matcher).diagnoses[0]
        assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_timeout", None, "peer_unknown")
    # rank 0 in the log, stepping, while rank 1 timed out: rank 0 is the silent one
    text = (
        "[rank0]: step 10 loss 0.5\n[rank1]: step 10 loss 0.5\n"
        "[rank1]:[E206 16:45:19.236012277 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=5919, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600010 "
        "milliseconds before timing out.\n"
    )
    assert top_of_text(matcher, text)[2] == 0
