"""Ranks whose NCCL watchdog timeouts name one sequence number of one process group but different calls (operation
or size): a collective mismatch (_attribution._differ_at_seq), on real issue-tracker lines and variants."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from signatures import diagnose

LOG = Path(__file__).resolve().parent / "realworld" / "blind_t1" / "logs" / "004_msswift_minicpmo_broadcast_shape.log"
WATCHDOG = (
    "[rank{r}]:[E918 19:29:2{r}.440481846 ProcessGroupNCCL.cpp:689] [Rank {r}] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={n}, NumelOut={n}, Timeout(ms)=600000) ran for 600097 "
    "milliseconds before timing out."
)
STATUS = (
    "[rank{r}]:[E918 19:29:2{r}.440481846 ProcessGroupNCCL.cpp:2303] [PG ID {pg} PG GUID {pg}(default_pg) Rank {r}]  "
    "failure detected by watchdog at work sequence id: {seq} PG status: last enqueued work: {q}, last completed "
    "work: {c}"
)


def _log(tmp_path, calls: Sequence[tuple[int, str, int, int | None]], seq: int = 7219) -> str:
    lines = []
    for r, op, n, pg in calls:
        lines.append(WATCHDOG.format(r=r, seq=seq, op=op, n=n))
        if pg is not None:
            lines.append(STATUS.format(r=r, pg=pg, seq=seq, q=seq + 1, c=seq - 1))
    path = tmp_path / "excerpt.log"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_two_ranks_in_different_broadcasts_at_one_call_are_a_mismatch(matcher):
    # ms-swift#10183: rank 3 broadcasts 64 elements, rank 2 24,084,544, both at SeqNum 7219 of PG 0; rank 2 had
    # enqueued nothing after it, rank 3 one more call
    d = diagnose([str(LOG)], matcher).diagnoses[0]
    assert (d.class_, d.signature, d.initiating_rank) == (
        "collective_mismatch",
        "nccl.ranks_differ_at_same_collective",
        2,
    )
    assert (d.attribution.rule, d.attribution.confidence) == ("differ_at_seq", "low")


def test_the_one_rank_in_another_call_against_agreeing_ranks_is_named(matcher, tmp_path):
    calls = [
        (0, "ALLREDUCE", 4096, 0),
        (1, "ALLREDUCE", 4096, 0),
        (2, "BROADCAST", 112, 0),
        (3, "ALLREDUCE", 4096, None),
    ]
    d = diagnose([_log(tmp_path, calls)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.confidence) == ("collective_mismatch", 2, "high")


def test_calls_of_different_groups_or_of_no_shown_group_are_not_one_call(matcher, tmp_path):
    # the same number in two process groups (PG 0 and PG 3): two groups' calls, not a mismatch
    calls: list[tuple[int, str, int, int | None]] = [(0, "ALLREDUCE", 4096, 0), (1, "ALLREDUCE", 4096, 0)]
    calls.append((2, "ALLTOALL_BASE", 512, 3))
    assert diagnose([_log(tmp_path, calls)], matcher).diagnoses[0].class_ == "nccl_timeout"
    # an older release that prints no group at all (axolotl#1495's 11,274,112 against 10,942,336 elements)
    calls = [(1, "ALLREDUCE", 11274112, None), (5, "ALLREDUCE", 11274112, None), (7, "ALLREDUCE", 10942336, None)]
    assert diagnose([_log(tmp_path, calls, seq=13807)], matcher).diagnoses[0].class_ == "nccl_timeout"
    # the same call everywhere
    calls = [(0, "ALLREDUCE", 4096, 0), (1, "ALLREDUCE", 4096, 0), (2, "ALLREDUCE", 4096, 0)]
    assert diagnose([_log(tmp_path, calls)], matcher).diagnoses[0].class_ == "nccl_timeout"
