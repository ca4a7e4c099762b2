"""The library compiled for scanning: the Hyperscan literal database, lazily compiled RE2 patterns, per-signature runtime."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import repeat

import hyperscan
from re2 import _re2

from ._context import ZERO_DIGITS
from ._flood import digit_blind
from ._schema import Pattern, Signature, compile_regex

_UNANCHORED = _re2.RE2.Anchor.UNANCHORED


class _Lazy:
    """An RE2 regex compiled on first use: a scan only ever touches the few patterns its log contains.

    Picklable (the compiled object is dropped), so a compiled Matcher can be cached."""

    __slots__ = ("source", "caseless", "blind", "_compiled", "_names")

    def __init__(self, source: str, caseless: bool):
        self.source, self.caseless = source, caseless
        self._compiled = None
        self._names: list[tuple[str, int]] = []  # (group name, index) of the compiled regex
        self.blind = digit_blind(source)

    def _regex(self):
        if self._compiled is None:
            compiled = compile_regex(self.source, self.caseless)
            self._names = list(compiled.groupindex.items())  # before _compiled: another thread may be reading
            self._compiled = compiled
        return self._compiled

    def search(self, text: str):
        return self._regex().search(text)

    def hit(self, subject: bytes) -> bool:
        """Whether it matches the UTF-8 text `subject`. This calls RE2 itself (google-re2's _regexp): its search()
        would also build a match object and map offsets back to a str, at two to five times the cost."""
        return self._regex()._regexp.Match(_UNANCHORED, subject, 0, len(subject))[0][0] >= 0

    def hits(self, subjects: list[bytes]) -> list[bool]:
        """hit() of each subject, with no Python frame per subject."""
        spans = map(self._regex()._regexp.Match, repeat(_UNANCHORED), subjects, repeat(0), map(len, subjects))
        return [found[0][0] >= 0 for found in spans]

    def groups(self, text: str) -> dict[str, str] | None:
        """search(text).groupdict() less its None values, or None: read from RE2's spans, without a match object."""
        subject = text.encode()
        spans = self._regex()._regexp.Match(_UNANCHORED, subject, 0, len(subject))
        if spans[0][0] < 0:
            return None
        return {name: subject[spans[i][0] : spans[i][1]].decode() for name, i in self._names if spans[i][0] >= 0}

    def __getstate__(self):
        return self.source, self.caseless

    def __setstate__(self, state):
        _Lazy.__init__(self, *state)


@dataclass
class _Compiled:
    kind: str  # "match", "start", "errorlike"
    regex: _Lazy
    lines_before: int = 0
    sig: Signature | None = None
    pattern_index: int = 0
    names_rank: bool = False  # a `rank` group overrides the rank of the line's prefix
    plain: bool = False  # a match of a signature with no count, all or absence rule: kept or counted


class _Database:
    """A Hyperscan literal database that any number of threads may scan at once.

    A Hyperscan scratch space may serve one scan at a time, so each thread gets its own
    (allocated on its first scan); the compiled database itself is read-only and shared.
    Survives pickling (serialized with hs_serialize_database)."""

    def __init__(self, db: hyperscan.Database):
        self.db = db
        self._local = threading.local()

    def scan(self, data, match_event_handler) -> None:
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = hyperscan.Scratch(self.db)
        self.db.scan(data, match_event_handler=match_event_handler, scratch=scratch)

    def __getstate__(self):
        return hyperscan.dumpb(self.db)

    def __setstate__(self, state):
        _Database.__init__(self, hyperscan.loadb(state, mode=hyperscan.HS_MODE_BLOCK))


class _SigRuntime:
    """Per-signature compiled state."""

    def __init__(self, sig: Signature):
        self.sig = sig
        self.exclude = [_Lazy(e.regex, e.caseless) for e in sig.exclude]
        self.patterns = [_Lazy(p.regex, p.caseless) for p in sig.patterns if not p.lines_before]
        self.progress_db: _Database | None = None
        self.progress: dict[int, list[_Compiled]] = {}
        if sig.absence is not None:
            self.progress_db, self.progress, _ = _build_db(
                [("match", p, sig, i) for i, p in enumerate(sig.absence.complete + sig.absence.progress)]
            )

    def excluded(self, subject: bytes) -> bool:
        return any(r.hit(subject) for r in self.exclude)


def _build_db(
    entries: Iterable[tuple[str, Pattern, Signature | None, int]],
) -> tuple[_Database, dict[int, list[_Compiled]], dict[tuple[bytes, bool], int]]:
    """(database, the patterns of each literal id, the literal ids)"""
    literal_ids: dict[tuple[bytes, bool], int] = {}
    by_literal: dict[int, list[_Compiled]] = {}
    for kind, pat, sig, index in entries:
        plain = kind == "match" and sig is not None and sig.count is None and sig.condition == "any"
        compiled = _Compiled(
            kind, _Lazy(pat.regex, pat.caseless), pat.lines_before, sig, index, "(?P<rank>" in pat.regex, plain
        )
        for literal in pat.all_literals:
            lid = literal_ids.setdefault((literal.encode(), pat.caseless), len(literal_ids))
            by_literal.setdefault(lid, []).append(compiled)
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    exprs = [lit for lit, _ in literal_ids]
    flags = [hyperscan.HS_FLAG_CASELESS if caseless else 0 for _, caseless in literal_ids]
    db.compile(expressions=exprs, ids=list(range(len(exprs))), elements=len(exprs), flags=flags, literal=True)
    return _Database(db), by_literal, literal_ids


class _ShapeScanner:
    """Finds the library's literals in a line shape (its digits zeroed) by looking for them with their digits zeroed."""

    def __init__(self, literal_ids: dict[tuple[bytes, bool], int]):
        zeroed: dict[tuple[bytes, bool], list[int]] = {}
        for (literal, caseless), lid in literal_ids.items():
            zeroed.setdefault((literal.translate(ZERO_DIGITS), caseless), []).append(lid)
        self.lids = list(zeroed.values())
        self.digits = [literal.translate(None, b"0123456789") != literal for literal, _ in zeroed]
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        db.compile(
            expressions=[lit for lit, _ in zeroed],
            ids=list(range(len(zeroed))),
            elements=len(zeroed),
            flags=[hyperscan.HS_FLAG_CASELESS if caseless else 0 for _, caseless in zeroed],
            literal=True,
        )
        self.db = _Database(db)

    def __call__(self, shape: bytes) -> list[int] | None:
        """The literal ids the lines of this shape hold; None when a literal with digits may be among them."""
        found: list[int] = []
        self.db.scan(shape, lambda zid, _s, _e, _f, _c: found.append(zid))
        if any(self.digits[zid] for zid in found):
            return None
        return list(dict.fromkeys(lid for zid in found for lid in self.lids[zid]))


# warnings, deprecations and the like: not error-like whatever words they hold
# (and a metric named "error" with its value, after the metric's own name, in lower case: "Top1 error: 100.0000",
# "val error=0.53", "train_error: 0.125"; not "ERROR: 12.5 GiB requested", not "fatal error: 10.0.0.12:29500")
_BENIGN = _Lazy(
    r"(?i)warn(?:ing)?\b|\bwarnings?\.warn|deprecat|error_file|error_file:|errors\.html|0 errors?\b"
    r"|(?-i:\b(?:[Tt]op-?[0-9]+|[a-z]+_|val|train|test|eval|valid|mean|avg|word|char|abs|rel|class)[ _]?error"
    r"(?: rate)?(?:: |=) ?-?[0-9]+\.[0-9]+(?:[ ,;|%)}]|$))",
    False,
)
