"""Ranks whose tracebacks wait in different collectives: a collective mismatch (the program's), with the timeouts
and lost peers as its knock-on (signatures/_attribution._as_divergence)."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

CORPUS = Path(__file__).resolve().parent / "corpus"


def test_a_broadcast_among_all_reduces_is_a_mismatch_with_the_timeouts_as_knock_on(matcher):
    report = diagnose([str(CORPUS / "blind_r16" / "runs" / "028_bcast_vs_allreduce_rank1")], matcher)
    d = report.diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "c10d.ranks_in_different_collectives",
        "collective_mismatch",
        1,
    )
    assert d.attribution.rule == "collective_odd_one_out" and d.attribution.rank == 1
    assert "inside broadcast" in d.attribution.reasons[0].text and "all_reduce" in d.attribution.reasons[0].text
    assert d.first_seen.line and "[rank1]" in d.first_seen.text
    knock_on = {c.signature: sorted(c.ranks) for c in d.collateral}
    assert knock_on.get("gloo.recv_timeout") == [0, 1, 2, 3]


def test_a_barrier_in_a_rank_branch_against_ddp_backward_is_a_mismatch(matcher):
    d = diagnose([str(CORPUS / "blind_r9" / "runs" / "011_barrier_in_rank0_branch")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("collective_mismatch", 0)


def test_timeouts_all_in_the_same_collective_stay_timeouts(matcher, tmp_path):
    log = (CORPUS / "blind_r16" / "runs" / "028_bcast_vs_allreduce_rank1" / "metric-sync-28.out").read_text()
    kept = "\n".join(line for line in log.splitlines() if not line.startswith("[rank1]"))
    (tmp_path / "job.out").write_text(kept + "\n")
    d = diagnose([str(tmp_path / "job.out")], matcher).diagnoses[0]
    assert d.class_ != "collective_mismatch"


def test_a_fresh_run_with_an_extra_all_gather_on_one_rank(matcher):
    d = diagnose([str(CORPUS / "made_r19" / "runs" / "001_eval_stats_gather")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("collective_mismatch", 1)
    assert "inside all_gather" in d.attribution.reasons[0].text
