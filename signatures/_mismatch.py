"""Which rank's collective differs: the reasoning behind a collective mismatch.

The ranks of a process group must call the same collectives in the same order with the same sizes. When they do
not, every rank ends up waiting or failing, and the evidence that names the one that went its own way is spread
over their reports: a cross-rank check that names a rank (_OTHER_RANK, DDP's shape check against rank 0), the
collective each rank's traceback waits in, the watchdog's WorkNCCL at one sequence number, or a rank that said it
finished training before its timeout. _rank_rules asks these in its order of precedence.
"""

from __future__ import annotations

import re

from ._events import Event
from ._ranks import JobView
from ._why import Reason, rank_list

# the rank a mismatch report compares its own with: the collective check's ("but Rank 3 is running ...") and DDP's
# model check ("DDP expects same model across all ranks, but Rank 0 has 6 params, while rank 2 has inconsistent 8
# params", reducer.cpp): both name the first rank, in rank order, that differs from the reporter
_OTHER_RANK = re.compile(r"but Rank (\d+) is running|while rank (\d+) has inconsistent")
_VS_RANK_0 = "of the same param in process 0"  # DDP's per-parameter shape check (see _against_rank_0)


# the torch.distributed call a traceback went through (the innermost frame in distributed_c10d.py names it)
_C10D_CALL = re.compile(r'distributed_c10d\.py", line \d+, in (\w+)')
_BACKWARD = re.compile(r"run_backward\(|, in _engine_run_backward\b")


MIN_SEQ = 10  # sequence numbers below this are too common to say two timeouts are the same call of one group
UNGROUPED_SEQ = 100  # without the group named, a number this high shared by every rank's timeout is one call
# a send on one rank and a receive on its peer at one sequence number are one exchange, not a mismatch
_POINT_TO_POINT = {"SEND", "RECV", "RECVANYSOURCE", "COALESCED"}  # c10d OpType names (batched p2p: COALESCED)


def _one_call_everywhere(seq: str, calls: dict[int, tuple[str, str, Event]], events: list[Event]) -> bool:
    """Older releases name no process group in their timeouts. Their ranks' timeouts at one sequence number are taken
    for one call of one group when there are three or more ranks, the number is at least UNGROUPED_SEQ, no rank
    timed out at another number, and one rank alone called another operation. Sizes alone do not count: two groups
    used in lockstep reach the same count (a mixture-of-experts job reduces its dense gradients in one group and its
    experts' in another, each once per bucket), and a rank waiting in the other group's reduce of other tensors
    looks exactly like a size mismatch (blind_c1 039)."""
    ops = [op for op, _, _ in calls.values()]
    if len(calls) < 3 or int(seq) < UNGROUPED_SEQ or len(set(ops)) < 2:
        return False
    if min(ops.count(op) for op in set(ops)) != 1 or len(set(ops)) != 2:
        return False  # only one rank against all the others (2 against 2 is two groups in lockstep as well)
    return all(
        e.values.get("seq_num") == seq for e in events if e.rank is not None and e.values.get("seq_num", "").isdigit()
    )


