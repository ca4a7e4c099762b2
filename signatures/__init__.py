"""The shared matcher: failure signatures over training logs.

Pure: no Slack, no network. The bot and the CLI call `diagnose`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from . import _baseline, _flight, _kind
from ._attribution import apply_flight_recorder, attribute
from ._cache import cached_matcher
from ._cases import CaseResult, case_report, run_cases
from ._draft import Draft, DraftError, draft_signature
from ._engine import ERRORLIKE, Matcher
from ._events import ScanResult
from ._follow import Diverged, TrendFollower
from ._library import LIBRARY_DIR, Library, SignatureFileError, default_library, load_library, load_signature
from ._lines import COMPLETION_MARKERS
from ._lint import coverage_markdown, lint_library
from ._models import (
    Attribution,
    BaselineDiff,
    Collateral,
    Diagnosis,
    Evidence,
    FirstSeen,
    FlightRecorder,
    JobInfo,
    JobLog,
    LogLine,
    Mismatch,
    NewLine,
    NotALog,
    RankLines,
    Reason,
    Report,
    Stats,
    Stuck,
    UnrecognisedHint,
)
from ._report import (
    SCHEDULER_ONLY,
    SCHEDULER_RECORD,
    ScannedReport,
    Timeline,
    TimelineMark,
    TimelineRow,
    brief_lines,
    build_report,
    collateral_line,
    considered_line,
    rank_ranges,
    render_lines,
    render_text,
    scheduler_only,
    timeline_caption,
    to_ascii,
)
from ._schema import Signature
from ._sources import Budget, InputError, Source, open_path, open_sources, source_from_bytes

__all__ = [
    "SCHEDULER_ONLY",
    "SCHEDULER_RECORD",
    "scheduler_only",
    "COMPLETION_MARKERS",
    "Budget",
    "InputError",
    "LIBRARY_DIR",
    "cached_matcher",
    "Library",
    "Matcher",
    "ScanResult",
    "TrendFollower",
    "Diverged",
    "Signature",
    "SignatureFileError",
    "Source",
    "collateral_line",
    "considered_line",
    "default_library",
    "compare_with_baseline",
    "compare_sources_with_baseline",
    "diagnose",
    "diagnose_sources",
    "draft_signature",
    "Draft",
    "DraftError",
    "load_library",
    "load_signature",
    "open_path",
    "open_sources",
    "render_text",
    "render_lines",
    "brief_lines",
    "to_ascii",
    "ScannedReport",
    "Timeline",
    "TimelineMark",
    "TimelineRow",
    "timeline_caption",
    "rank_ranges",
    "default_matcher",
    "source_from_bytes",
    "CaseResult",
    "ERRORLIKE",
    "case_report",
    "coverage_markdown",
    "lint_library",
    "run_cases",
    # the report (the JSON contract) as frozen models
    "Attribution",
    "BaselineDiff",
    "Collateral",
    "Diagnosis",
    "Evidence",
    "FirstSeen",
    "FlightRecorder",
    "JobInfo",
    "JobLog",
    "LogLine",
    "Mismatch",
    "NewLine",
    "NotALog",
    "RankLines",
    "Reason",
    "Report",
    "Stats",
    "Stuck",
    "UnrecognisedHint",
]

_matcher: Matcher | None = None
_R = TypeVar("_R", bound=Report)  # a report, and its copies: a ScannedReport's keep its timeline


def default_matcher() -> Matcher:
    """The bundled library, compiled (from the cache when it is current)."""
    global _matcher
    if _matcher is None:
        _matcher = cached_matcher([LIBRARY_DIR])
    return _matcher


def diagnose_sources(
    sources: Iterable[Source], matcher: Matcher | None = None, progress: Callable[[int], None] | None = None
) -> ScannedReport:
    """Scan the sources as one job and return the report (the JSON contract, and the job's timeline)."""
    matcher = matcher or default_matcher()
    started = time.perf_counter()
    dumps: list[_flight.Dump] = []
    refused: list[str] = []
    evidence = _kind.LogEvidence()  # is it a training log at all? (judged from each source's head, as it opens)

    def logs_only():
        """Flight Recorder dumps are read aside (safely: no code runs); everything else is scanned, torchelastic's
        error files last (small, read whole): a worker's own log next to one says which global rank it was."""
        error_files = []
        for source in sources:
            if _flight.is_error_file(source.head):
                error_files.append(_flight.error_file_source(source))
                continue
            if not _flight.is_dump(source.head):
                evidence.feed(source.head)
                yield source
                continue
            try:
                dumps.append(_flight.read_dump(source.name, source.head + source.stream.read(_flight.MAX_DUMP_BYTES)))
            except InputError as exc:
                refused.append(str(exc))
        yield from error_files

    scan = matcher.scan(logs_only(), progress)
    scan.skipped += refused
    if not scan.sources and not dumps and scan.skipped:
        raise InputError("; ".join(scan.skipped))
    findings, scan = attribute(scan, matcher.library)  # the scan as attribution read it (ranks recovered)
    recorder = _flight.analyze(dumps, scan.world_size) if dumps else None
    if recorder and findings:
        findings[0] = apply_flight_recorder(findings[0], recorder, matcher.library.by_id())
    library = matcher.library
    report = build_report(findings, scan, time.perf_counter() - started, library.taxonomy, recorder, library.by_id())
    not_a_log = _kind.judge(report, scan, evidence)
    return report if not_a_log is None else report.model_copy(update={"not_a_log": not_a_log})


def compare_with_baseline(report: _R, good: list[str], failed: list[str], budget: Budget | None = None) -> _R:
    """`report` (of the logs `failed`) with what the failed run printed that the good run `good` never did."""
    return compare_sources_with_baseline(report, open_sources(good, budget), open_sources(failed, budget))


def compare_sources_with_baseline(report: _R, good: Iterable[Source], failed: Iterable[Source]) -> _R:
    """compare_with_baseline over sources already opened (a job's fetched logs, named as the job names them)."""
    base = _baseline.Baseline(good)
    diff = base.compare(failed)
    return report.model_copy(
        update={
            "baseline": BaselineDiff(
                good=diff.good,
                good_lines=diff.good_lines,
                new=[NewLine(**vars(n)) for n in diff.new],
                new_total=diff.new_total,
            )
        }
    )


def diagnose(
    inputs: list[str],
    matcher: Matcher | None = None,
    progress: Callable[[int], None] | None = None,
    budget: Budget | None = None,
) -> ScannedReport:
    """Diagnose paths (files, directories, archives, or '-' for stdin) as one job."""
    return diagnose_sources(open_sources(inputs, budget), matcher, progress)
