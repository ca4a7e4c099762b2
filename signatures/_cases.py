"""Running a signature's proof: its match and near-miss cases."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from ._attribution import _drop_fallbacks, attribute
from ._engine import Matcher
from ._library import Library
from ._refine import refine
from ._schema import Case, Signature
from ._sources import Source, source_from_bytes


@dataclass
class CaseResult:
    sig_id: str
    index: int
    case: Case
    ok: bool
    problem: str = ""
    others: tuple[str, ...] = ()  # other signatures that fired on a match case

    @property
    def expected_failure(self) -> bool:
        return bool(self.case.todo)


def _text(log: str) -> bytes:
    return textwrap.dedent(log).strip("\n").encode() + b"\n"


def case_log(case: Case) -> bytes:
    """The case's text (a files case's files one after the other, for checks that read text only)."""
    return _text(case.log) if case.log.strip() else b"".join(_text(text) for text in case.files.values())


def case_sources(case: Case, name: str) -> list[Source]:
    """What the case hands the matcher: one source called `name`, or each of its files under its own path."""
    if case.files:
        return [source_from_bytes(path, _text(text)) for path, text in case.files.items()]
    return [source_from_bytes(name, case_log(case))]


def run_case(matcher: Matcher, sig: Signature, index: int, case: Case) -> CaseResult:
    if sig.made_by == "flight_recorder":  # made from the dumps beside the logs: the whole pipeline reads them
        return _run_dumps_case(matcher, sig, index, case)
    scan = matcher.scan(case_sources(case, f"{sig.id}#{index}"))
    if sig.made_by is not None:
        return _run_made_case(matcher, sig, index, case, scan)
    events = refine(scan.events, matcher.library.by_id())
    mine = [e for e in events if e.sig_id == sig.id]
    # a fallback that yields to this signature on the same lines is not a conflict
    kept = _drop_fallbacks(events, matcher.library.by_id())
    others = tuple(sorted({e.sig_id for e in kept if e.sig_id != sig.id}))
    if case.kind == "near_miss":
        if mine:
            return CaseResult(sig.id, index, case, False, f"near miss fired on line {mine[0].line}: {mine[0].text!r}")
        return CaseResult(sig.id, index, case, True)
    if not mine:
        return CaseResult(sig.id, index, case, False, "did not fire", others)
    event = mine[0]
    wrong = {k: (v, event.values.get(k)) for k, v in case.values.items() if event.values.get(k) != v}
    if wrong:
        detail = ", ".join(f"{k}: expected {exp!r}, got {got!r}" for k, (exp, got) in wrong.items())
        return CaseResult(sig.id, index, case, False, f"extracted values differ: {detail}", others)
    if case.rank is not None and event.rank != case.rank:
        return CaseResult(sig.id, index, case, False, f"rank: expected {case.rank}, got {event.rank}", others)
    return CaseResult(sig.id, index, case, True, "", others)


def _run_made_case(matcher: Matcher, sig: Signature, index: int, case: Case, scan) -> CaseResult:
    """A case of a signature an attribution rule makes: the whole log is diagnosed; a match case's diagnosis
    is this signature (with the case's rank), a near miss's is not."""
    findings, _ = attribute(scan, matcher.library)
    top = findings[0] if findings else None
    mine = top is not None and top.sig.id == sig.id
    if case.kind == "near_miss":
        return CaseResult(sig.id, index, case, not mine, f"near miss diagnosed as {sig.id}" if mine else "")
    if not mine:
        got = top.sig.id if top is not None else "no diagnosis"
        return CaseResult(sig.id, index, case, False, f"diagnosed as {got}")
    assert top is not None
    if case.rank is not None and top.initiating_rank != case.rank:
        return CaseResult(sig.id, index, case, False, f"rank: expected {case.rank}, got {top.initiating_rank}")
    return CaseResult(sig.id, index, case, True)


def _run_dumps_case(matcher: Matcher, sig: Signature, index: int, case: Case) -> CaseResult:
    """A case of the signature the Flight Recorder's dumps make (its files: logs and JSON dumps): the files are
    diagnosed as a job; a match case's diagnosis is this signature (with the case's rank), a near miss's is not."""
    from . import diagnose_sources  # the package's entry point, which reads the dumps aside

    report = diagnose_sources(case_sources(case, f"{sig.id}#{index}"), matcher)
    top = report.diagnoses[0] if report.diagnoses else None
    mine = top is not None and top.signature == sig.id
    if case.kind == "near_miss":
        return CaseResult(sig.id, index, case, not mine, f"near miss diagnosed as {sig.id}" if mine else "")
    if top is None or not mine:
        return CaseResult(sig.id, index, case, False, f"diagnosed as {top.signature if top else 'nothing'}")
    if case.rank is not None and top.initiating_rank != case.rank:
        return CaseResult(sig.id, index, case, False, f"rank: expected {case.rank}, got {top.initiating_rank}")
    return CaseResult(sig.id, index, case, True)


def run_cases(library: Library, ids: list[str] | None = None, matcher: Matcher | None = None) -> list[CaseResult]:
    matcher = matcher or Matcher(library)
    results = []
    for sig in library.signatures:
        if ids and sig.id not in ids:
            continue
        for index, case in enumerate(sig.cases):
            results.append(run_case(matcher, sig, index, case))
    return results


def case_report(results: list[CaseResult], verbose: bool = False) -> tuple[list[str], bool]:
    """The lines `signatures test` prints (failures, todo cases now passing, every case when verbose, and a
    summary), and whether the run passed: no failure and no todo case left marked while it passes."""
    failed = [r for r in results if not r.ok and not r.expected_failure]
    fixed = [r for r in results if r.ok and r.expected_failure]
    lines = []
    for r in results:
        if verbose or (not r.ok and not r.expected_failure) or (r.ok and r.expected_failure):
            status = "ok" if r.ok else ("todo" if r.expected_failure else "FAIL")
            if r.ok and r.expected_failure:
                status = "FIXED (remove todo)"
            also = f"  [also fired: {', '.join(r.others)}]" if r.others else ""
            lines.append(f"{status:5} {r.sig_id} case {r.index} ({r.case.kind}): {r.problem or r.case.note}{also}")
    todo = sum(1 for r in results if r.expected_failure and not r.ok)
    lines.append(
        f"{len(results)} cases: {len(results) - len(failed) - todo - len(fixed)} passed, {len(failed)} failed, "
        f"{todo} todo, {len(fixed)} todo now passing"
    )
    return lines, not (failed or fixed)
