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

from ._attribution import Finding, Survival, fill
from ._events import Event, ScanResult
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
    Stats,
    UnrecognisedHint,
)
from ._ranks import TEARDOWN_EXITS, RankState, build_view
from ._schema import Signature

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
    return Diagnosis(
        signature=sig.id,
        class_=sig.cls,
        title=sig.title,
        severity=sig.severity,
        role="collateral" if f.promoted else sig.role,
        initiating_rank=f.initiating_rank,
        host=e.host,
        first_seen=FirstSeen(
            source=e.source,
            line=e.line,
            time=iso(e.time if e.time is not None else e.eff_time),
            time_inferred=e.time is None and e.eff_time is not None,
            text=e.text,
        ),
        evidence=evidence,
        values=e.values,
        ranks=f.ranks,
        count=f.count,
        collateral=f.collateral,
        summary=fill(sig.summary, text_values).strip(),
        mechanism=sig.mechanism.strip(),
        root_causes=sig.root_causes,
        fix=fill(sig.fix, text_values).strip(),
        checklist=[fill(c, text_values) for c in sig.checklist],
        prevention=sig.prevention.strip(),
        verify=fill(sig.verify, text_values).strip(),
        references=sig.references,
        related=sig.related,
        attribution=Attribution.model_validate(f.attribution, from_attributes=True),
        action=cls.action if cls else "fix_and_restart",
        action_reason=cls.action_reason if cls else "",
    )


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
        kept = [
            LogLine(source=ln.source, line=ln.line, text=ln.text)
            for ln in lines
            if not went_on(ln.source, ln.line, rank)
        ]
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
        ),
        unrecognised_hint=unrecognised_hint(unrecognised),
        flight_recorder=FlightRecorder.model_validate(recorder) if recorder else None,
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
        out.append(f"    [{label}] {ln.source}:{ln.line}: {ln.text[:200]}")
    return out


def render_text(report: Report, width: int = 100) -> str:
    out: list[str] = []
    wrap = lambda s, indent="  ": textwrap.fill(s, width, initial_indent=indent, subsequent_indent=indent)  # noqa: E731
    stats = report.stats
    if report.baseline is not None and report.outcome != "diagnosed":  # no signature explains it: the diff leads
        out += _baseline_lines(report.baseline)
    if report.outcome == "unrecognised":
        out.append("? Unrecognised failure: no signature explains these errors.")
        out.append("  First error-like lines per rank:")
        for group in report.unrecognised:
            label = f"rank {group.rank}" if group.rank is not None else "no rank"
            for ln in group.lines:
                out.append(f"    [{label}] {ln.source}:{ln.line}: {ln.text[:200]}")
        hint = report.unrecognised_hint
        if hint:
            where = f"rank {hint.rank}" if hint.rank is not None else "a line with no rank"
            first = hint.first_error
            out.append(f"  The first error is on {where}: {first.source}:{first.line}")
            if hint.class_:
                out.append(f"  It reads like a {hint.family} problem (perhaps {hint.class_}; low confidence).")
        out.append("  If you know what this is, add a signature: see docs/adding-a-signature.md")
    elif report.outcome == "healthy":
        out.append("✓ Healthy: no failure signature fired and no error-like line was found.")
    for n, d in enumerate(report.diagnoses):
        if n == 1:
            out.append("")
            out.append("Other failures in the same logs (later, or independent):")
        if n >= 1:
            out.append(f"  - {d.title} [{d.signature}] first at {d.first_seen.source}:{d.first_seen.line}")
            continue
        rank = d.initiating_rank
        out.append(f"✖ {d.title}  [{d.severity}]  {d.signature} ({d.class_})")
        out.append(wrap(d.summary))
        fs = d.first_seen
        where = f"rank {rank}" if rank is not None else ("all ranks alike" if len(d.ranks) > 1 else "no single rank")
        host = f" on {d.host}" if d.host else ""
        when = f" at {fs.time}" if fs.time else ""
        out.append(f"  Started: {where}{host}, {fs.source}:{fs.line}{when}")
        a = d.attribution
        why = "; ".join(r.text for r in a.reasons[:2])
        out.append(wrap(f"Why: {why} [{a.rule}, {a.confidence} confidence]", "    "))
        out.append(wrap(considered_line(report), "    "))
        if d.action != "none":
            label = {
                "restart": "yes, requeue it",
                "drain_and_restart": "drain the node first, then requeue",
                "fix_and_restart": "not yet: fix first",
            }[d.action]
            out.append(wrap(f"Can I just requeue? {label} ({d.action_reason})", "  "))
        out.append("  Evidence:")
        for ev in d.evidence:
            tag = {"initiating": ">", "same_failure": "=", "related": "~", "launcher": "L"}.get(ev.kind, " ")
            r = f"rank {ev.rank}" if ev.rank is not None else "-"
            for ctx in (ev.context or [])[-6:]:
                out.append(f"      {ctx[:width]}")
            out.append(f"    {tag} [{r}] {ev.source}:{ev.line}: {ev.text[:200]}")
            for ctx in ev.context_after or []:
                out.append(f"      {ctx[:width]}")
        if d.collateral:
            out.append("  Knock-on failures (collateral, not the cause):")
            for c in d.collateral:
                out.append(f"    - {collateral_line(c)}")
        out.append("  Fix:")
        out.append(wrap(d.fix, "    "))
        out.append("  Confirm:")
        for item in d.checklist:
            out.append(textwrap.fill(item, width, initial_indent="    [ ] ", subsequent_indent="        "))
        out.append(f"  Verify: {d.verify}")
        if d.references:
            out.append(f"  References: {' '.join(d.references[:3])}")
    fr = report.flight_recorder
    if fr:
        out.append(
            f"\nFlight Recorder: dumps of ranks {rank_ranges(fr.ranks_present) or 'unknown'}"
            + (f"; missing for ranks {rank_ranges(fr.ranks_missing)} ({fr.enable})" if fr.ranks_missing else "")
        )
        stuck = fr.stuck
        if stuck:
            out.append(
                f"  ranks {rank_ranges(stuck.waiting)} wait in collective {stuck.seq} ({stuck.op})"
                + (f"; never joined: ranks {rank_ranges(stuck.not_joined)}" if stuck.not_joined else "")
            )
        if fr.mismatch:
            m = fr.mismatch
            out.append(f"  collective {m.seq} differs on ranks {rank_ranges(m.odd)}: expected {m.expected}")
    if report.baseline is not None and report.outcome == "diagnosed":  # after the diagnosis, as more evidence
        out += ["", *_baseline_lines(report.baseline)]
    skipped = "".join(f"\n  skipped {s}" for s in stats.skipped)
    ranks = rank_ranges(stats.ranks) if stats.ranks else "none seen"
    out.append(
        f"\n({stats.bytes / 1e6:.1f} MB, {stats.lines} lines, {stats.sources} source(s), ranks {ranks},"
        f" {stats.seconds:.2f}s){skipped}"
    )
    return "\n".join(out)
