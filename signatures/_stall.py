"""A job that hung and was then ended by its time limit: the limit is how it ended, the hang is what went wrong.

A scheduler's time limit is the diagnosis when the job was still working when it came. It is not when the job
had stopped making progress long before: the ranks logged training steps at a steady pace, then nothing for
many times that pace until the scheduler killed them. Then the job hung (a deadlock, a blocked read, a rank
waiting on a lock), and the rank that started it is usually the one whose last line is not a step: every rank
logged the same last step, and one went on to do something else (take a lock, write samples, open a file) and
never came back, while the others waited silently in the next collective (gloo's and NCCL's default timeouts
are longer than many time limits).

The evidence, all from the scan: each rank's last training-progress line and its pace (ScanResult.progress
and .pace, from the loss lines; .clocks when those lines carry a time of day with no date, placed on the day of
the limit's dated line), each rank's last word near the end of its source (ScanResult.last_words, the
launcher's and the scheduler's own lines left out), and the time the limit struck.
"""

from __future__ import annotations

import dataclasses
import re
import statistics

from ._events import Event, LastWord, ScanResult
from ._lines import parse_time
from ._oddity import Oddities
from ._ranks import failed_on_its_own
from ._schema import Signature

STALLED = "slurm.time_limit_after_stall"  # the finding this rule makes of a time limit
STOPPED = "job.stopped_after_stall"  # ... of a stop from outside (scancel, a SIGTERM or SIGINT) with no reason given
STOP_TAG = "teardown"  # the signatures of a stop: a cancel, a signal an agent received, a Ctrl-C
LIMIT_CLASS = "slurm_time_limit"
STALL_PACES = 20  # silent for at least this many of its usual intervals between progress lines
STALL_SECONDS = 30.0  # and for at least this long
FINISHED_SECONDS = 300.0  # training said it finished this long before the limit: the processes never exited
VALUES = {"idle", "how"}  # what the finding's event always carries for its text ("pace" and "step" when known)


def limit_time(e: Event) -> float | None:
    if e.time is not None:
        return e.time
    stamp = e.values.get("time")
    return parse_time(stamp) if stamp else e.eff_time


def _the_limit(roots: list[Event], sigs: dict[str, Signature], scan: ScanResult) -> tuple[Event, float, str] | None:
    """The time limit and when it struck, when every root failure is the time limit (and its time is known), with
    the finding it becomes; or likewise a stop from outside that gives no reason (a user's scancel, timeout(1)'s or
    kill's SIGTERM, a Ctrl-C: not a preemption or a node failure the scheduler names), which on-call sends a job that
    has hung as often as a limit ends one."""
    for finding in (STALLED, STOPPED):  # a time limit first
        ends = [e for e in roots if _ends_it(e, sigs[e.sig_id], finding)]
        if ends:
            break
    else:
        return None
    # another signature on the very line of a stop (or of the limit) describes it
    at = {(e.source_index, e.line) for e in scan.events if _ends_it(e, sigs[e.sig_id], finding)}
    if any((e.source_index, e.line) not in at for e in roots):
        return None
    limit = min(ends, key=lambda e: (e.source_index, e.line))
    struck = limit_time(limit)
    return None if struck is None else (limit, struck, finding)


def _ends_it(e: Event, sig: Signature, finding: str) -> bool:
    if finding == STALLED:
        return sig.cls == LIMIT_CLASS
    return STOP_TAG in sig.tags and not e.values.get("reason")


