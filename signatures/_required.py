"""Literals a regex cannot match without: a substring test (C speed) that rules a text out before RE2 reads it.

`required(source)` parses the regex with Python's own parser (the patterns are RE2, whose syntax the library's
regexes share with Python's for this purpose) and returns byte strings of which every match contains at least
one, or None when it cannot tell (case-insensitive, or nothing of at least MIN_CHARS is mandatory). A wrong
None only costs speed; the answer is never too narrow: only literal runs that every match must contain count,
an alternation counts when each branch has one, an optional or repeated-zero part never does.
"""

from __future__ import annotations

import re
import re._constants as _c
import re._parser as _p
from functools import lru_cache

MIN_CHARS = 3


def _best(options: list[list[bytes]]) -> list[bytes] | None:
    """Of several sets (each one required), the most selective: the one whose shortest member is longest."""
    options = [o for o in options if o]
    return max(options, key=lambda o: (min(map(len, o)), -len(o))) if options else None


def _seq(items) -> list[bytes] | None:
    options: list[list[bytes]] = []
    run: list[int] = []

    def flush() -> None:
        if len(run) >= MIN_CHARS:
            options.append(["".join(map(chr, run)).encode("utf-8")])
        run.clear()

    for op, av in items:
        if op is _c.LITERAL:
            run.append(av)
            continue
        if op is _c.AT:
            continue  # an anchor or a word boundary takes no character: the run around it goes on
        flush()
        if op is _c.SUBPATTERN:
            inner = None if av[1] & re.IGNORECASE else _seq(av[3])
            if inner:
                options.append(inner)
        elif op is _c.BRANCH:
            alternatives = [_seq(branch) for branch in av[1]]
            if all(alternatives):
                options.append([lit for alt in alternatives for lit in alt or []])
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and av[0] >= 1:
            inner = _seq(av[2])
            if inner:
                options.append(inner)
    flush()
    return _best(options)


@lru_cache(maxsize=1024)
def required(source: str, caseless: bool = False) -> tuple[bytes, ...] | None:
    if caseless:
        return None
    try:
        parsed = _p.parse(source)
    except (re.error, OverflowError, RecursionError):
        return None
    if parsed.state.flags & re.IGNORECASE:
        return None
    found = _seq(list(parsed))
    return tuple(found) if found else None
