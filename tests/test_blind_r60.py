"""What runs_r60 (58 real CPU runs, scored once on a0027693 by an evaluator who did not see the attribution code)
revealed, each fix with a variant that must not change."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r60" / "runs"


def test_a_console_on_which_torchrun_restarted_the_workers_until_they_finished_is_healthy(matcher):
    # 037: torchrun --max-restarts 2, no --log-dir: attempt 0 fails (a transient ConnectionResetError on rank 1),
    # attempt 1 fails in gloo's connectFullMesh, attempt 2 trains to "training complete" on both workers
    log = RUNS / "037" / "console.log"
    assert diagnose([str(log)], matcher).outcome == "healthy"
    # the same console cut before the last attempt finished is a failure
    text = log.read_text()
    cut = "".join(line for line in text.splitlines(keepends=True) if "training complete" not in line)
    assert cut != text
    assert top_of_text(matcher, cut)[0] != "healthy"


def test_an_uncaught_data_error_then_a_time_limit_is_the_data_error(matcher):
    # 053: rank 1's dataset raises ValueError on a malformed record; a non-daemon thread keeps the process alive, the
    # others wait in all_reduce, and Slurm cancels the job at its time limit a minute later. A generic exception
    # yields to a more specific signature near it on its rank, but a time limit names no exception better
    archive = RUNS / "053" / "slurm_logs.tar.gz"
    assert top(diagnose([str(archive)], matcher)) == ("data.input_pipeline_exception", "tokenizer_or_data_error", 1)
    with tarfile.open(archive) as tar:
        member = tar.extractfile("slurm-10.out")
        assert member is not None
        text = io.TextIOWrapper(member, encoding="utf-8").read()
    # without the traceback the job simply hung until its limit
    silent = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("1: [rank1]:"))
    assert silent != text
    assert top_of_text(matcher, silent, "slurm-10.out")[1] == "job_hang_no_progress"