def stalled_until_limit(
    roots: list[Event], scan: ScanResult, sigs: dict[str, Signature], oddities: Oddities
) -> Event | None:
    """The finding a time limit becomes when every root failure is the time limit and the job had stopped before
    it: the ranks' progress stopped STALL_PACES of their usual intervals (and STALL_SECONDS) before it, or a line
    said training was done FINISHED_SECONDS before it. Its event is the stuck rank's last word when exactly one
    rank went elsewhere after the last step, else the limit's line with no rank; None when the limit stands."""
    found = _the_limit(roots, sigs, scan)
    if found is None:
        return None
    limit, struck, finding = found

    def quiet(facts: dict[str, str]) -> Event:
        return dataclasses.replace(limit, sig_id=finding, rank=None, values={**limit.values, **facts})

    done = _finished_long_before(scan, limit, struck)
    if done is not None:  # training said it was done, and the processes were still there when the limit came
        return quiet({"idle": f"{done:.0f}", "how": "training had said it was done and never exited"})
    stopped = stopped_before(scan, struck)
    if stopped is None:
        return None
    idle, pace, last_time, step = stopped
    went_on = _went_elsewhere(scan, last_time, limit)
    if len(went_on) > 1:
        return None  # several ranks moved on to other work (an evaluation, a save): the job was still busy
    if not went_on:
        odd = oddities.stack  # the stacks printed as the job was killed: the one rank not where the rest waited
        if odd is None:
            return quiet(_facts(idle, pace, step))
        return odd.place(quiet(_facts(idle, pace, step) | {"stack": odd.text}), scan)
    ((src, rank, word),) = went_on
    return dataclasses.replace(
        quiet(_facts(idle, pace, step)),
        source=scan.sources[src] if src < len(scan.sources) else limit.source,
        source_index=src,
        line=word.line,
        rank=rank,
        time=word.time,
        eff_time=word.time if word.time is not None else limit.eff_time,
        text=word.text,
    )


def stopped_before(scan: ScanResult, struck: float) -> tuple[float, float, float, int | None] | None:
    """(idle seconds, pace, time of the last progress, its step) when the ranks' timed progress stopped
    STALL_PACES of their usual intervals (and STALL_SECONDS) before `struck`, else None."""

    def paces_of(ranked: bool) -> list[float]:
        return [
            (scan.progress[key][2] - first) / (seen - 1)  # type: ignore[operator]
            for key, (first, seen) in scan.pace.items()
            if (key[1] is not None or not ranked)
            and seen >= 2
            and key in scan.progress
            and scan.progress[key][2] is not None
        ]

    # the ranks' own paces; else a source's whose lines name no rank (one rank's file from `srun -o %x-%j-%t.out`,
    # its rank in a name no pattern reads)
    paces = paces_of(ranked=True) or paces_of(ranked=False)
    paces = [p for p in paces if p >= 0]  # a clock that went backwards gives no pace
    progress = [(t, step) for (line, step, t) in scan.progress.values() if t is not None]
    if not paces or not progress:
        paces, progress = _by_clock(scan, struck)
    if not paces or not progress:
        return None
    pace = statistics.median(paces)
    last_time = max(t for t, _ in progress)
    idle = struck - last_time
    if idle < max(STALL_SECONDS, STALL_PACES * pace):
        return None
    return idle, pace, last_time, max((st for t, st in progress if t == last_time and st is not None), default=None)


DAY = 86400.0
CLOCK_SLACK = 60.0  # a date-less stamp this far after the stop's is after it, not a day before it


def _by_clock(scan: ScanResult, struck: float) -> tuple[list[float], list[tuple[float, int | None]]]:
    """Paces and (time, step) of the ranks' last progress from time-of-day stamps with no date ("[07:34:13]"),
    placed on the day of `struck` (a dated line's time: the limit's): the last progress before the limit, within
    the 24 hours before it (or within CLOCK_SLACK after it)."""
    paces, progress = [], []
    for key, (last, first, count) in scan.clocks.items():
        if key[1] is None:
            continue
        if count >= 2:
            paces.append(((last - first) % DAY) / (count - 1))
        step = scan.progress[key][1] if key in scan.progress else None
        behind = (struck - last) % DAY
        if behind > DAY - CLOCK_SLACK:  # a step logged just after the stop's own stamp (a signal in flight): that
            behind -= DAY  # moment, not the same time of day a day earlier
        progress.append((struck - behind, step))
    return paces, progress


def failed_before_limit(
    roots: list[Event], collateral: list[Event], scan: ScanResult, sigs: dict[str, Signature]
) -> bool:
    """Every root failure is a time limit, yet ranks had already reported knock-on failures (collective timeouts,
    lost peers) and their progress had stopped long before it (see _stopped_before): the job had failed, and the
    limit only ended what was left of it. Then the limit is teardown, and the knock-on tells the story."""
    found = _the_limit(roots, sigs, scan)
    if found is None or found[2] != STALLED:  # a stop from outside is teardown only by _teardown's own rules
        return False
    limit, struck = found[0], found[1]
    ranks = {e.rank for e in collateral if e.rank is not None and (e.time is None or e.time < struck)}
    return len(ranks) >= 2 and (stopped_before(scan, struck) is not None or _gone_before(ranks, limit, scan, sigs))


