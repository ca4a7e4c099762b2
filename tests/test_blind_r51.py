"""What runs_r51 (34 real runs made hard to attribute, scored blind on 8c70000) revealed, each with a variant that
must not change."""

from __future__ import annotations

import json
import re
from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes

R51 = Path(__file__).resolve().parent / "corpus" / "blind_r51" / "runs"


def _top(report):
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_, d.initiating_rank) if d else (report.outcome, None, None)


def _inputs(run: str) -> list[str]:
    labels = (R51.parent / "labels.jsonl").read_text().splitlines()
    (row,) = [json.loads(line) for line in labels if json.loads(line)["run"] == run]
    return [str(R51 / run / name) for name in row["inputs"]]


def test_a_time_limit_long_after_a_ranks_own_failure_is_teardown(matcher, tmp_path):
    # 006: rank 1's torch.save hits a read-only directory at 12:25:47, the others block in all_reduce, and the job
    # hangs until Slurm's time limit at 12:26:44: the limit only ended it
    assert _top(diagnose(_inputs("006"), matcher)) == ("checkpoint.erofs", "checkpoint_permission_denied", 1)
    # the same log with the job still stepping up to the limit (no stall): the limit stands as how it ended
    text = (R51 / "006" / "slurm-4.out").read_text()
    lines = text.splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if "CANCELLED AT" in line)
    steps = [
        f"{r}: 2026-12-07 12:26:{40 + s:02d},000 INFO [rank{r}] step {5 + s} loss 3.0\n"
        for s in range(3)
        for r in (0, 2, 3)
    ]
    path = tmp_path / "slurm-4.out"
    path.write_text("".join(lines[:cut] + steps + lines[cut:]))
    assert _top(diagnose([str(path)], matcher))[1] == "slurm_time_limit"
    # and an error a few seconds before the limit, as its warning signal may cause, does not take it over either
    near = re.sub(r"12:25:4\d,\d{3}", "12:26:40,000", text)
    path.write_text(near)
    assert _top(diagnose([str(path)], matcher))[1] == "slurm_time_limit"


def test_a_logged_non_finite_loss_that_stops_a_rank_is_the_cause_of_the_others_timeouts(matcher):
    # 009: rank 1 logs "ERROR non-finite loss nan at step 3; aborting", no traceback; the others time out 20 s later
    assert _top(diagnose(_inputs("009"), matcher)) == ("train.loss_nonfinite_abort", "nan_inf_loss", 1)
    # a non-finite loss the loop skips is no abort
    skipped = "[2026-12-07 12:28:03,351] rank 1: ERROR non-finite loss nan at step 3; skipping the batch\n"
    report = diagnose_sources([source_from_bytes("x.log", skipped.encode())], matcher)
    assert not report.diagnoses or report.diagnoses[0].signature != "train.loss_nonfinite_abort"


def test_srun_naming_the_task_that_segfaulted_gives_its_rank(matcher):
    # 018: srun -o out_%t.log, --kill-on-bad-exit; "srun: error: vm: task 2: Segmentation fault" is rank 2
    assert _top(diagnose(_inputs("018"), matcher)) == ("process.segfault", "native_crash", 2)


def test_an_exception_about_a_bad_sample_or_a_named_shard_is_a_data_error(matcher):
    # 004 and 013: "ValueError: bad sample at index 43: ... (file train-00003.parquet)"; 010: a KeyError naming the
    # record and its .arrow shard, raised in a prefetch thread
    for run, rank in (("004", 2), ("010", 2), ("013", 2)):
        assert _top(diagnose(_inputs(run), matcher))[1:] == ("tokenizer_or_data_error", rank), run
    # a ValueError about a setting stays a plain exception
    text = (
        "Traceback (most recent call last):\n"
        '  File "/work/train.py", line 40, in main\n'
        '    raise ValueError(f"invalid value for --lr: {lr}")\n'
        "ValueError: invalid value for --lr: -1\n"
    )
    report = diagnose_sources([source_from_bytes("x.log", text.encode())], matcher)
    assert _top(report)[1] == "python_exception_other"


def test_srun_naming_one_task_gives_its_rank_and_a_range_names_none(matcher):
    head = "0: step 1 loss 2.0\n1: step 1 loss 2.1\n2: step 1 loss 2.2\n3: step 1 loss 2.3\n"
    one = head + "srun: error: node7: task 3: Segmentation fault (core dumped)\n"
    assert _top(diagnose_sources([source_from_bytes("x.log", one.encode())], matcher)) == (
        "process.segfault",
        "native_crash",
        3,
    )
    every = head + "srun: error: node7: tasks 0-3: Segmentation fault (core dumped)\n"
    assert _top(diagnose_sources([source_from_bytes("x.log", every.encode())], matcher))[2] is None