def differ_at_seq(
    events: list[Event], groups: dict[tuple[int, str], str]
) -> tuple[int | None, str, str, Reason] | None:
    """ProcessGroupNCCL's watchdog names the work that timed out: WorkNCCL(SeqNum=S, OpType=O, NumelIn=N, ...).
    Ranks of one group issue their collectives in the same order, so the same SeqNum is the same call on every
    rank; when the ranks' timeouts at one SeqNum name different operations or sizes, the ranks were not running
    the same collective (a broadcast of 64 elements against one of 24 million): a collective mismatch, and the
    timeouts its knock-on. Each process group numbers its own calls, so the ranks' lines must name the same group
    for that call (ProcessGroupNCCL's "[PG ID g ... Rank r] ... work sequence id: S", see JobView.groups) where
    shown, and at least one must be: without that (older releases print no group), two groups' calls that happen
    to share a number are not told from one call. The rank alone in its (operation, size) against two or more
    that agree is named (high); with two ranks, the one that had enqueued no call after it (low); else no rank
    (medium). (rank, rule, confidence, reason), or None."""
    by_seq: dict[str, dict[int, tuple[str, str, Event]]] = {}
    for e in events:
        seq, op = e.values.get("seq_num", ""), e.values.get("op_type", "")
        if e.rank is None or not seq.isdigit() or int(seq) < MIN_SEQ or not op:
            continue
        by_seq.setdefault(seq, {}).setdefault(e.rank, (op, e.values.get("numel_in", ""), e))
    for seq, calls in sorted(by_seq.items(), key=lambda kv: int(kv[0])):
        ops = {op for op, _, _ in calls.values()}
        sizes = {n for _, n, _ in calls.values()}
        if len(calls) < 2 or (len(ops) == 1 and (len(sizes) == 1 or "" in sizes)):
            continue  # the same call everywhere (or a release that does not print its size)
        if len(ops) > 1 and ops & _POINT_TO_POINT:
            continue  # a send and the receive it pairs with

        named = {groups[(rank, seq)] for rank in calls if (rank, seq) in groups}
        if len(named) > 1:
            continue  # ranks of different groups
        if not named and not _one_call_everywhere(seq, calls, events):
            continue  # no rank's group is shown (an older release), and the number alone could be two groups' calls
        sure = "high" if named else "medium"
        sides: dict[tuple[str, str], list[int]] = {}
        for rank, (op, n, _) in sorted(calls.items()):
            sides.setdefault((op, n), []).append(rank)

        def said(key: tuple[str, str]) -> str:
            return f"{key[0]}" + (f" of {int(key[1]):,} elements" if key[1] else "")

        lone = [ranks[0] for ranks in sides.values() if len(ranks) == 1]
        most = max(sides.values(), key=len)
        if len(sides) == 2 and len(lone) == 1 and len(most) >= 2:
            rank = lone[0]
            op, n, e = calls[rank]
            others = next(k for k, v in sides.items() if v is most)
            return (
                rank,
                "differ_at_seq",
                sure,
                Reason(
                    f"at collective {seq} rank {rank} timed out in {said((op, n))} while ranks {rank_list(most)} "
                    f"timed out in {said(others)}: the same call of the group, not the same collective",
                    e.source,
                    e.line,
                ),
            )
        parts = "; ".join(f"rank{'s' if len(v) > 1 else ''} {rank_list(v)}: {said(k)}" for k, v in sides.items())
        e = min((c[2] for c in calls.values()), key=lambda x: (x.source_index, x.line))
        queued = {  # each rank's "last enqueued" work at this call, from the status line after its timeout
            x.rank: int(x.values["last_enqueued"])
            for x in events
            if x.rank in calls and x.values.get("seq_num") == seq and x.values.get("last_enqueued", "").isdigit()
        }
        if len(calls) == 2 and len(queued) == 2 and len(set(queued.values())) == 2:
            behind = min(queued, key=lambda r: queued[r])
            ahead = max(queued, key=lambda r: queued[r])
            return (
                behind,
                "differ_at_seq",
                "low",
                Reason(
                    f"at collective {seq} the ranks timed out in different calls ({parts}), and rank {behind} had "
                    f"issued no call after it (last enqueued {queued[behind]}) while rank {ahead} had gone on "
                    f"(last enqueued {queued[ahead]}): rank {behind}'s program is the one that left the sequence",
                    calls[behind][2].source,
                    calls[behind][2].line,
                ),
            )
        return (
            None,
            "differ_at_seq",
            "medium",
            Reason(
                f"at collective {seq} the ranks timed out in different calls ({parts}): they were not running the "
                "same collective; the log does not show which side the rest of the ranks were on",
                e.source,
                e.line,
            ),
        )
    return None


