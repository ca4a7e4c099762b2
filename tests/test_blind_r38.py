"""What runs_r38 (32 messy real runs scored blind on 6b0a024) revealed, each with a variant that must not change."""

from __future__ import annotations

import shutil
from pathlib import Path

from signatures import diagnose

R38 = Path(__file__).resolve().parent / "corpus" / "blind_r38" / "runs"


def _top(report):
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_, d.initiating_rank) if d else (report.outcome, None, None)


def _run(where: Path) -> list[str]:
    return [str(where / "console.log"), str(where / "logs")]


def test_a_workers_stderr_error_its_stdout_trained_past_is_not_a_failure(matcher, tmp_path):
    # torchrun --redirects 3: rank 0's stderr.log holds a caught metrics-upload error (untimed); its stdout.log shows
    # training going on to "training finished"
    assert diagnose(_run(R38 / "006"), matcher).outcome == "healthy"
    # the same error when the worker's stdout never says it finished: the error stands
    copy = tmp_path / "006"
    shutil.copytree(R38 / "006", copy)
    (stdout,) = copy.glob("logs/*/attempt_0/0/stdout.log")
    stdout.write_text("".join(line for line in stdout.open() if "training finished" not in line))
    assert _top(diagnose(_run(copy), matcher))[1:] == ("hub_network_error", 0)
    # a worker that said it finished and then crashed, which its launcher saw fail: its stderr is not vouched for
    crashed = tmp_path / "crashed"
    shutil.copytree(R38 / "006", crashed)
    (stderr,) = crashed.glob("logs/*/attempt_0/0/stderr.log")
    with stderr.open("a") as fh:
        fh.write('Traceback (most recent call last):\n  File "/w/train.py", line 9, in <module>\n    save()\n')
        fh.write("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n")
    with (crashed / "console.log").open("a") as fh:
        fh.write(
            "E1206 22:31:25.862000 17069 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
            "local_rank: 0 (pid: 17075) of binary: /usr/bin/python3\n"
        )
    assert _top(diagnose(_run(crashed), matcher))[1:] == ("cuda_oom", 0)


def test_a_failure_in_a_torchrun_attempt_comes_before_the_next_attempts(matcher):
    # attempt 0: rank 2's torn JSON record (an untimed traceback in its stderr.log); attempt 1: every rank fails to
    # connect, stamped; torchrun's final table names attempt 1's rank 0
    d = diagnose(_run(R38 / "032"), matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("tokenizer_or_data_error", 2)
    assert "attempt_0/2/" in d.first_seen.source
