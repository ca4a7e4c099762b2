"""Events named more precisely from their traceback (see _schema.Refines): after the scan, before attribution."""

from __future__ import annotations

import dataclasses

from ._compiled import _Lazy
from ._events import Event
from ._schema import Signature


def refine(events: list[Event], sigs: dict[str, Signature]) -> list[Event]:
    """`events`, each event of a refined signature whose traceback matches a refinement turned into an event
    of the refining signature (the first in priority order)."""
    by_base: dict[str, list[tuple[Signature, _Lazy]]] = {}
    excludes = {s.id: [_Lazy(x.regex, False) for x in s.exclude] for s in sigs.values() if s.refines is not None}

    def excluded(s: Signature, text: str) -> bool:
        return any(x.search(text) for x in excludes[s.id])

    for s in sorted(sigs.values(), key=lambda s: -s.priority):
        if s.refines is not None:
            by_base.setdefault(s.refines.signature, []).append((s, _Lazy(s.refines.context, False)))
    if not by_base:
        return events
    out = []
    for e in events:
        for s, regex in by_base.get(e.sig_id, ()):
            if regex.search("\n".join([*e.frames, *e.context, e.text])) and not excluded(s, e.text):
                e = dataclasses.replace(e, sig_id=s.id, values=dict(e.values))
                break
        out.append(e)
    return out
