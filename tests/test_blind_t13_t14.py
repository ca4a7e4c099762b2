"""What blind_t13 and blind_t14 revealed (multi-rank issue-thread excerpts scored blind on cf0feb4), each with a
variant that must not change."""

from __future__ import annotations

import io
from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes
from signatures._unwrap import quoted, unwrapped

HERE = Path(__file__).resolve().parent / "realworld"
T13, T14 = HERE / "blind_t13" / "logs", HERE / "blind_t14" / "logs"


def _top(report):
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_, d.initiating_rank) if d else (report.outcome, None, None)


def test_horovodruns_own_rank_tag(matcher):
    # horovodrun (gloo): "[2]<stderr>:RuntimeError: ..." is rank 2's
    assert _top(diagnose([str(T13 / "001_horovod_rank2_runtimeerror.log")], matcher)) == (
        "python.uncaught_exception",
        "python_exception_other",
        2,
    )


def test_a_log_ending_inside_one_ranks_traceback_is_that_ranks_exception(matcher):
    d = diagnose([str(T13 / "015_horovod_yolov3_rank1_traceback.log")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("python.traceback_cut", "python_exception_other", 1)
    assert (d.attribution.rule, d.attribution.confidence) == ("traceback_cut", "low")
    # a traceback followed by the exception line is that exception; one the rank trained past is nothing
    text = (T13 / "015_horovod_yolov3_rank1_traceback.log").read_text()
    done = text + "[1,1]<stderr>:ValueError: bad targets\n"
    assert (
        _top(diagnose_sources([source_from_bytes("a.log", done.encode())], matcher))[0] == "python.uncaught_exception"
    )
    went_on = text + "".join(f"[1,1]<stdout>:Epoch 1/10  step {i}  loss 3.{i}\n" for i in range(130, 142))
    assert _top(diagnose_sources([source_from_bytes("b.log", went_on.encode())], matcher))[0] == "healthy"


def test_a_paste_quoted_as_markdown_is_read_without_its_marks(matcher):
    report = diagnose([str(T14 / "004_msswift_megatron_ibv_reg_mr_system_error.log")], matcher)
    assert _top(report) == ("nccl.unhandled_system_error", "nccl_system_error", 10)
    assert "quoted as markdown" in report.stats.notes[0]
    assert unwrapped(io.BytesIO(b"> a\n>b\n> c\n"), None, quote=True).read() == b"a\nb\nc\n"
    # a log whose lines merely include some ">" (a prompt, a diff) is read as it is
    assert not quoted(b"> one\nstep 1 loss 2\nstep 2 loss 1\n>>> two\nstep 3 loss 1\n", whole=True)
