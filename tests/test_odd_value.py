"""Every rank stopped on a check of a value reduced over the ranks: the rank whose own numbers went bad first
(signatures/_rank_rules._odd_value)."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose, diagnose_sources
from signatures._sources import source_from_bytes

CORPUS = Path(__file__).resolve().parent / "corpus"


def test_the_rank_whose_own_local_loss_is_nan_is_named(matcher):
    # every rank raises "non-finite loss: global=nan local=..."; rank 1 alone has local=nan
    d = diagnose([str(CORPUS / "blind_r1" / "runs" / "015_nan_one_rank_guard")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nan_inf_loss", 1, "first_sign")
    assert "local=nan" in d.attribution.reasons[0].text


def test_the_rank_whose_last_loss_blew_up_is_named(matcher):
    # rank 3 logged a loss of 1.9e35 at step 18; then every rank's clip_grad_norm_ found non-finite gradients
    d = diagnose([str(CORPUS / "blind_r12" / "runs" / "002_gradnorm_nonfinite")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (3, "first_sign")
    assert "1.89e+35" in d.attribution.reasons[0].text


def _job(lines: list[str], matcher):
    return diagnose_sources([source_from_bytes("job.log", ("\n".join(lines) + "\n").encode())], matcher)


def _abort(rank: int, local: str) -> str:
    return f"[rank{rank}]: FloatingPointError: non-finite loss at step 9: global=nan local={local}"


def test_alike_messages_and_alike_losses_name_no_rank(matcher):
    lines = [f"[rank{r}]: step 8 loss 2.{r}" for r in range(3)] + [_abort(r, "0.5") for r in range(3)]
    d = _job(lines, matcher).diagnoses[0]
    assert d.class_ == "nan_inf_loss" and d.initiating_rank is None


def test_two_ranks_blown_up_name_no_rank(matcher):
    losses = {0: "2.1", 1: "3e30", 2: "2.2", 3: "5e31"}
    lines = [f"[rank{r}]: step 8 loss {v}" for r, v in losses.items()] + [_abort(r, "0.5") for r in losses]
    d = _job(lines, matcher).diagnoses[0]
    assert d.initiating_rank is None


def test_one_rank_blown_up_is_named_in_a_synthetic_job(matcher):
    losses = {0: "2.1", 1: "3e30", 2: "2.2"}
    lines = [f"[rank{r}]: step 8 loss {v}" for r, v in losses.items()] + [_abort(r, "0.5") for r in losses]
    d = _job(lines, matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (1, "first_sign")
