"""Each kind of rule the matcher supports, on a purpose-built library."""

from helpers import run


def test_absence_fires_when_the_log_stops_inside_a_save(rules_matcher):
    report = run(
        rules_matcher,
        (
            "train.log",
            """
        Saving checkpoint at step 1
        Checkpoint saved
        step 1 loss 0.9
        step 2 loss 0.8
        Saving checkpoint at step 2
    """,
        ),
    )
    d = report.top
    assert d is not None
    assert d.signature == "test.save_hang"
    assert d.values["step"] == "2"
    assert d.first_seen.line == 5
    assert d.initiating_rank is None  # scope = job


def test_absence_fires_when_trouble_follows_the_start(rules_matcher):
    report = run(
        rules_matcher,
        (
            "train.log",
            """
        step 2 loss 0.8
        Saving checkpoint at step 2
        [rank1]: collective timed out after 1800000 ms
    """,
        ),
    )
    d = report.top
    assert d is not None
    assert d.signature == "test.save_hang"
    assert d.collateral[0].signature == "test.timeout"


def test_absence_needs_evidence_beyond_the_log_ending(rules_matcher):
    """A log that merely ends on a start line (a pasted excerpt, a job still running) is not a hang."""
    report = run(
        rules_matcher,
        (
            "train.log",
            """
        step 1 loss 0.9
        step 2 loss 0.8
        Saving checkpoint at step 2
    """,
        ),
    )
    assert report.diagnoses == []


def test_absence_cleared_by_completion(rules_matcher):
    report = run(
        rules_matcher,
        (
            "train.log",
            """
        Saving checkpoint at step 2
        Checkpoint saved
    """,
        ),
    )
    assert report.diagnoses == []


def test_absence_cleared_by_progress(rules_matcher):
    report = run(
        rules_matcher,
        (
            "train.log",
            """
        Saving checkpoint at step 2
        step 3 loss 0.7
    """,
        ),
    )
    assert report.diagnoses == []


def test_absence_only_the_last_save_counts(rules_matcher):
    report = run(
        rules_matcher,
        (
            "train.log",
            """
        Saving checkpoint at step 2
        Checkpoint saved
        step 3 loss 0.7
        Saving checkpoint at step 4
    """,
        ),
    )
    assert report.top is not None
    assert report.top.values["step"] == "4"  # the completed save at step 2 makes the missing one meaningful


def test_absence_dropped_when_an_explicit_failure_follows(rules_matcher):
    report = run(
        rules_matcher,
        (
            "train.log",
            """
        Saving checkpoint at step 2
        disk is full
    """,
        ),
    )
    assert report.top is not None
    assert report.top.signature == "test.specific"


def test_absence_progress_found_in_a_later_block(rules_matcher, monkeypatch):
    from signatures import _reader

    monkeypatch.setattr(_reader, "BLOCK", 64)
    filler = "\n".join(f"noise line {i:04d}" for i in range(50))
    report = run(rules_matcher, ("train.log", f"Saving checkpoint at step 2\n{filler}\nstep 3 loss 0.1\n"))
    assert report.diagnoses == []


def test_count_rule_forgives_warmup_then_fires(rules_matcher):
    few = "\n".join(f"OVERFLOW at step {i}" for i in range(4))  # ignore_first 2 + threshold 3 = 5
    assert run(rules_matcher, ("a.log", few)).diagnoses == []
    many = "\n".join(f"OVERFLOW at step {i}" for i in range(9))
    d = run(rules_matcher, ("a.log", many)).top
    assert d is not None
    assert d.signature == "test.overflow"
    assert d.values["count"] == "9"
    assert d.first_seen.line == 5


def test_condition_all_needs_every_pattern(rules_matcher):
    assert run(rules_matcher, ("a.log", "disk A failing: sda")).diagnoses == []
    d = run(rules_matcher, ("a.log", "disk A failing: sda\nx\ndisk B failing: sdb")).top
    assert d is not None
    assert d.signature == "test.pair"
    assert d.values == {"a": "sda", "b": "sdb"}


def test_lines_before_lets_a_pattern_span_lines(rules_matcher):
    report = run(
        rules_matcher,
        (
            "a.log",
            """
        [1]:
          rank  : 4
          exit  : -9
        lost peer
    """,
        ),
    )
    d = report.top
    assert d is not None
    # the peer-lost signature blames the rank the launcher saw killed
    assert d.signature == "test.peer_lost"
    assert d.initiating_rank == 4


def test_traceback_context_collects_frames_of_the_same_rank(rules_matcher):
    report = run(
        rules_matcher,
        (
            "a.log",
            """
        [rank1]: Traceback (most recent call last):
        [rank0]: step 5 loss 0.3
        [rank1]:   File "train.py", line 10, in <module>
        [rank1]:     main()
        [rank1]:   File "train.py", line 7, in main
        [rank1]:     explode()
        [rank1]: BoomError: bang
    """,
        ),
    )
    assert report.top is not None
    ev = report.top.evidence[0]
    assert ev.rank == 1
    assert ev.context is not None
    assert ev.context[0] == '[rank1]:   File "train.py", line 10, in <module>'
    assert all("rank0" not in line for line in ev.context)
    assert ev.context[-1] == "[rank1]:     explode()"


def test_exclude_vetoes_a_line(rules_matcher):
    assert run(rules_matcher, ("a.log", "job cancelled by the user")).diagnoses == []
    top = run(rules_matcher, ("a.log", "job cancelled")).top
    assert top is not None and top.signature == "test.jobwide"
