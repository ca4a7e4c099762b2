"""The changes made after the blind runs_r28 (real CPU runs in tests/corpus/blind_r28), on the runs that showed
the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r28" / "runs"


def test_a_first_exception_then_a_restart_that_failed_alike_names_the_first_rank(matcher, tmp_path):
    # torchrun --max-restarts=1: rank 1 raises ConnectionError in attempt 0; attempt 1 fails in Gloo's
    # connectFullMesh on both ranks alike. The generic exception fired on every rank, but not the same exception
    log = RUNS / "003" / "console.log"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("python_exception_other", 1, "explicit_root")
    # the same console where rank 1's first exception was the same RuntimeError as the restart's: all alike
    text = log.read_text()
    first = next(line for line in text.splitlines() if "ConnectionError: transient" in line)
    same = next(line for line in text.splitlines() if line.startswith("[default1]:RuntimeError: Gloo connectFullMesh"))
    (tmp_path / "console.log").write_text(text.replace(first, "[default1]:[rank1]: " + same.split(":", 1)[1]))
    d = diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (None, "all_alike")


def test_the_rank_that_said_it_skipped_a_collective_is_named_for_a_mismatch_nobody_named(matcher, tmp_path):
    # torchrun --log-dir, handed as a .tar.gz: rank 2 logs "skipping metric sync" and goes on to the next DDP
    # all-reduce; rank 1 aborts on gloo's "Received data size doesn't match expected size", which names no rank
    run = RUNS / "011" / "job_logs.tar.gz"
    d = diagnose([str(run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("collective_mismatch", 2, "skipped_collective")
    assert "skipping metric sync" in d.attribution.reasons[0].text
    # the same logs where rank 2 did not say so: only the reporter is left (low confidence)
    import tarfile

    with tarfile.open(run) as tar:
        tar.extractall(tmp_path, filter="data")
    for f in tmp_path.rglob("stdout.log"):
        f.write_text(f.read_text().replace("skipping metric sync", "metric sync"))
    d = diagnose([str(tmp_path / "job_logs")], matcher).diagnoses[0]
    assert d.attribution.rule != "skipped_collective"
