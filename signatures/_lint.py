"""Policy checks over the whole library, beyond what the schema can say alone."""

from __future__ import annotations

import re

from ._library import Library
from ._schema import Signature
from ._stall import VALUES as STALL_VALUES
from ._template import PLACEHOLDER
from ._trend import VALUES as TREND_VALUES

_GROUP = re.compile(r"\(\?P<([a-z_][a-z0-9_]*)>")
BUILTIN_VALUES = {"count", "status", "host", "rank"}
SLACK_HEADER_LIMIT = 150
FLIGHT_VALUES = {"seq", "op", "waiting", "newest"}  # what _attribution._never_joined reads off the dumps


def _groups(sig: Signature) -> set[str]:
    pats = list(sig.patterns)
    if sig.absence:
        pats += sig.absence.start
    groups = {g for p in pats for g in _GROUP.findall(p.regex)} | BUILTIN_VALUES
    if sig.made_by in ("stalled_until_limit", "stalled_live"):
        groups |= STALL_VALUES
    if sig.made_by == "flight_recorder":
        groups |= FLIGHT_VALUES
    return groups | TREND_VALUES if sig.trend else groups


def lint_signature(sig: Signature, path: str) -> list[str]:
    problems = []
    groups = _groups(sig)
    for field in ("summary", "fix", "verify"):
        for name in PLACEHOLDER.findall(getattr(sig, field)):
            if name not in groups:
                problems.append(f"{path}: {field} uses {{{name}}} but no pattern extracts it")
    for name in (n for c in sig.checklist for n in PLACEHOLDER.findall(c)):
        if name not in groups:
            problems.append(f"{path}: checklist uses {{{name}}} but no pattern extracts it")
    for i, case in enumerate(sig.cases):
        if case.kind == "match" and not case.note:
            problems.append(f"{path}: case {i}: a match case needs a note saying where the format comes from")
        unknown = set(case.values) - groups
        if unknown:
            problems.append(f"{path}: case {i}: values {sorted(unknown)} are not extracted by any pattern")
    if len(sig.title) > SLACK_HEADER_LIMIT:
        problems.append(f"{path}: title longer than {SLACK_HEADER_LIMIT} characters (Slack header limit)")
    if len(set(sig.references)) != len(sig.references):
        problems.append(f"{path}: duplicate references")
    if sig.id in sig.related:
        problems.append(f"{path}: related lists the signature itself")
    return problems


def lint_library(lib: Library) -> list[str]:
    problems = []
    ids = {sig.id for sig in lib.signatures}
    for sig in lib.signatures:
        path = str(lib.paths.get(sig.id, sig.id))
        problems += lint_signature(sig, path)
        for base in sig.refines.bases if sig.refines is not None else ():
            if base not in ids:
                problems.append(f"{path}: refines {base!r}, which is not in the library")
    return problems


def coverage_markdown(lib: Library) -> str:
    """The class -> signatures table for docs/coverage.md (regenerate with `denpex signatures coverage`)."""
    by_class: dict[str, list[Signature]] = {key: [] for key in lib.taxonomy}
    for sig in lib.signatures:
        by_class[sig.cls].append(sig)
    lines = [
        "# Signature coverage",
        "",
        "Generated from the library by `denpex signatures coverage > docs/coverage.md`;",
        "a test fails when this file and the library disagree.",
        "",
        f"{len(lib.signatures)} signatures over {sum(1 for v in by_class.values() if v)} of {len(lib.taxonomy)} classes.",
        "",
        "| class | family | signatures | ids (role) |",
        "|---|---|---:|---|",
    ]
    for key, cls in lib.taxonomy.items():
        sigs = sorted(by_class[key], key=lambda s: s.id)
        ids = ", ".join(f"`{s.id}` ({s.role})" for s in sigs) or ("—" if key == "healthy" else "**none**")
        lines.append(f"| `{key}` | {cls.family} | {len(sigs)} | {ids} |")
    return "\n".join(lines) + "\n"