def alone_in_its_work(events: list[Event], groups: dict[tuple[int, str], str]) -> tuple[int, Reason] | None:
    """Every rank's watchdog timed out, all but one in the same work (one SeqNum, one OpType) and that one in work of
    another number: it had gone ahead into calls the others never reached, or stayed behind in one they had finished.
    Either way its program left the sequence the rest kept to (a NeMo job's rank 0 in _ALLGATHER_BASE 532341 while
    ranks 1 and 2 waited in BROADCAST 532339). Three or more ranks, so that a majority exists; the ranks' lines must
    not name different process groups (each numbers its own calls). (rank, reason), or None."""
    work: dict[int, Event] = {}
    for e in events:
        seq, op = e.values.get("seq_num", ""), e.values.get("op_type", "")
        if e.rank is not None and seq.isdigit() and op and e.rank not in work:
            work[e.rank] = e
    if len(work) < 3:
        return None
    named = {groups[(r, e.values["seq_num"])] for r, e in work.items() if (r, e.values["seq_num"]) in groups}
    if len(named) > 1:
        return None
    sides: dict[tuple[str, str], list[int]] = {}
    for r, e in sorted(work.items()):
        sides.setdefault((e.values["seq_num"], e.values["op_type"]), []).append(r)
    if len(sides) != 2:
        return None
    (lone_key, lone), (common_key, rest) = sorted(sides.items(), key=lambda kv: len(kv[1]))
    if len(lone) != 1 or len(rest) < 2 or lone_key[0] == common_key[0]:
        return None  # the same number is one call: differ_at_seq's case
    rank, e = lone[0], work[lone[0]]
    went = "had gone ahead to" if int(lone_key[0]) > int(common_key[0]) else "had stayed behind in"
    return rank, Reason(
        f"rank {rank} timed out in {lone_key[1]} (collective {lone_key[0]}) while ranks {rank_list(rest)} timed out "
        f"in {common_key[1]} (collective {common_key[0]}): rank {rank} {went} a call the others were not in, so its "
        "program left the sequence the rest kept to",
        e.source,
        e.line,
    )


def went_its_own_way(view: JobView, events: list[Event]) -> tuple[int, str, Reason] | None:
    """Every rank failed alike (a timeout), yet one went its own way first: waiting in another collective than
    the rest, or having said it finished training before its timeout. (rank, rule, reason), or None."""
    early = _finished_then_waited(view, events)  # the more telling story: it says why it was elsewhere
    if early is not None:
        return early[0], "finished_early", early[1]
    elsewhere = in_another_collective(events)
    if elsewhere is not None:
        return elsewhere[0], "collective_odd_one_out", elsewhere[1]
    return None


def in_another_collective(events: list[Event]) -> tuple[int, Reason] | None:
    """Every rank failed alike (a timeout), but their tracebacks show the ranks waiting in different collectives:
    all but one in the same call, one in another (a broadcast while the rest all_reduce). The ranks' sequences
    of collectives diverged, and the rank on its own is where (at least 3 ranks, so that a majority exists)."""
    calls: dict[int, tuple[str, Event]] = {}
    for e in events:
        if e.rank is None or e.rank in calls:
            continue
        found = [m.group(1) for frame in e.frames for m in [_C10D_CALL.search(frame)] if m]
        if found:
            calls[e.rank] = (found[-1], e)
        elif e.frames and _BACKWARD.search(e.frames[-1]):  # DDP all-reduces gradients from autograd's hooks
            calls[e.rank] = ("backward (DDP's gradient all-reduce)", e)
    if len(calls) < 3:
        return None
    by_call: dict[str, list[int]] = {}
    for rank, (call, _) in sorted(calls.items()):
        by_call.setdefault(call, []).append(rank)
    if len(by_call) != 2:
        return None
    (lone, alone), (common, rest) = sorted(by_call.items(), key=lambda kv: len(kv[1]))
    if len(alone) != 1 or len(rest) < 2:
        return None
    rank = alone[0]
    e = calls[rank][1]
    sender = _receiving_from(e.frames) if lone in ("recv", "irecv") else None
    if sender is not None and sender in rest:
        return sender, Reason(
            f"rank {rank} waited inside {lone} for a send from rank {sender}, which had gone on to {common} (as "
            f"{'did rank' if len(rest) == 2 else 'did ranks'} {rank_list([r for r in rest if r != sender])}): rank "
            f"{sender} skipped the send",
            e.source,
            e.line,
        )
    return rank, Reason(
        f"rank {rank} failed inside {lone} while ranks {rank_list(rest)} failed inside {common}: the ranks "
        f"were not in the same collective, and rank {rank} is the one that went its own way",
        e.source,
        e.line,
    )


# the caller's line of a point-to-point receive from a rank given as a number: dist.recv(t, src=2), recv(t, 2)
_RECV_FROM = re.compile(r"\b(?:i?recv)\((?:[^()]*,\s*)?(?:src\s*=\s*)?(\d{1,6})\s*[,)]")


