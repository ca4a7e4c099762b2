"""The diagnosis as data (the JSON contract) and as text for a terminal."""

from __future__ import annotations

import dataclasses
import re
import statistics
import textwrap
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated

from pydantic import Field, SkipValidation

from ._attribution import Finding, Survival
from ._draft import message_of
from ._events import Event, ScanResult
from ._library import TaxonomyClass
from ._lines import iso
from ._models import (
    Attribution,
    BaselineDiff,
    Collateral,
    Diagnosis,
    Evidence,
    FirstSeen,
    FlightRecorder,
    LogLine,
    RankLines,
    Report,
    SetAside,
    Stats,
    UnrecognisedHint,
)
from ._ranks import TEARDOWN_EXITS, RankState, build_view
from ._schema import Signature
from ._template import fill_command, fill_prose

EVIDENCE_SAME_SIGNATURE = 5
EVIDENCE_LAUNCHER = 3
EVIDENCE_RELATED = 3
UNRECOGNISED_RANKS = 16


def _evidence(e: Event, kind: str) -> Evidence:
    return Evidence(
        source=e.source,
        line=e.line,
        rank=e.rank,
        text=e.text,
        kind=kind,
        host=e.host or None,
        time=iso(e.time),
        context=e.context or None,
        context_after=e.after or None,
    )


# "Rank {rank}" in a signature's text, for a finding with no rank: "A rank" ("rank unknown" reads as a rank's name)
_RANK_FIELD = re.compile(r"\b([Rr]ank|[Pp]rocess|[Ww]orker) \{rank\}")


def _unranked(text: str, f: Finding) -> str:
    if f.initiating_rank is not None:
        return text
    return _RANK_FIELD.sub(lambda m: ("A " if m.group(1)[0].isupper() else "a ") + m.group(1).lower(), text)


def _host(f: Finding) -> str | None:
    """The host of the initiating rank: the first line's, unless that line is another rank's (a silent rank named
    from the others' lines); then its own lines' host, or none (a scheduler's task number is not a rank, nor is
    another rank's host this one's)."""
    e = f.event
    if f.initiating_rank is None or f.initiating_rank == e.rank:
        return e.host
    own = {x.host for x in (*f.events, *f.related) if x.rank == f.initiating_rank and x.host}
    return own.pop() if len(own) == 1 else None


def _diagnosis(f: Finding, taxonomy: dict | None = None) -> Diagnosis:
    sig, e = f.sig, f.event
    cls = (taxonomy or {}).get(sig.cls)
    # the line's host and the initiating rank are usable in the text as {host} and {rank}
    text_values = {
        **e.values,
        "host": e.host or "unknown host",
        "rank": str(f.initiating_rank) if f.initiating_rank is not None else "unknown",
    }
    evidence = [_evidence(e, "initiating")]
    seen_ranks = {e.rank}
    for other in f.events:
        if len(evidence) > EVIDENCE_SAME_SIGNATURE:
            break
        if other is not e and other.rank not in seen_ranks:
            evidence.append(_evidence(other, "same_failure"))
            seen_ranks.add(other.rank)
    evidence += [_evidence(r, "related") for r in f.related[:EVIDENCE_RELATED]]
    evidence += [_evidence(w, "launcher") for w in f.launcher[:EVIDENCE_LAUNCHER]]
    action, action_reason = _action(f.attribution.rule if f.attribution is not None else None, sig, cls)
    return Diagnosis(
        signature=sig.id,
        class_=sig.cls,
        title=sig.title,
        severity=sig.severity,
        role="collateral" if f.promoted else sig.role,
        initiating_rank=f.initiating_rank,
        host=_host(f),
        first_seen=FirstSeen(
            source=e.source,
            line=e.line,
            time=iso(e.at),
            time_inferred=e.time is None and e.eff_time is not None,
            text=e.text,
        ),
        evidence=evidence,
        values=e.values,
        ranks=f.ranks,
        count=f.count,
        collateral=f.collateral,
        summary=fill_prose(_unranked(sig.summary, f), text_values).strip(),
        mechanism=sig.mechanism.strip(),
        root_causes=sig.root_causes,
        fix=fill_prose(_unranked(sig.fix, f), text_values).strip(),
        checklist=[fill_command(_unranked(c, f), text_values) for c in sig.checklist],
        prevention=sig.prevention.strip(),
        verify=fill_command(sig.verify, text_values).strip(),
        references=sig.references,
        related=sig.related,
        attribution=Attribution.model_validate(f.attribution, from_attributes=True),
        action=action,
        action_reason=action_reason,
    )


def _action(rule: str | None, sig: Signature, cls: TaxonomyClass | None) -> tuple[str, str]:
    """Can I just requeue? The attribution's story first (a rank that left on its own), then the signature's own
    answer where it differs from its class's (a wrong init_method), then its class's."""
    if rule in _ACTION_BY_RULE:
        return _ACTION_BY_RULE[rule]
    if sig.action is not None and sig.action_reason is not None:
        return sig.action, sig.action_reason
    return (cls.action, cls.action_reason) if cls else ("fix_and_restart", "")


