"""The rules added after the blind runs_r17 (real CPU runs in tests/corpus/blind_r17/runs), on the runs that showed
the gaps and on in-memory logs that must keep their answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run
from helpers import top_diagnosis as top

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r17" / "runs"


@pytest.fixture
def in_run(monkeypatch, matcher):
    def diagnose(name: str):
        monkeypatch.chdir(RUNS / name)
        import signatures

        return signatures.diagnose(["."], matcher=matcher)

    return diagnose


def test_a_chained_traceback_a_fallback_record_printed_is_handled(in_run):
    # logging.exception("checkpoint save ... failed, falling back") prints torch.save's ENOSPC error and the
    # exception raised while handling it; the rank saves elsewhere and every rank finishes
    assert in_run("028_healthy_ckpt_fallback_after_enospc").outcome == "healthy"


CHAINED = """
{intro}
Traceback (most recent call last):
  File "/job/train.py", line 40, in save
    torch.save(sd, path)
RuntimeError: basic_ios::clear: iostream error

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/usr/lib/python3.11/site-packages/torch/serialization.py", line 834, in __exit__
    self.file_like.write_end_of_file()
RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 12480 vs 12384
"""


def test_a_chained_traceback_with_nothing_printing_it_is_the_failure(matcher):
    report = run(matcher, ("rank0.log", CHAINED.format(intro="2026-12-05 13:44:36,545 [rank0] INFO step 5 loss=1.38")))
    assert report.diagnoses and report.diagnoses[0].class_ == "checkpoint_disk_full"


def test_a_handled_traceback_earlier_does_not_excuse_a_later_one(matcher):
    body = (
        "2026-12-05 13:44:30,000 [rank0] WARNING upload failed, retrying\n"
        "Traceback (most recent call last):\n"
        '  File "/job/up.py", line 3, in push\n'
        "ConnectionError: refused\n" + CHAINED.format(intro="")
    )
    report = run(matcher, ("rank0.log", body))
    assert report.diagnoses and report.diagnoses[0].class_ == "checkpoint_disk_full"
