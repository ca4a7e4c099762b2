"""The shared matcher: failure signatures over training logs.

Pure: no Slack, no network. The bot and the CLI call `diagnose`.
"""

from __future__ import annotations

import time
from typing import Callable, Iterable

from ._attribution import attribute
from ._cache import cached_matcher
from ._engine import Matcher, ScanResult
from ._library import LIBRARY_DIR, Library, SignatureFileError, default_library, load_library, load_signature
from ._report import build_report, collateral_line, render_text
from ._schema import Signature
from ._sources import Budget, InputError, Source, open_path, open_sources, source_from_bytes

__all__ = [
    "Budget", "InputError", "LIBRARY_DIR", "cached_matcher", "Library", "Matcher", "ScanResult", "Signature", "SignatureFileError", "Source",
    "collateral_line", "default_library", "diagnose", "diagnose_sources", "load_library", "load_signature",
    "open_path", "open_sources", "render_text", "default_matcher", "source_from_bytes",
]

_matcher: Matcher | None = None


def default_matcher() -> Matcher:
    """The bundled library, compiled (from the cache when it is current)."""
    global _matcher
    if _matcher is None:
        _matcher = cached_matcher([LIBRARY_DIR])
    return _matcher


def diagnose_sources(sources: Iterable[Source], matcher: Matcher | None = None,
                     progress: Callable[[int], None] | None = None) -> dict:
    """Scan the sources as one job and return the report (the JSON contract)."""
    matcher = matcher or default_matcher()
    started = time.perf_counter()
    scan = matcher.scan(sources, progress)
    if not scan.sources and scan.skipped:
        raise InputError("; ".join(scan.skipped))
    findings, _ = attribute(scan, matcher.library)
    return build_report(findings, scan, time.perf_counter() - started, matcher.library.taxonomy)


def diagnose(inputs: list[str], matcher: Matcher | None = None,
             progress: Callable[[int], None] | None = None, budget: Budget | None = None) -> dict:
    """Diagnose paths (files, directories, archives, or '-' for stdin) as one job."""
    return diagnose_sources(open_sources(inputs, budget), matcher, progress)
