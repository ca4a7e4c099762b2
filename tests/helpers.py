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
