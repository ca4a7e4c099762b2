"""A track record per signature, from what people said of its answers (issue 14.5).

An incident counts for the signature of its top diagnosis. It is *confirmed* when the fix for it was proven
gone (✅ Gone after Fix applied), or when someone ticked its checklist or pressed Useful and nobody said Not
this; it is *rejected* when someone said Not this and no fix was proven gone. Precision is confirmed /
(confirmed + rejected): how often this workspace found the signature right when it said anything at all.
The store counts (`Store.signature_feedback`); this module reads the counts, and holds the bar.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from bot.store import Store


@dataclass(frozen=True)
class SignatureRecord:
    signature: str
    fired: int  # incidents whose top diagnosis it is
    confirmed: int
    rejected: int
    # the votes behind the counts: Useful presses, people who ticked the checklist, fixes proven gone, Not this
    useful: int
    confirmed_checklist: int
    fix_gone: int
    rejections: int

    @property
    def votes(self) -> int:
        """Incidents someone judged, either way."""
        return self.confirmed + self.rejected

    @property
    def precision(self) -> float | None:
        """confirmed / (confirmed + rejected); None before anyone judged an incident of it."""
        return self.confirmed / self.votes if self.votes else None

    def to_json(self) -> dict:
        return {**asdict(self), "precision": self.precision}


def records(store: Store) -> list[SignatureRecord]:
    """Every signature that fired in this workspace, by id."""
    return [SignatureRecord(**row) for row in store.signature_feedback()]


def below_bar(found: list[SignatureRecord], min_precision: float, min_votes: int) -> list[SignatureRecord]:
    """The signatures judged on at least `min_votes` incidents whose precision is below `min_precision`."""
    return [r for r in found if r.votes >= min_votes and r.precision is not None and r.precision < min_precision]


def precision_text(record: SignatureRecord) -> str:
    return "—" if record.precision is None else f"{record.precision:.0%}"


def stats_table(found: list[SignatureRecord]) -> str:
    """`denpex signatures stats`: one row per signature, the busiest first."""
    if not found:
        return "No incident in this database has a diagnosis yet."
    rows = sorted(found, key=lambda r: (-r.fired, r.signature))
    width = max(len("signature"), *(len(r.signature) for r in rows))
    lines = [f"{'signature':<{width}}  {'fired':>6} {'confirmed':>9} {'rejected':>8} {'precision':>9}"]
    lines += [
        f"{r.signature:<{width}}  {r.fired:>6} {r.confirmed:>9} {r.rejected:>8} {precision_text(r):>9}" for r in rows
    ]
    total = sum(r.fired for r in rows)
    lines.append(
        f"\n{len(rows)} signature(s), {total} incident(s); confirmed: a fix proven gone, or a checklist tick or "
        "Useful with no Not this; rejected: Not this (unless a fix was proven gone)"
    )
    return "\n".join(lines)


def flag_line(record: SignatureRecord, min_precision: float) -> str:
    """`denpex signatures lint --feedback`: one problem line per signature below the bar."""
    return (
        f"{record.signature}: precision {precision_text(record)} in this workspace is below {min_precision:.0%} "
        f"({record.confirmed} confirmed, {record.rejected} rejected of {record.fired} fired): review its patterns "
        "and the Not this notes"
    )
