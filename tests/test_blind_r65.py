"""What runs_r65 (53 real CPU runs, scored once on 142af18 by an evaluator who did not see the attribution code)
revealed, with variants that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r65" / "runs"


def _nodes(run: str):
    return [str(RUNS / run / "node0.log"), str(RUNS / run / "node1.log")]


def test_a_restart_that_could_not_regroup_is_the_first_attempts_crash(matcher):
    # 044: two torchrun agents, --max-restarts 1; attempt 0: rank 1 segfaults (only node0's agent line shows it); the
    # restart's workers cannot connect and the rendezvous closes on node1: rank 1's crash (was the rendezvous, no rank)
    assert top(diagnose(_nodes("044"), matcher)) == ("process.segfault", "native_crash", 1)
    # a rendezvous that closes with no failure of a rank before it is still the rendezvous
    node1 = (RUNS / "044" / "node1.log").read_text()
    closed = node1[node1.index("torch.distributed.elastic.rendezvous.api.RendezvousClosedError") :]
    assert top_of_text(matcher, closed)[1] == "rendezvous_failure"


def test_a_lowercase_batch_size_check_is_still_the_batch_size_mismatch(matcher):
    # 010: "[rank2]: RuntimeError: expected input batch_size (8) to match target batch_size (6)" (was generic)
    assert top(diagnose(_nodes("010"), matcher)) == ("torch.batch_size_mismatch", "shape_mismatch", 2)


def test_a_loss_scale_at_its_minimum_named_before_the_words_is_the_fp16_overflow(matcher):
    # 037: "Current loss scale 6.103515625e-05 already at minimum; cannot decrease scale anymore" (was generic)
    report = diagnose([str(RUNS / "037" / "console.log")], matcher)
    assert top(report)[:2] == ("deepspeed.loss_scale_at_minimum", "fp16_loss_scale_overflow")