# attribution rules whose story decides the action whatever the class of the line that showed it: a rank that left
# the job on its own (early stopping on its data, a shorter epoch) will leave again on a requeue
_ACTION_BY_RULE = {
    "finished_early": (
        "fix_and_restart",
        "a rank that stopped training on its own will stop again: make every rank run the same steps (equal "
        "shards with drop_last, one stopping decision shared by all ranks, or DDP's join for uneven inputs)",
    ),
}


# Words in an unexplained error that point at a family, and the class it most likely is (a hint, low confidence)
_HINTS = [
    ("memory", "cuda_oom", re.compile(r"(?i)cuda.{0,40}(?:memory|alloc)|out of memory.{0,40}(?:gpu|cuda)")),
    ("memory", "host_oom_killed", re.compile(r"(?i)out of memory|cannot allocate memory|memoryerror|oom|killed")),
    (
        "network",
        "nccl_system_error",
        re.compile(
            r"(?i)nccl|gloo|socket|connection (?:refused|reset|closed)|"
            r"timed? ?out|unreachable|broken pipe"
        ),
    ),
    (
        "storage",
        "storage_io_error",
        re.compile(
            r"(?i)no space|disk|quota|i/o error|input/output|permission denied|"
            r"read-only file system|stale file handle|no such file"
        ),
    ),
    ("numerics", "nan_inf_loss", re.compile(r"(?i)\bnan\b|\binf\b|overflow|non-finite|floatingpointerror")),
    (
        "data",
        "tokenizer_or_data_error",
        re.compile(
            r"(?i)keyerror|unicodedecodeerror|jsondecodeerror|token|dataset|"
            r"dataloader|decode|corrupt"
        ),
    ),
]


def unrecognised_hint(groups: list[RankLines]) -> UnrecognisedHint | None:
    """For a failure no signature explains: the rank of the first error line, and the family its words
    point at (low confidence), so "unrecognised" still says where to look."""
    lines = [(g.rank, ln) for g in groups for ln in g.lines]
    if not lines:
        return None
    rank, first = min(lines, key=lambda rl: (rl[1].source, rl[1].line))
    text = " ".join(ln.text for _, ln in lines[:20])
    family, cls = next(((family, cls) for family, cls, words in _HINTS if words.search(text)), (None, None))
    return UnrecognisedHint(rank=rank, first_error=first, family=family, class_=cls, confidence="low")


def _unrecognised(scan: ScanResult) -> list[RankLines]:
    by_rank = sorted(scan.errorlike.items(), key=lambda kv: (kv[0] is None, kv[0] if kv[0] is not None else 0))
    groups = []
    went_on = Survival(scan)
    for rank, lines in by_rank[:UNRECOGNISED_RANKS]:
        kept: list[LogLine] = []
        for ln in lines:
            if went_on(ln.source, ln.line, rank):
                continue
            kept.append(LogLine(source=ln.source, line=ln.line, text=ln.text))
            # after a traceback's header, what it raised (its last line), unless that is an error line kept anyway
            if ln.raised is not None and not any(o.line == ln.raised[0] and o.source == ln.source for o in lines):
                kept.append(LogLine(source=ln.source, line=ln.raised[0], text=ln.raised[1]))
        if kept:
            groups.append(RankLines(rank=rank, lines=kept))
    return groups


# -- the job's timeline: what the picture of a multi-rank diagnosis draws (bot/timeline.py) -----------------

TIMELINE_MARKS_PER_RANK = 8  # the scan keeps a few events per (signature, rank); a row needs no more
TIMELINE_JOB_MARKS = 4
_MARK_KIND = {"root": "root", "collateral": "collateral", "wrapper": "teardown"}  # a signature's role, in a picture


@dataclass(frozen=True)
class TimelineMark:
    """Something that happened to a rank, or to the whole job, at a time."""

    time: float  # seconds since the epoch (UTC): the line's own stamp, else the last one above it
    kind: str  # "initiating", "root", "collateral", "teardown" (the launcher or scheduler stopping it) or "exit"
    signature: str
    label: str  # the signature's title, cut to fit a picture: "CUDA out of memory"
    code: str | None = None  # an exit's code as the launcher printed it ("-6")
    signal: str | None = None  # a fatal signal's name ("SIGABRT")


@dataclass(frozen=True)
class TimelineRow:
    """One rank: how far it got, what it reported, how it ended."""

    rank: int
    host: str | None
    step: int | None  # its last training step seen
    progress: float | None  # when it was seen
    marks: tuple[TimelineMark, ...]  # in time order
    exit: TimelineMark | None  # as the launcher saw it end: kind "exit", or "teardown" when the launcher stopped it


@dataclass(frozen=True)
class Timeline:
    rows: tuple[TimelineRow, ...]  # one per rank seen, by rank
    job: tuple[TimelineMark, ...]  # timed events that name no rank (a launcher tearing the job down)
    initiating: TimelineMark  # the finding's first event: kind "initiating" when it is the initiating rank's own
    initiating_rank: int | None  # the rank attribution chose (None: no single rank)
    rule: str  # how attribution chose it (`Attribution.rule`): "explicit_root", "silent_rank", ...
    knock_on: tuple[str, ...]  # the collateral signatures, those most other ranks reported first


