"""Which failure started it, which rank, and what is only noise."""

from helpers import run


def test_earliest_root_across_ranks_wins_and_collateral_is_grouped(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        [rank0]: step 1 loss 0.5
        [rank3]: BoomError: rank three broke
        [rank0]: collective timed out after 600000 ms
        [rank1]: collective timed out after 600000 ms
        [rank2]: collective timed out after 600000 ms
        [rank5]: BoomError: later on another rank
    """,
        ),
    )
    d = report.top
    assert d is not None
    assert d.signature == "test.boom"
    assert d.initiating_rank == 3
    assert d.values["what"] == "rank three broke"
    (coll,) = d.collateral
    assert coll.signature == "test.timeout"
    assert coll.ranks == [0, 1, 2]
    assert coll.count == 3
    assert len(report.diagnoses) == 1  # the later BoomError is the same failure class


def test_collateral_alone_becomes_the_diagnosis(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        [rank0]: collective timed out after 600000 ms
        [rank1]: collective timed out after 600000 ms
    """,
        ),
    )
    d = report.top
    assert d is not None
    assert d.signature == "test.timeout"
    assert d.role == "collateral"
    assert d.values["timeout_ms"] == "600000"
    assert d.initiating_rank is None  # both ranks alike


def test_every_rank_failing_alike_has_no_initiating_rank(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        [rank0]: BoomError: same
        [rank1]: BoomError: same
    """,
        ),
    )
    assert report.top is not None
    assert report.top.initiating_rank is None
    assert report.top.ranks == [0, 1]


def test_peer_blame_points_at_the_silent_rank(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        [rank0]: step 1 loss 0.5
        [rank1]: step 1 loss 0.5
        [rank2]: step 1 loss 0.5
        [rank0]: lost peer
        [rank2]: lost peer
    """,
        ),
    )
    assert report.top is not None
    assert report.top.initiating_rank == 1


def test_specific_beats_fallback_on_the_same_rank(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        [rank2]: GenericError: wrapped
        [rank2]: disk is full
    """,
        ),
    )
    d = report.top
    assert d is not None
    assert d.signature == "test.specific"
    assert d.initiating_rank == 2


def test_priority_decides_within_a_burst(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        [rank2]: BoomError: could not write
        [rank2]: step 1 loss 0.5
        [rank2]: disk is full
    """,
        ),
    )
    d = report.top
    assert d is not None
    assert d.signature == "test.specific"
    assert [e.kind for e in d.evidence].count("related") == 1


def test_timestamps_order_sources(rules_matcher):
    report = run(
        rules_matcher,
        ("rank0.log", "2026-11-30 12:00:09,000 BoomError: second\n"),
        ("rank1.log", "2026-11-30 12:00:01,000 BoomError: first\n"),
        ("rank2.log", "2026-11-30 12:00:00,000 step 1 loss 0.5\n"),
    )
    d = report.top
    assert d is not None
    assert d.initiating_rank == 1  # rank from the file name, order from the timestamps
    assert d.first_seen.time == "2026-11-30T12:00:01.000Z"


def test_independent_failures_of_other_classes_are_listed_after(rules_matcher):
    report = run(rules_matcher, ("job.log", "[rank1]: BoomError: one\n" + "x\n" * 500 + "[rank4]: disk is full\n"))
    assert [d.signature for d in report.diagnoses] == ["test.boom", "test.specific"]


def test_unrecognised_failure_lists_error_lines_per_rank(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        [rank0]: step 1 loss 0.5
        [rank1]: Traceback (most recent call last):
        [rank1]:   File "x.py", line 1, in <module>
        [rank1]: ZeroDivisionError: division by zero
        E1130 13:10:11.000000 4242 api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 4253)
    """,
        ),
    )
    assert report.diagnoses == []
    ranks = {g.rank: g for g in report.unrecognised}
    assert "ZeroDivisionError: division by zero" in " ".join(ln.text for ln in ranks[1].lines)


def test_healthy_log_gives_nothing(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        [rank0]: step 1 loss 0.5
        [rank0]: UserWarning: this is deprecated and an error will be raised in future
        [rank0]: done
    """,
        ),
    )
    assert report.diagnoses == [] and report.unrecognised == []


def test_the_launcher_names_the_rank_when_the_error_line_does_not(rules_matcher):
    report = run(
        rules_matcher,
        (
            "job.log",
            """
        BoomError: no rank on this line
        E1130 13:10:11.000000 4242 api.py:869] failed (exitcode: 1) local_rank: 2 (pid: 4253) of binary: /usr/bin/python3
    """,
        ),
    )
    assert report.top is not None
    assert report.top.initiating_rank is None  # the fixture library has no launcher signature

    from signatures import default_matcher

    report = run(
        default_matcher(),
        (
            "job.log",
            """
        ImportError: /env/lib/python3.11/site-packages/flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi
        E1130 13:10:11.000000 4242 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 2 (pid: 4253) of binary: /usr/bin/python3
        W1130 13:10:11.000000 4242 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 4252 closing signal SIGTERM
    """,
        ),
    )
    assert report.top is not None
    assert report.top.class_ == "dependency_abi_mismatch"
    assert report.top.initiating_rank == 2
