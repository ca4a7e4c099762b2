"""Events named more precisely from their traceback (see _schema.Refines): after the scan, before attribution."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ._compiled import _Lazy
from ._events import Event
from ._schema import Signature


@lru_cache(maxsize=512)
def _regex(source: str) -> _Lazy:
    """One compiled regex per source text: refine runs for every report and every signature case."""
    return _Lazy(source, False)


def refine(events: list[Event], sigs: dict[str, Signature]) -> list[Event]:
    """`events`, each event of a refined signature whose traceback matches a refinement turned into an event
    of the refining signature (the first in priority order; the refining signature's excludes still veto)."""
    by_base: dict[str, list[tuple[Signature, str]]] = {}
    for s in sorted(sigs.values(), key=lambda s: -s.priority):
        if s.refines is not None:
            for base in s.refines.bases:
                by_base.setdefault(base, []).append((s, s.refines.context))
    if not by_base:
        return events
    out = []
    for e in events:
        for s, context in by_base.get(e.sig_id, ()):
            # a thread's name is part of its traceback's header: "Exception in thread prefetch:"
            header = [f"Exception in thread {e.values['thread']}:"] if e.values.get("thread") else []
            if _regex(context).search("\n".join([*header, *e.frames, *e.context, e.text])) and not any(
                _regex(x.regex).search(e.text) for x in s.exclude
            ):
                e = dataclasses.replace(e, sig_id=s.id, values=dict(e.values))
                break
        out.append(e)
    return out
