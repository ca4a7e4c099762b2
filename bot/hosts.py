"""Each host's history across incidents: a host whose failures repeat is named, with the command to drain it.

An incident counts for the host its initiating failure ran on. Failures the taxonomy blames on the node or
the GPU (its `drain_and_restart` classes: Xid, ECC, NVLink/InfiniBand, a failed node) weigh HARDWARE_WEIGHT
each; any other failure (a program error, an OOM, a timeout) weighs OTHER_WEIGHT: a host is named once the
weighted count of its incidents within `[bot] host_window` reaches `host_repeat_threshold` (default 3: three
hardware incidents, or twelve of other kinds, or a mix).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

import signatures
from bot.config import Config, seconds
from bot.store import Store

HARDWARE_WEIGHT = 1.0
OTHER_WEIGHT = 0.25


@dataclass(frozen=True)
class HostRecord:
    host: str
    incidents: int
    score: float
    classes: Counter  # class -> incidents
    hardware: int


def weight(cls: str, taxonomy: dict) -> float:
    entry = taxonomy.get(cls)
    return HARDWARE_WEIGHT if entry is not None and entry.action == "drain_and_restart" else OTHER_WEIGHT


def record(host: str, rows: list[dict], taxonomy: dict) -> HostRecord:
    classes = Counter(r["class"] for r in rows)
    hardware = sum(n for cls, n in classes.items() if weight(cls, taxonomy) == HARDWARE_WEIGHT)
    return HostRecord(host, len(rows), sum(weight(r["class"], taxonomy) for r in rows), classes, hardware)


def repeat_of(store: Store, config: Config, report: signatures.Report, taxonomy: dict) -> HostRecord | None:
    """The history of the host of `report`'s initiating failure, this failure included, when it reaches the
    threshold; None otherwise (or when the failure names no host)."""
    top = report.top
    if top is None or not top.host:
        return None
    since = time.time() - seconds(config.bot.host_window)
    rows = [*store.host_history(top.host, since), {"class": top.class_, "signature": top.signature}]
    rec = record(top.host, rows, taxonomy)
    return rec if rec.score >= config.bot.host_repeat_threshold else None


def top_hosts(store: Store, config: Config, taxonomy: dict, limit: int = 10) -> list[HostRecord]:
    """The hosts with the most (weighted) incidents in the window, most first."""
    since = time.time() - seconds(config.bot.host_window)
    records = [record(host, rows, taxonomy) for host, rows in store.hosts_since(since).items()]
    return sorted(records, key=lambda r: (-r.score, -r.incidents, r.host))[:limit]
