"""The diagnosis as data (the JSON contract) and as text for a terminal."""

from __future__ import annotations

import re
import textwrap

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


def build_report(
    findings: list[Finding],
    scan: ScanResult,
    seconds: float,
    taxonomy: dict | None = None,
    recorder: dict | None = None,
) -> Report:
    unrecognised = [] if findings else _unrecognised(scan)
    return Report(
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
    )


def _ranks(ranks: list[int]) -> str:
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
    who = f"{len(ranks)} rank{'s' if len(ranks) != 1 else ''} ({_ranks(ranks)})" if ranks else "the job"
    return f"{who}: {c.title} [{c.signature}], {c.count}x{_when(c.seconds_after)}"


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
            f"\nFlight Recorder: dumps of ranks {_ranks(fr.ranks_present) or 'unknown'}"
            + (f"; missing for ranks {_ranks(fr.ranks_missing)} ({fr.enable})" if fr.ranks_missing else "")
        )
        stuck = fr.stuck
        if stuck:
            out.append(
                f"  ranks {_ranks(stuck.waiting)} wait in collective {stuck.seq} ({stuck.op})"
                + (f"; never joined: ranks {_ranks(stuck.not_joined)}" if stuck.not_joined else "")
            )
        if fr.mismatch:
            m = fr.mismatch
            out.append(f"  collective {m.seq} differs on ranks {_ranks(m.odd)}: expected {m.expected}")
    if report.baseline is not None and report.outcome == "diagnosed":  # after the diagnosis, as more evidence
        out += ["", *_baseline_lines(report.baseline)]
    skipped = "".join(f"\n  skipped {s}" for s in stats.skipped)
    ranks = _ranks(stats.ranks) if stats.ranks else "none seen"
    out.append(
        f"\n({stats.bytes / 1e6:.1f} MB, {stats.lines} lines, {stats.sources} source(s), ranks {ranks},"
        f" {stats.seconds:.2f}s){skipped}"
    )
    return "\n".join(out)