def _gone_before(ranks: set[int], limit: Event, scan: ScanResult, sigs: dict[str, Signature]) -> bool:
    """Every rank that reported the knock-on had already exited: the launcher recorded each one's end (srun's "task
    0: Exited with exit code 1") above the limit's line in the limit's own stream, where lines come in the order they
    happened. The limit found only what was left (a rank still blocked) and ended that: with no clock in the log,
    the order alone shows the job had failed before the limit."""
    ended = {
        w.rank
        for w in scan.events
        if "launcher-exit" in sigs[w.sig_id].tags
        and w.rank is not None
        and w.source_index == limit.source_index
        and w.line < limit.line
    }
    return ranks <= ended


def ended_after_a_failure(roots: list[Event], scan: ScanResult, sigs: dict[str, Signature]) -> list[Event]:
    """The time limit (or a stop from outside that gives no reason) that ended a job after a rank had failed on
    its own: a rank's root failure at least STALL_SECONDS before the limit struck, and the ranks' progress stopped
    long before it (see stopped_before: the job hung on the failed rank until the scheduler ended it), or the
    launcher recorded that rank's error exit that long before (_exited_before). Those ends are teardown; [] when the
    limit (or the stop) stands, or is the only root (stalled_until_limit's case)."""
    for finding in (STALLED, STOPPED):
        ends = [e for e in roots if _ends_it(e, sigs[e.sig_id], finding)]
        times = [t for t in map(limit_time, ends) if t is not None]
        if not times:
            continue
        struck, at = min(times), {(e.source_index, e.line) for e in ends}
        failed = [
            e
            for e in roots
            if (e.source_index, e.line) not in at
            and e.rank is not None
            and e.kind != "absence"
            and e.eff_time is not None
            and e.eff_time <= struck - STALL_SECONDS
        ]
        if failed and (stopped_before(scan, struck) is not None or _exited_before(failed, scan, sigs, struck)):
            return ends
    return []


def _exited_before(failed: list[Event], scan: ScanResult, sigs: dict[str, Signature], struck: float) -> bool:
    """A rank that failed on its own is gone: the launcher recorded its error exit (srun's "task 0: Exited with exit
    code 1") at least STALL_SECONDS before the limit struck. The others may have gone on printing (waiting for a file
    that rank was to write), but the job could only wait for it: the limit ended a job that had already failed."""
    ranks = {e.rank for e in failed}
    return any(
        "launcher-exit" in sigs[w.sig_id].tags
        and w.rank in ranks
        and failed_on_its_own(w)
        and w.eff_time is not None
        and w.eff_time <= struck - STALL_SECONDS
        for w in scan.events
    )


def thread_failed_then_limit(roots: list[Event], scan: ScanResult, sigs: dict[str, Signature]) -> list[Event]:
    """The time limit (or a stop from outside with no reason) that ended a job whose helper thread had died with a
    failure of its own (not a generic exception) above it in the same source, untimed, after every rank's last
    progress line there: the process waited on what the thread never finished (an async checkpoint writer out of
    space) until the scheduler ended it. Those ends are teardown; [] otherwise (timed logs: ended_after_a_failure)."""
    for finding in (STALLED, STOPPED):
        ends = [e for e in roots if _ends_it(e, sigs[e.sig_id], finding)]
        if not ends:
            continue
        end = min(ends, key=lambda e: (e.source_index, e.line))
        last = [line for (src, _), (line, _, _) in scan.progress.items() if src == end.source_index]
        if not last or any(src != end.source_index for src, _ in scan.progress):
            continue  # the steps are elsewhere (a job's .out beside its .err): they may have gone on to the limit
        died = [
            e
            for e in roots
            if e.in_thread
            and e.kind == "line"
            and e.eff_time is None
            and "fallback" not in sigs[e.sig_id].tags
            and e.source_index == end.source_index
            and max(last, default=0) < e.line < end.line
        ]
        if died:
            return ends
    return []


def _facts(idle: float, pace: float, step: int | None) -> dict[str, str]:
    facts = {"idle": f"{idle:.0f}", "pace": f"{pace:.2g}", "how": f"steps had come every {pace:.2g} s"}
    return facts | ({"step": str(step)} if step is not None else {})


