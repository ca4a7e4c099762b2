"""From events to a diagnosis: which failure started it, which rank, what is noise.

Rules, in the order they apply:
1. A `fallback` signature (the generic uncaught-exception one) yields to any
   other signature that fired within a few lines on the same rank.
2. An absence event (a save that never completed) is dropped when an explicit
   root failure follows it in the same source: that failure is why it stopped.
3. The initiating failure is the earliest root event across ranks; when none
   exists, the earliest collateral event is the diagnosis (a watchdog timeout
   with nothing before it is the finding).
4. Root events close to the first one (same rank, same burst) compete on the
   signature's priority, so a disk-full beats the checkpoint exception that
   wraps it and a specific error beats a generic one.
5. The initiating rank is none when the signature is job-wide or every rank
   failed alike; a `blame = "peer"` signature points at the rank that went
   away (the one the launcher saw killed by a signal, or the one that is silent).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ._engine import Event, ScanResult
from ._library import Library
from ._schema import Signature

FALLBACK_WINDOW = 12     # lines: a generic exception this close to a specific one is the same failure
BURST_LINES = 400
BURST_SECONDS = 60.0
MAX_EXTRA_DIAGNOSES = 4
FATAL_SIGNALS = {"-9", "-6", "-7", "-11", "137", "134", "135", "139", "SIGKILL", "SIGABRT", "SIGBUS", "SIGSEGV"}

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


@dataclass
class Finding:
    sig: Signature
    event: Event                  # the initiating event
    events: list[Event]           # every kept event of this signature
    ranks: list[int]
    count: int
    initiating_rank: int | None
    promoted: bool                # a collateral signature standing in as the diagnosis
    related: list[Event]          # other root events in the same burst
    collateral: list[dict]
    launcher: list[Event]


def fill(text: str, values: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), "unknown"), text)


def _time_key(events: list[Event]):
    single_source = len({e.source_index for e in events}) <= 1

    def key(e: Event):
        if single_source:
            return (0.0, e.source_index, e.line)
        t = e.eff_time if e.eff_time is not None else math.inf
        return (t, e.source_index, e.line)

    return key


def _same_rank(a: Event, b: Event) -> bool:
    return a.rank is None or b.rank is None or a.rank == b.rank


def _close(a: Event, b: Event) -> bool:
    if not _same_rank(a, b):
        return False
    if a.source_index == b.source_index and abs(a.line - b.line) <= BURST_LINES:
        return True
    return a.eff_time is not None and b.eff_time is not None and abs(a.eff_time - b.eff_time) <= BURST_SECONDS


def _drop_fallbacks(events: list[Event], sigs: dict[str, Signature]) -> list[Event]:
    """A fallback yields to a specific signature nearby on its rank, and to any signature on its own line."""
    specific = [e for e in events if not _is_fallback(sigs[e.sig_id])]
    out = []
    for e in events:
        if _is_fallback(sigs[e.sig_id]) and any(
                s.source_index == e.source_index and _same_rank(s, e) and (
                    s.line == e.line
                    or (sigs[s.sig_id].role != "wrapper" and abs(s.line - e.line) <= FALLBACK_WINDOW))
                for s in specific):
            continue
        out.append(e)
    return out


def _is_fallback(sig: Signature) -> bool:
    return "fallback" in sig.tags


def _killed_ranks(launcher: list[Event]) -> list[int]:
    out = []
    for e in launcher:
        code = e.values.get("exitcode", "")
        signal = e.values.get("signal", "")
        if e.rank is not None and (code in FATAL_SIGNALS or signal in FATAL_SIGNALS) and e.rank not in out:
            out.append(e.rank)
    return out


def attribute(scan: ScanResult, library: Library) -> tuple[list[Finding], list[Event]]:
    """Return the findings (initiating first) and the launcher (wrapper) events."""
    sigs = library.by_id()
    events = _drop_fallbacks(scan.events, sigs)
    launcher = [e for e in events if sigs[e.sig_id].role == "wrapper"]
    roots = [e for e in events if sigs[e.sig_id].role == "root"]
    explicit = [e for e in roots if e.kind != "absence"]
    roots = [e for e in roots if e.kind != "absence" or not any(
        r.source_index == e.source_index and r.line > e.line for r in explicit)]
    collateral = [e for e in events if sigs[e.sig_id].role == "collateral"]
    promoted = False
    if not roots:
        roots, collateral, promoted = collateral, [], True
    if not roots:
        return [], launcher

    key = _time_key(roots)
    roots.sort(key=key)
    findings: list[Finding] = []
    classes_seen: set[str] = set()
    remaining = roots
    while remaining and len(findings) <= MAX_EXTRA_DIAGNOSES:
        first = remaining[0]
        burst = [e for e in remaining if _close(e, first)]
        order = {id(e): i for i, e in enumerate(remaining)}
        # highest priority wins; among equals, the earliest
        winner = max(burst, key=lambda e: (sigs[e.sig_id].priority, -order[id(e)]))
        sig = sigs[winner.sig_id]
        related = [e for e in burst if e.sig_id != sig.id]
        findings.append(_finding(scan, sig, winner, [e for e in events if e.sig_id == sig.id], related, promoted,
                                 launcher))
        classes_seen.add(sig.cls)
        explained = {id(e) for e in burst}
        # a later failure of a class already reported is the same failure seen again
        remaining = [e for e in remaining if id(e) not in explained and sigs[e.sig_id].cls not in classes_seen]
    if findings:
        findings[0].collateral = _group_collateral(collateral, findings[0], sigs, key)
        if promoted:
            rest = [e for e in roots if e.sig_id != findings[0].sig.id]
            findings[0].collateral += _group_collateral(rest, findings[0], sigs, key)
            del findings[1:]
    return findings, launcher


def _finding(scan: ScanResult, sig: Signature, event: Event, same_sig: list[Event], related: list[Event],
             promoted: bool, launcher: list[Event]) -> Finding:
    # events are kept per (signature, rank), so every rank that fired has at least one here;
    # ranks whose events yielded to a specific signature are gone from `same_sig`
    ranks = sorted({e.rank for e in same_sig if e.rank is not None})
    count = sum(n for (sid, r), n in scan.counts.items() if sid == sig.id and (r is None or r in ranks))
    rank: int | None = event.rank
    if rank is None:
        # the first line named no rank (a kernel assert, a bare CUDA error): the same failure's
        # other lines in this burst may, when they all name the same one
        named = {e.rank for e in (*same_sig, *related) if e.rank is not None and _close(e, event)}
        if len(named) == 1:
            rank = named.pop()
        else:
            # else the launcher's summary, as evidence: exactly one worker that failed on its own (not SIGTERMed)
            failed = {e.rank for e in launcher if e.rank is not None
                      and e.values.get("exitcode", "") not in ("", "0", "-15", "143")}
            if len(failed) == 1:
                rank = failed.pop()
    if sig.scope == "job":
        rank = None
    elif sig.blame == "peer":
        killed = [r for r in _killed_ranks(launcher) if r not in ranks]
        silent = sorted(scan.ranks - set(ranks))
        if killed:
            rank = killed[0]
        elif len(silent) == 1 and ranks:
            rank = silent[0]
        else:
            rank = None
    elif rank is not None and len(ranks) >= 2 and set(ranks) >= scan.ranks:
        rank = None  # every rank failed alike: no single rank started it
    return Finding(sig, event, same_sig, ranks, count, rank, promoted, related, [], launcher)


def _group_collateral(events: list[Event], finding: Finding, sigs: dict[str, Signature], key) -> list[dict]:
    groups: dict[str, dict] = {}
    origin = finding.event.eff_time
    for e in sorted(events, key=key):
        g = groups.get(e.sig_id)
        if g is None:
            s = sigs[e.sig_id]
            g = groups[e.sig_id] = {"signature": s.id, "class": s.cls, "title": s.title, "ranks": [],
                                    "count": 0, "first_seen": {"source": e.source, "line": e.line, "text": e.text[:300]},
                                    "seconds_after": None}
            if origin is not None and e.eff_time is not None:
                g["seconds_after"] = round(max(0.0, e.eff_time - origin), 3)
        g["count"] += 1
        if e.rank is not None and e.rank not in g["ranks"]:
            g["ranks"].append(e.rank)
    for g in groups.values():
        g["ranks"].sort()
    return list(groups.values())