def _short_title(title: str) -> str:
    """A signature's title cut to fit a caption: "CUDA out of memory: the PyTorch caching allocator..." ->
    "CUDA out of memory"."""
    title = re.sub(r"\s*\([^)]*\)", "", title).strip()
    head = title.split(": ", 1)[0]
    if len(title) > 40 and len(head) >= 10:
        title = head
    return title if len(title) <= 60 else title[:59].rsplit(" ", 1)[0] + "…"


def _timeline_mark(e: Event, kind: str, sig: Signature) -> TimelineMark:
    assert e.eff_time is not None
    return TimelineMark(e.eff_time, kind, sig.id, _short_title(sig.title))


def build_timeline(findings: list[Finding], scan: ScanResult, sigs: dict[str, Signature]) -> Timeline | None:
    """Every rank's last progress, events and exit in time, for a diagnosis whose initiating event has a time
    and in which at least two ranks reported something with a time; None otherwise. `scan` is the scan as
    attribution read it (see attribute): its events refined and their ranks recovered."""
    if not findings or findings[0].event.eff_time is None:
        return None
    top = findings[0]
    events = scan.events
    if len({e.rank for e in events if e.rank is not None and e.eff_time is not None}) < 2:
        return None
    view = build_view(scan, sigs)
    initiator = (top.event.source_index, top.event.line, top.event.sig_id)
    # a rank picked from what its peers reported (silent, behind in sequence): the first report is a peer's
    own = top.initiating_rank is None or top.event.rank in (None, top.initiating_rank)
    stopped_by_launcher = {(e.source_index, e.line, e.sig_id) for e in top.launcher}
    went_on = Survival(scan)
    hosts: dict[int, str] = {}
    best: dict[tuple[int | None, int, int], tuple[tuple, Event, str]] = {}  # per rank and line, its best name
    for e in events:
        if e.rank is not None and e.host:
            hosts.setdefault(e.rank, e.host)
        key = (e.source_index, e.line, e.sig_id)
        sig = sigs[e.sig_id]
        kind = "teardown" if key in stopped_by_launcher else _MARK_KIND[sig.role]
        if key == initiator:
            kind = "initiating" if own else kind
        elif e.eff_time is None or e.handled or (not e.in_thread and went_on(e.source, e.line, e.rank)):
            continue  # no place in time, or a rank that went on past it: not how it ended
        rank = top.initiating_rank if kind == "initiating" and e.rank is None else e.rank
        rank_line = (rank, e.source_index, e.line)
        rating = (key == initiator, "fallback" not in sig.tags, sig.priority)
        if rank_line not in best or best[rank_line][0] < rating:
            best[rank_line] = (rating, e, kind)
    marks: dict[int | None, dict[str, TimelineMark]] = {}  # per rank, the first mark of each signature
    start = None
    for (rank, _, _), (_, e, kind) in sorted(best.items(), key=lambda kv: (kv[1][1].eff_time or 0.0, kv[1][1].seq)):
        if kind == "teardown" and rank in view.ranks and view.ranks[rank].exit:
            continue  # a rank's launcher records are its exit, drawn once
        first = marks.setdefault(rank, {})
        if e.sig_id not in first or (e.source_index, e.line, e.sig_id) == initiator:
            first[e.sig_id] = _timeline_mark(e, kind, sigs[e.sig_id])
            if (e.source_index, e.line, e.sig_id) == initiator:
                start = first[e.sig_id]
    rows = [_timeline_row(view.ranks[rank], hosts.get(rank), marks.get(rank, {}), sigs) for rank in sorted(view.ranks)]
    if start is None or sum(1 for row in rows if row.marks or row.exit) < 2:
        return None
    job = tuple(sorted(marks.get(None, {}).values(), key=lambda m: m.time)[:TIMELINE_JOB_MARKS])
    rule = top.attribution.rule if top.attribution else "unknown"
    return Timeline(tuple(rows), job, start, top.initiating_rank, rule, _knock_on(top, rows, start))


def _knock_on(top: Finding, rows: list[TimelineRow], start: TimelineMark) -> tuple[str, ...]:
    """The knock-on signatures, by how many ranks besides the initiating one reported them (the report's order
    among equals)."""
    ranks: dict[str, int] = {}
    for row in rows:
        if row.rank != top.initiating_rank:
            for sig_id in {m.signature for m in row.marks if m.kind == "collateral" and m.signature != start.signature}:
                ranks[sig_id] = ranks.get(sig_id, 0) + 1
    listed = [c["signature"] for c in top.collateral]
    return tuple(sorted(ranks, key=lambda sig_id: (-ranks[sig_id], listed.index(sig_id) if sig_id in listed else 99)))