def _finished_long_before(scan: ScanResult, limit: Event, struck: float) -> float | None:
    """Seconds from a timed line of the limit's source saying training finished, above the limit, to the limit,
    when that is at least FINISHED_SECONDS: the job was done and its processes did not exit."""
    done = [
        (line, at)
        for (src, _), (line, at) in scan.finished_at.items()
        if src == limit.source_index and line < limit.line
    ]
    if not done:
        return None
    _, at = max(done)
    return struck - at if struck - at >= FINISHED_SECONDS else None


def _went_elsewhere(scan: ScanResult, last_time: float, limit: Event) -> list[tuple[int, int, LastWord]]:
    """The ranks whose last word came after their own last progress line and not before the job's last progress,
    before the limit struck: each (source index, rank, last word)."""
    out = []
    for (src, rank), word in scan.last_words.items():
        if rank is None or (src == limit.source_index and word.line >= limit.line):
            continue
        mine = scan.progress.get((src, rank))
        if mine is None or word.line <= mine[0]:
            continue
        if word.time is not None and word.time < last_time:
            continue
        out.append((src, rank, word))
    return out


def thread_died_before_stall(threads: list[Event], stalled: Event, scan: ScanResult) -> Event | None:
    """A job that stopped making progress (no rank singled out) after a helper thread died on one rank: the
    thread's exception, which the rank trained past at first (a prefetcher or tokenizer thread whose queue still
    held batches), is what the job then hung on: the main thread waited for work the thread would never bring,
    and the others waited for that rank. The thread's exception when exactly one rank had one, before the job's
    last training progress; else None."""
    last = [t for (_, _, t) in scan.progress.values() if t is not None]
    if not last:
        return None
    stopped = max(last)
    before = [e for e in threads if e.rank is not None and (e.eff_time is None or e.eff_time <= stopped)]
    if len({e.rank for e in before}) != 1 or stalled.time is None:
        return None
    return before[0]  # the first, as the caller ordered them


STALLED_LIVE = "train.progress_stalled"  # the finding stalled_while_logging makes


def _near_last_step(scan: ScanResult, src: int, rank: int, said: int) -> bool:
    """A status line's step is where the rank stopped: at or after its last logged step, by at most two of its
    logging intervals (steps logged every 20, stuck at 120 after logging 100), not far past it (still training)."""
    last = scan.progress.get((src, rank))
    if last is None or last[1] is None:
        return False
    logged = scan.pace.get((src, rank), (0.0, 1))[1]
    every = max(1.0, last[1] / max(1, logged))
    return last[1] <= said <= last[1] + 2 * every


_SAYS_STEP = re.compile(r"(?i)\bstep\s*[=:]?\s*(\d{1,9})\b")


def stalled_while_logging(scan: ScanResult) -> Event | None:
    """A log with no failure in it, copied while the job was still running but hung: every rank's training
    progress stopped STALL_PACES of its usual intervals (and STALL_SECONDS) before the log's end, while each rank
    went on printing timed lines that still name the step it was at (a heartbeat or status line: "step=120
    last_step_age=97s") and no line said training finished. The event is the last of those lines, with no rank
    (the ranks stopped together; which one is stuck is not in the log). None otherwise."""
    ranks = {rank for (_, rank) in scan.progress if rank is not None}
    if scan.finished or not ranks:
        return None
    words = []
    for rank in sorted(ranks):
        found = [(w, src) for (src, r), w in scan.last_words.items() if r == rank and w.time is not None]
        if not found:
            return None
        word, src = max(found, key=lambda f: f[0].time or 0.0)
        said = _SAYS_STEP.search(word.text)
        if said is None or not _near_last_step(scan, src, rank, int(said.group(1))):
            return None
        words.append((word, src, int(said.group(1))))
    if len({n for _, _, n in words}) != 1:
        return None
    word, src, at = max(words, key=lambda w: w[0].time or 0.0)
    assert word.time is not None
    stopped = stopped_before(scan, word.time)  # the steps stopped long before the ranks' last status lines
    if stopped is None:
        return None
    idle, pace, _, _ = stopped
    name = scan.sources[src] if src < len(scan.sources) else str(src)
    return Event(
        STALLED_LIVE,
        "line",
        name,
        src,
        word.line,
        None,
        None,
        word.time,
        word.time,
        word.text,
        {"idle": f"{idle:.0f}", "pace": f"{pace:.2g}", "step": str(at)},
    )