def _receiving_from(frames: list[str]) -> int | None:
    """The rank a traceback's point-to-point receive waited on, when the caller's code line names it as a number
    (the frame above torch.distributed's own): the peer whose send never came."""
    calls = [i for i, frame in enumerate(frames) if _C10D_CALL.search(frame)]
    for frame in reversed(frames[: calls[-1]] if calls else []):
        if "torch/distributed/" in frame:
            continue
        found = _RECV_FROM.search(frame.rsplit("\n", 1)[-1])
        return int(found.group(1)) if found else None
    return None


def _finished_then_waited(view: JobView, events: list[Event]) -> tuple[int, Reason] | None:
    """Every rank timed out, but one of them had said it finished training before its own timeout (uneven data:
    it ran out of batches and waited at the end, in a barrier or a final collective, while the others still
    trained and waited for it in theirs): it went its own way first."""
    first: dict[int, Event] = {}
    for e in events:
        if e.rank is not None and (e.rank not in first or e.line < first[e.rank].line):
            first[e.rank] = e
    if len(first) < 2:
        return None
    done = []
    for rank, e in first.items():
        state = view.ranks.get(rank)
        said = state.finished if state is not None else None
        if said is not None and said[0] == e.source and said[1] < e.line:
            done.append((rank, said))
    if len(done) != 1:
        return None
    rank, (source, line) = done[0]
    return rank, Reason(
        f"rank {rank} said it finished training before it timed out; the others were still training: it ran out of "
        "work first and waited at the end while they waited for it",
        source,
        line,
    )


def odd_one_out(events: list[Event], view: JobView) -> tuple[int, Reason, str] | None:
    """The rank that differs in a mismatch report, and how sure. Each rank's report compares itself with the first
    rank, in rank order, whose collective differs ("Rank 1 is running X, but Rank 3 is running Y": PyTorch's
    ProcessGroupWrapper): the rank most reports name as the other is the odd one; a report from NCCL's own check
    names it directly. A single report naming the lowest rank other than its own cannot tell the two apart: the
    reporter, if it is the odd one, names exactly that rank too (low)."""
    against_0 = _against_rank_0(events, view)
    if against_0 is not None:
        return against_0
    votes: dict[int, list[Event]] = {}
    for e in events:
        other = _OTHER_RANK.search(e.text)
        named = (
            other.group(1) or other.group(2)
            if other
            else (e.values.get("mismatch_rank", "") if "but Rank" not in e.text and e.rank is None else "")
        )
        if named.isdigit():
            votes.setdefault(int(named), []).append(e)
    if not votes:
        return None
    rank = min(votes, key=lambda r: (-len(votes[r]), r))
    e = votes[rank][0]
    if len(events) == 1 and e.rank is not None and rank == (1 if e.rank == 0 else 0):
        return (
            rank,
            Reason(
                f"the one mismatch report, rank {e.rank}'s, compares it with rank {rank}, the first rank it checks: "
                f"either of the two may be the one whose collective differs (the other ranks' reports would tell)",
                e.source,
                e.line,
            ),
            "low",
        )
    return (
        rank,
        Reason(
            f"the cross-rank check (collectives, or DDP's model) compares each rank with the others in rank order "
            f"and names rank {rank} as the one that differs ({len(votes[rank])} report(s) name it)",
            e.source,
            e.line,
        ),
        "high",
    )


def _against_rank_0(events: list[Event], view: JobView) -> tuple[int, Reason, str] | None:
    """DDP's start-up check compares every rank's parameter shapes with rank 0's, and the ranks that differ
    raise ("[3]: params[0] in this process with sizes [...] appears not to match sizes of the same param in
    process 0"): one rank raising is the one whose model differs; every rank but 0 raising means rank 0's does."""
    raised = sorted({e.rank for e in events if e.rank is not None and _VS_RANK_0 in e.text})
    if not raised:
        return None
    first = next(e for e in events if e.rank == raised[0] and _VS_RANK_0 in e.text)
    if len(raised) == 1 and raised[0] != 0:
        why = f"rank {raised[0]} alone found its parameter shapes differ from rank 0's (DDP compares every rank with rank 0)"
        return raised[0], Reason(why, first.source, first.line), "high"
    if len(raised) >= 2 and 0 not in raised and set(raised) >= view.expected - {0}:
        why = f"every rank but 0 ({rank_list(raised)}) found its parameter shapes differ from rank 0's: rank 0's model is the odd one"
        return 0, Reason(why, first.source, first.line), "high"
    return None
