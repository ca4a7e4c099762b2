"""What an attribution says: the rank, the rule that named it, how sure, and the evidence lines behind it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Reason:
    text: str
    source: str | None = None
    line: int | None = None


@dataclass
class Attribution:
    rank: int | None
    rule: str
    confidence: str  # "high", "medium" or "low"
    reasons: list[Reason] = field(default_factory=list)


def rank_list(ranks) -> str:
    """Ranks for a sentence: sorted, at most 12 and an ellipsis."""
    return ", ".join(str(r) for r in sorted(ranks)[:12]) + ("…" if len(ranks) > 12 else "")