def _timeline_row(
    state: RankState, host: str | None, marks: dict[str, TimelineMark], sigs: dict[str, Signature]
) -> TimelineRow:
    end = None
    if state.exit and state.exit.event.eff_time is not None:
        kind = "teardown" if state.exit.code in TEARDOWN_EXITS else "exit"
        end = dataclasses.replace(
            _timeline_mark(state.exit.event, kind, sigs[state.exit.event.sig_id]),
            code=state.exit.code,
            signal=state.exit.signal,
        )
    progress = state.progress
    return TimelineRow(
        rank=state.rank,
        host=host,
        step=progress.step if progress else None,
        progress=progress.time if progress else None,
        marks=tuple(sorted(marks.values(), key=lambda m: m.time)[:TIMELINE_MARKS_PER_RANK]),
        exit=end,
    )


def _clock(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%H:%M:%S")


def _after(seconds: float) -> str:
    """As _when, for a time that may come first: " 10 min later", " 12s earlier"."""
    return _when(seconds) if seconds > -1 else _when(-seconds).replace("later", "earlier")


# how attribution chose a rank from what its peers reported, as the caption says it
_PICKED = {
    "silent_rank": "went silent",
    "behind_in_sequence": "fell behind",
    "progress_stopped_first": "stopped first",
    "absent_rank": "never joined",
}
_NO_RANK = {"job_wide": "the job", "all_alike": "all ranks alike"}


def timeline_caption(tl: Timeline) -> str:
    """One line saying what the picture shows: "rank 3: CUDA out of memory at 12:10:05 → 7 ranks: NCCL
    watchdog 10 min later" (of the knock-ons, the one most ranks reported; else how the others ended)."""
    start = tl.initiating
    at = f"{start.label} at {_clock(start.time)}"
    others = [row for row in tl.rows if row.rank != tl.initiating_rank]
    if tl.initiating_rank is None:
        out = f"{_NO_RANK.get(tl.rule, 'no single rank')}: {at}"
    elif start.kind == "initiating":
        out = f"rank {tl.initiating_rank}: {at}"
    else:  # the first report was a peer's
        n = sum(1 for row in others if any(m.signature == start.signature for m in row.marks))
        picked = _PICKED.get(tl.rule, "started it")
        return f"rank {tl.initiating_rank} {picked} → {n} rank{'s' if n != 1 else ''}: {at}"
    ends = [row.exit for row in others if row.exit]
    if tl.knock_on:  # when the ranks that reported it most did, each its first time
        firsts = [next((m for m in row.marks if m.signature == tl.knock_on[0]), None) for row in others]
        times = [m.time for m in firsts if m]
        what = ": " + next(m.label for m in firsts if m)
    elif ends:
        times = [m.time for m in ends]
        what = " stopped by the launcher" if all(m.kind == "teardown" for m in ends) else " exited"
    else:
        return out
    n = len(times)
    return out + f" → {n} rank{'s' if n != 1 else ''}{what}{_after(statistics.median(times) - start.time)}"


class ScannedReport(Report):
    """A report as a scan returns it: with what the scan saw that the JSON leaves out. A copy (`model_copy`)
    keeps it; a report read back from JSON has none."""

    # the picture's data: a row per rank, for up to every rank of the job (not bounded enough for the JSON)
    timeline: Annotated[Timeline | None, SkipValidation] = Field(default=None, exclude=True)


def build_report(
    findings: list[Finding],
    scan: ScanResult,
    seconds: float,
    taxonomy: dict | None = None,
    recorder: dict | None = None,
    sigs: dict[str, Signature] | None = None,
) -> ScannedReport:
    """The report of the findings; with the library's signatures (`sigs`), its timeline too."""
    unrecognised = [] if findings else _unrecognised(scan)
    healthy = not findings and not unrecognised
    return ScannedReport(
        diagnoses=[_diagnosis(f, taxonomy) for f in findings],
        unrecognised=unrecognised,
        stats=Stats(
            bytes=scan.bytes,
            lines=scan.lines,
            ranks=sorted(scan.ranks),
            hosts=sorted(scan.hosts),
            sources=len(scan.sources),
            skipped=scan.skipped,
            completed=scan.completed,
            seconds=round(seconds, 3),
            last_step=max((step for _, step, _ in scan.progress.values() if step is not None), default=None),
            notes=scan.notes,
        ),
        unrecognised_hint=unrecognised_hint(unrecognised),
        flight_recorder=FlightRecorder.model_validate(recorder) if recorder else None,
        set_aside=[
            SetAside(signature=e.sig_id, source=e.source, line=e.line, rank=e.rank, why=why)
            for e, why in scan.set_aside
        ]
        if healthy and scan.set_aside
        else None,
        timeline=build_timeline(findings, scan, sigs) if sigs else None,
    )


def rank_ranges(ranks: list[int]) -> str:
    """[0,1,2,3,5] -> '0-3, 5'"""
    out: list[str] = []
    start: int | None = None
    prev: int | None = None
    for r in [*sorted(ranks), None]:
        if start is None:
            start = prev = r
        elif r is not None and prev is not None and r == prev + 1:
            prev = r
        else:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = r
    return ", ".join(out)


def _when(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 1:
        return " right after"
    if seconds < 120:
        return f" {seconds:.0f}s later"
    return f" {seconds / 60:.0f} min later"


def collateral_line(c: Collateral) -> str:
    ranks = c.ranks
    who = f"{len(ranks)} rank{'s' if len(ranks) != 1 else ''} ({rank_ranges(ranks)})" if ranks else "the job"
    return f"{who}: {c.title} [{c.signature}], {c.count}x{_when(c.seconds_after)}"


SET_ASIDE_SHOWN = 3


def _after_by(seconds: float) -> str:
    if seconds < 1:
        return "within a second of"
    return f"{seconds:.0f} s after" if seconds < 120 else f"{seconds / 60:.0f} min after"


def _seconds_from(start: str | None, end: str | None) -> float | None:
    try:
        return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds() if start and end else None
    except ValueError:
        return None


def _short(title: str) -> str:
    head = title.split(":")[0].split(" (")[0]
    head = head if len(head) >= 8 else title
    return head if len(head) <= 60 else head[:59] + "…"


def _who(ranks: list[int]) -> str:
    return f"rank {ranks[0]}" if len(ranks) == 1 else f"ranks {rank_ranges(ranks)}"


def considered_line(report: Report) -> str:
    """One line: how sure the top diagnosis is, and what else was considered and why it is not the cause
    (knock-on failures that came after it, failures that started later, a launcher naming another rank)."""
    d = report.top
    if d is None:
        return ""
    anchor = (f"rank {d.initiating_rank}'s " if d.initiating_rank is not None else "the ") + d.class_
    items: list[str] = []
    groups: dict[str, list[Collateral]] = {}
    for c in d.collateral:  # one item per class (or per signature when it shares the diagnosis's class)
        if c.signature == d.signature:  # more of the diagnosis's own evidence, not an alternative to it
            continue
        groups.setdefault(c.class_ if c.class_ != d.class_ else c.signature, []).append(c)
    for label, group in groups.items():
        ranks = sorted({r for c in group for r in c.ranks})
        delays = [c.seconds_after for c in group if c.seconds_after is not None]
        when = _after_by(min(delays)) if delays else "after"
        on = f" on {_who(ranks)}" if ranks else ""
        items.append(f"not {label}: {_short(group[0].title)}{on} came {when} {anchor}")
    for other in report.diagnoses[1:]:
        label = other.class_ if other.class_ != d.class_ else other.signature
        gap = _seconds_from(d.first_seen.time, other.first_seen.time)
        if gap is not None and gap >= 0:
            why = f"started {_after_by(gap)} {anchor}"
        elif other.first_seen.source == d.first_seen.source and other.first_seen.line > d.first_seen.line:
            why = f"came later in the log than {anchor}"
        else:
            why = f"seen too; the attribution ({d.attribution.rule}) names {anchor} as the start"
        on = f" on rank {other.initiating_rank}" if other.initiating_rank is not None else ""
        items.append(f"not {label}: {_short(other.title)}{on} {why}")
    launcher = {e.rank for e in d.evidence if e.kind == "launcher" and e.rank is not None}
    if d.initiating_rank is not None and launcher and d.initiating_rank not in launcher:
        items.append(
            f"not {_who(sorted(launcher))}, which the launcher saw fail: it reports the exits it saw, "
            "not where the failure started"
        )
    sure = f"{d.attribution.confidence} confidence"
    if not items:
        return f"Considered ({sure}): no other signature fired"
    more = f"; and {len(items) - SET_ASIDE_SHOWN} more" if len(items) > SET_ASIDE_SHOWN else ""
    return f"Considered and set aside ({sure}): " + "; ".join(items[:SET_ASIDE_SHOWN]) + more


def _baseline_lines(diff: BaselineDiff) -> list[str]:
    good = ", ".join(diff.good)
    if not diff.new:
        return [
            f"= Nothing new against the good run ({good}, {diff.good_lines} lines): every message was printed there too."
        ]
    out = [
        f"± New since the good run ({good}, {diff.good_lines} lines): {diff.new_total} message(s) it never printed; first:"
    ]
    for ln in diff.new:
        label = f"rank {ln.rank}" if ln.rank is not None else "no rank"
        out.append(f"    [{label}] {ln.source}:{ln.line}: {cut(ln.text, LINE_CHARS)}")
    return out


LINE_CHARS = 200  # of a log line quoted in the text
CONTEXT_SHOWN = 6  # traceback frames above an evidence line
SAME_PLACES_SHOWN = 3  # where the ranks that printed the same traceback printed it
ELLIPSIS = "…"
# what an evidence line is, in words (the JSON's `kind`)
EVIDENCE_LABEL = {"initiating": "started", "same_failure": "same", "related": "related", "launcher": "launcher"}
_LABEL_WIDTH = max(map(len, EVIDENCE_LABEL.values()))
# a command inside a sentence: `in backticks`; an item with flags, <placeholders> or a pipe is a command line
_QUOTED_COMMAND = re.compile(r"`[^`]+`")
_COMMAND_LINE = re.compile(r"(?:^|\s)(?:--?[A-Za-z][\w-]*|<\w+>|\||&&|\$\w+)(?=\s|=|$)")
_ASCII = str.maketrans({"✖": "x", "✓": "+", "…": "...", "±": "+/-", "→": "->", "–": "-", "—": "-", "×": "x", "○": "o"})

Line = tuple[str, str]  # (style, text): what a line is (for a terminal that colours it), and the line


def cut(text: str, limit: int) -> str:
    """At most `limit` characters; a line that was cut ends with "…"."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + ELLIPSIS


def to_ascii(text: str) -> str:
    """For a terminal that shows ASCII only (PYTHONIOENCODING=ascii, LANG=C): the report's symbols in ASCII, any
    other character of a quoted log line as "?"."""
    return text.translate(_ASCII).encode("ascii", "replace").decode("ascii")


def wrap(text: str, width: int, first: str, rest: str | None = None) -> list[str]:
    """Prose wrapped to `width` without cutting a word, a flag or a path in two, and without breaking a command:
    a `quoted command` stays on one line, and so does a whole item that reads as a command line (the terminal
    may fold it on screen; copied, it is one line)."""
    rest = first if rest is None else rest
    if _COMMAND_LINE.search(_QUOTED_COMMAND.sub("", text)):
        return [first + " ".join(text.split())]
    glued = _QUOTED_COMMAND.sub(lambda m: m.group(0).replace(" ", "\x00"), text)
    lines = textwrap.wrap(
        glued, width, initial_indent=first, subsequent_indent=rest, break_long_words=False, break_on_hyphens=False
    )
    return [line.replace("\x00", " ") for line in lines] or [first]


def _same_key(ev: Evidence) -> tuple[str, ...]:
    """An evidence line and its traceback as any rank prints them (prefixes such as the rank and the time taken
    off), and what it is: the same failure (where it started, or the same elsewhere), related, the launcher's."""
    kind = "same" if ev.kind in ("initiating", "same_failure") else ev.kind
    return (kind, message_of(ev.text), *(message_of(c) for c in (ev.context or [])[-CONTEXT_SHOWN:]))


def _evidence_lines(d: Diagnosis, width: int) -> list[Line]:
    """Each evidence line under its traceback, labelled in words; a traceback that several ranks printed alike
    is shown once, followed by the ranks that printed it too ("same on ranks 0-2: ...")."""
    cited: dict[tuple[str, int], Evidence] = {}  # a line two signatures both cite is shown once
    for ev in d.evidence:
        cited.setdefault((ev.source, ev.line), ev)
    alike: dict[tuple[str, ...], list[Evidence]] = {}
    for ev in cited.values():
        alike.setdefault(_same_key(ev), []).append(ev)
    out: list[Line] = []
    for ev in cited.values():
        group = alike[_same_key(ev)]
        if group[0] is not ev:
            continue  # shown with the first rank that printed it
        label = EVIDENCE_LABEL.get(ev.kind, ev.kind).ljust(_LABEL_WIDTH)
        rank = f"rank {ev.rank}" if ev.rank is not None else "no rank"
        out.append(("evidence", f"    {label} {rank}, {ev.source}:{ev.line}"))
        frame_chars = max(width - 6, 20)
        out += [("context", "      " + cut(ctx, frame_chars)) for ctx in (ev.context or [])[-CONTEXT_SHOWN:]]
        out.append(("start" if ev.kind == "initiating" else "text", "      " + cut(ev.text, LINE_CHARS)))
        out += [("context", "      " + cut(ctx, frame_chars)) for ctx in ev.context_after or []]
        others = group[1:]
        if others:
            places = ", ".join(
                f"line {o.line}" if o.source == ev.source else f"{o.source}:{o.line}"
                for o in others[:SAME_PLACES_SHOWN]
            )
            more = f", {ELLIPSIS}" if len(others) > SAME_PLACES_SHOWN else ""
            who = _ranks_label([o.rank for o in others])
            out.append(("evidence", f"    {'same'.ljust(_LABEL_WIDTH)} on {who}: {places}{more}"))
    return out


def _ranks_label(ranks: list[int | None]) -> str:
    """ "ranks 0-2", "rank 3", "no rank", "ranks 0-2 and lines with no rank"."""
    known = sorted({r for r in ranks if r is not None})
    if not known:
        return "no rank"
    return _who(known) + (" and lines with no rank" if None in ranks else "")


def _unrecognised_lines(report: Report) -> list[Line]:
    """The first error-like lines per rank; ranks that printed the same lines are one group ("ranks 0-3")."""
    alike: dict[tuple[str, ...], list[RankLines]] = {}
    for group in report.unrecognised:
        alike.setdefault(tuple(message_of(ln.text) for ln in group.lines), []).append(group)
    out: list[Line] = []
    for groups in alike.values():
        label = _ranks_label([g.rank for g in groups])
        for ln in groups[0].lines:
            out.append(("evidence", f"    [{label}] {ln.source}:{ln.line}: {cut(ln.text, LINE_CHARS)}"))
    return out


def _requeue(d: Diagnosis) -> str:
    label = {
        "restart": "yes, requeue it",
        "drain_and_restart": "drain the node first, then requeue",
        "fix_and_restart": "not yet: fix first",
    }[d.action]
    return f"Can I just requeue? {label} ({d.action_reason})"


def _diagnosis_lines(report: Report, d: Diagnosis, width: int) -> list[Line]:
    """The top diagnosis: what, where and why, the fix, then the evidence (long), then how to confirm it."""
    out: list[Line] = [
        ("failure", line) for line in wrap(f"✖ {d.title}  [{d.severity}]  {d.signature} ({d.class_})", width, "", "  ")
    ]
    out += [("text", line) for line in wrap(d.summary, width, "  ")]
    fs = d.first_seen
    rank = d.initiating_rank
    where = f"rank {rank}" if rank is not None else ("all ranks alike" if len(d.ranks) > 1 else "no single rank")
    host = f" on {d.host}" if d.host else ""
    when = f" at {fs.time}" if fs.time else ""
    seen_on = d.evidence[0].rank if d.evidence else rank
    if rank is not None and seen_on is not None and seen_on != rank:  # a rank named from the others' lines
        seen_host = f" on {d.evidence[0].host}" if d.evidence[0].host and d.evidence[0].host != d.host else ""
        started = f"Started: {where}{host}; first seen on rank {seen_on}{seen_host}, {fs.source}:{fs.line}{when}"
    else:
        started = f"Started: {where}{host}, {fs.source}:{fs.line}{when}"
    out += [("text", line) for line in wrap(started, width, "  ", "    ")]
    a = d.attribution
    why = "; ".join(r.text for r in a.reasons[:2])
    out += [("dim", line) for line in wrap(f"Why: {why} [{a.rule}, {a.confidence} confidence]", width, "    ")]
    out += [("dim", line) for line in wrap(considered_line(report), width, "    ")]
    if d.action != "none":
        out += [("text", line) for line in wrap(_requeue(d), width, "  ")]
    out.append(("heading", "  Fix:"))
    out += [("text", line) for line in wrap(d.fix, width, "    ")]
    out.append(("heading", "  Evidence:"))
    out += _evidence_lines(d, width)
    if d.collateral:
        out.append(("heading", "  Knock-on failures (collateral, not the cause):"))
        out += [("text", line) for c in d.collateral for line in wrap(collateral_line(c), width, "    - ", "      ")]
    out.append(("heading", "  Confirm:"))
    for item in d.checklist:
        out += [("text", line) for line in wrap(item, width, "    [ ] ", "        ")]
    out.append(("heading", "  Verify:"))
    out.append(("command", f"    {d.verify}"))
    if d.references:
        out.append(("heading", "  References:"))
        out += [("dim", f"    {url}") for url in d.references[:3]]
    return out


def _not_a_log_lines(report: Report, width: int) -> list[Line]:
    out: list[Line] = [("not_a_log", "○ This does not look like a training log.")]
    out += [
        ("text", line)
        for line in wrap(
            "None of its lines is one a training job, its launcher or its scheduler prints: no step or loss "
            "line, no rank or timestamp prefix, no launcher or scheduler line, no traceback. Nothing to diagnose.",
            width,
            "  ",
        )
    ]
    if report.unrecognised:
        out.append(("text", "  If it is a log after all, these lines read like errors:"))
        out += _unrecognised_lines(report)
    return out


SCHEDULER_RECORD = "scheduler record"  # the source of the one line a failed job with silent logs is given
SCHEDULER_ONLY = (
    "The job exited non-zero without printing an error (a script's `exit N`, a check that failed quietly), was "
    "stopped from outside (a memory or time limit, a lost node, a cancel), or wrote its errors to a file not "
    "fetched. Check its accounting (`sacct -j ID -o JobID,State,ExitCode,MaxRSS,NodeList`), the node's "
    "`dmesg -T`, and the log files the job writes itself."
)


def scheduler_only(report: Report) -> bool:
    """A job the scheduler records as failed whose logs hold no error line: its record is all there is."""
    lines = [ln for g in report.unrecognised for ln in g.lines]
    return bool(lines) and all(ln.source.endswith(" " + SCHEDULER_RECORD) for ln in lines)


def render_lines(report: Report, width: int = 100) -> list[Line]:
    """The report for a terminal, `width` columns wide, as (style, text) lines: see render_text."""
    out: list[Line] = []
    stats = report.stats
    if report.baseline is not None and report.outcome != "diagnosed":  # no signature explains it: the diff leads
        out += [("text", line) for line in _baseline_lines(report.baseline)]
    if report.outcome == "not_a_log":
        out += _not_a_log_lines(report, width)
    elif report.outcome == "unrecognised" and scheduler_only(report):
        out.append(("unrecognised", "? Failed, says the scheduler; its logs hold no error line."))
        out += _unrecognised_lines(report)
        hint = report.unrecognised_hint
        if hint and hint.class_:
            out.append(("text", f"  Its record reads like {hint.class_} (the scheduler's word, not the logs')."))
        out += [("text", "  " + line) for line in textwrap.wrap(SCHEDULER_ONLY, max(40, width - 2))]
    elif report.outcome == "unrecognised":
        out.append(("unrecognised", "? Unrecognised failure: no signature explains these errors."))
        out.append(("text", "  First error-like lines per rank:"))
        out += _unrecognised_lines(report)
        hint = report.unrecognised_hint
        if hint:
            where = f"rank {hint.rank}" if hint.rank is not None else "a line with no rank"
            first = hint.first_error
            out.append(("text", f"  The first error is on {where}: {first.source}:{first.line}"))
            if hint.class_:
                out.append(
                    ("text", f"  It reads like a {hint.family} problem (perhaps {hint.class_}; low confidence).")
                )
        out.append(("text", "  If you know what this is, add a signature: see docs/adding-a-signature.md"))
    elif report.outcome == "healthy" and report.set_aside:
        out.append(("healthy", "✓ Healthy: nothing that fired stopped the run."))
        out.append(("text", "  Set aside:"))
        for a in report.set_aside:
            who = f"rank {a.rank}, " if a.rank is not None else ""
            out.append(("text", f"  - {a.signature} ({who}{a.source}:{a.line}): {a.why}"))
    elif report.outcome == "healthy":
        out.append(("healthy", "✓ Healthy: no failure signature fired and no error-like line was found."))
    if report.top is not None:
        out += _diagnosis_lines(report, report.top, width)
    if len(report.diagnoses) > 1:
        out += [("text", ""), ("heading", "Other failures in the same logs (later, or independent):")]
        for d in report.diagnoses[1:]:
            out.append(("text", f"  - {d.title} [{d.signature}] first at {d.first_seen.source}:{d.first_seen.line}"))
    fr = report.flight_recorder
    if fr:
        out.append(
            (
                "text",
                f"\nFlight Recorder: dumps of ranks {rank_ranges(fr.ranks_present) or 'unknown'}"
                + (f"; missing for ranks {rank_ranges(fr.ranks_missing)} ({fr.enable})" if fr.ranks_missing else ""),
            )
        )
        stuck = fr.stuck
        if stuck:
            out.append(
                (
                    "text",
                    f"  ranks {rank_ranges(stuck.waiting)} wait in collective {stuck.seq} ({stuck.op})"
                    + (f"; never joined: ranks {rank_ranges(stuck.not_joined)}" if stuck.not_joined else ""),
                )
            )
        if fr.mismatch:
            m = fr.mismatch
            if m.odd:
                out.append(
                    ("text", f"  collective {m.seq} differs on ranks {rank_ranges(m.odd)}: expected {m.expected}")
                )
            else:  # as many dumps on each side: no majority to say which is odd
                sides = "; ".join(f"rank {r}: {shape}" for r, shape in sorted(m.got.items()))
                out.append(("text", f"  collective {m.seq} differs between the dumps ({sides}; others: {m.expected})"))
    if report.baseline is not None and report.outcome == "diagnosed":  # after the diagnosis, as more evidence
        out += [("text", ""), *(("text", line) for line in _baseline_lines(report.baseline))]
    ranks = rank_ranges(stats.ranks) if stats.ranks else "none seen"
    out.append(("text", ""))
    out.append(
        (
            "dim",
            f"({stats.bytes / 1e6:.1f} MB, {stats.lines} lines, {stats.sources} source(s), ranks {ranks},"
            f" {stats.seconds:.2f}s)",
        )
    )
    out += [("dim", f"  skipped {s}") for s in stats.skipped]
    out += [("dim", f"  read {s}") for s in stats.notes]
    return out


def render_text(report: Report, width: int = 100) -> str:
    """The report for a terminal: the initiating failure, where it started and why, the fix, the evidence, how to
    confirm it; prose wrapped to `width`, commands never broken, quoted log lines cut with "…"."""
    return "\n".join(text for _, text in render_lines(report, width))


def _field(value: str) -> str:
    return f'"{value}"' if not value or re.search(r'[\s"=]', value) else value


def brief_lines(report: Report) -> list[str]:
    """One line per diagnosis, for scripts and chat: class, rank, host, where it was first seen, signature
    (`key=value` fields, quoted when they hold a space); one line with the outcome when nothing was diagnosed."""
    if not report.diagnoses:
        hint = report.unrecognised_hint
        if report.outcome == "unrecognised" and hint:
            rank = "-" if hint.rank is None else str(hint.rank)
            at = f"{hint.first_error.source}:{hint.first_error.line}"
            return [f"unrecognised rank={rank} at={_field(at)}"]
        return [report.outcome]
    out = []
    for d in report.diagnoses:
        rank = "-" if d.initiating_rank is None else str(d.initiating_rank)
        at = f"{d.first_seen.source}:{d.first_seen.line}"
        fields = f"rank={rank} host={_field(d.host or '-')} at={_field(at)} signature={d.signature}"
        out.append(f"{d.class_} {fields} severity={d.severity}")
    return out
