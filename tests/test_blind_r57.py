"""What runs_r57 (43 real CPU runs made by a blind evaluator with its own generators, scored once on e5c0910)
revealed, each with a variant that must not change."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import run, top

from signatures import diagnose

CORPUS = Path(__file__).resolve().parent / "corpus"
RUNS = CORPUS / "blind_r57" / "runs"


def test_a_time_limit_after_a_rank_failed_and_exited_is_teardown(matcher):
    # 012: rank 0's checkpoint write is refused and srun records "task 0: Exited with exit code 1" 51 s before the
    # time limit; the others keep printing "waiting for checkpoint ... marker" (no steps) until Slurm cancels: it was
    # the time limit
    report = diagnose([str(RUNS / "012" / "slurm-7.out")], matcher)
    assert top(report) == ("checkpoint.zip_writer_open_denied", "checkpoint_permission_denied", 0)
    # the same failure with no record of the rank's exit: the steps had still stopped 50 s (many of their intervals)
    # before the limit while the others only waited, so the refused write stands (until stop 39 the rankless steps
    # gave no pace, and this read as the limit)
    text = (RUNS / "012" / "slurm-7.out").read_text()
    no_exit = "".join(line for line in text.splitlines(keepends=True) if "task 0: Exited" not in line)
    assert no_exit != text
    assert top(run(matcher, ("slurm-7.out", no_exit)))[1] == "checkpoint_permission_denied"
    # ... but with the others training on up to the limit (steps, not waiting), the limit stands
    stepping = re.sub(r"waiting for checkpoint step_4 marker \((\d+)s\)", r"step \1 loss 0.52", no_exit)
    assert stepping != no_exit
    assert top(run(matcher, ("slurm-7.out", stepping)))[1] == "slurm_time_limit"


def test_a_hub_download_retrying_while_the_others_time_out(matcher):
    # 043 (and runs_r56 032, another evaluator's generator): rank 0 retries an unreachable HF_ENDPOINT ("'[Errno 111]
    # Connection refused' thrown while requesting HEAD ..."), ranks 1 and 2 time out at the barrier: it was the timeout
    for path in (RUNS / "043" / "console.log", CORPUS / "blind_r56" / "runs" / "032" / "console.log"):
        assert top(diagnose([str(path)], matcher)) == ("hf_hub.connection_retrying", "hub_network_error", 0)
    # retries followed by training going on to the end are no failure
    text = (
        "'[Errno 111] Connection refused' thrown while requesting HEAD https://huggingface.co/gpt2/resolve/main/x.json\n"
        "Retrying in 1s [Retry 1/5].\n"
        "'[Errno 111] Connection refused' thrown while requesting HEAD https://huggingface.co/gpt2/resolve/main/x.json\n"
        "Retrying in 2s [Retry 2/5].\n"
        + "".join(f"[rank0]: step {i} loss 0.5\n[rank1]: step {i} loss 0.5\n" for i in range(5))
        + "[rank0]: training finished\n[rank1]: training finished\n"
    )
    assert top(run(matcher, ("console.log", text)))[0] == "healthy"


def test_a_threads_name_is_read_with_its_traceback(matcher):
    # the traceback of "Exception in thread prefetch:" whose frames never name a prefetch function (run() of a
    # Thread subclass), ending in a JSON decode error: the data pipeline's, as it was when a frame named it
    text = (
        "Exception in thread prefetch:\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner\n'
        "    self.run()\n"
        '  File "/work/gen/worker.py", line 72, in run\n'
        "    item = self.decode(buf)\n"
        "json.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 12 (char 11)\n"
    )
    assert top(run(matcher, ("console.log", text)))[:2] == ("data.input_pipeline_exception", "tokenizer_or_data_error")
    # Python 3.10+'s default name for an unnamed thread carries its target: "Thread-2 (prefetch_loop)"
    default = text.replace("thread prefetch:", "thread Thread-2 (prefetch_loop):")
    assert top(run(matcher, ("console.log", default)))[0] == "data.input_pipeline_exception"
    # the same error in a thread whose name says nothing of data stays generic
    other = text.replace("thread prefetch:", "thread metrics-push:")
    assert top(run(matcher, ("console.log", other)))[0] != "data.input_pipeline_exception"
