"""Small helpers shared by the tests."""

import textwrap

from signatures import Report, diagnose_sources
from signatures._sources import source_from_bytes


def log(text: str) -> bytes:
    return textwrap.dedent(text).strip("\n").encode() + b"\n"


def run(matcher, *logs: tuple[str, str | bytes]) -> Report:
    """Diagnose in-memory logs given as (name, text) pairs, as one job."""
    sources = [source_from_bytes(name, body if isinstance(body, bytes) else log(body)) for name, body in logs]
    return diagnose_sources(sources, matcher)


def top_diagnosis(paths, matcher):
    """The first diagnosis of the files or directories `paths` diagnosed as one job (there must be one)."""
    import signatures

    report = signatures.diagnose([str(p) for p in paths], matcher=matcher)
    assert report.diagnoses, report.outcome
    return report.diagnoses[0]


def top(report: Report) -> tuple:
    """(signature, class, initiating rank) of a report's first diagnosis, or (its outcome, None, None)."""
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_, d.initiating_rank) if d else (report.outcome, None, None)


def top_of_text(matcher, text: str, name: str = "console.log") -> tuple:
    """top() of one in-memory log, taken as it is (no dedent)."""
    return top(diagnose_sources([source_from_bytes(name, text.encode())], matcher))
