"""What the bot is doing, in Prometheus' text format (GET /metrics on the HTTP or health port).

One registry per bot (not prometheus-client's global one), so several bots can live in one
process (tests) and a scrape shows only this bot's numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.metrics_core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

log = logging.getLogger("denpex.metrics")

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
_SCAN_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


class Metrics:
    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.requests = Counter(
            "denpex_requests",
            "Slack requests acknowledged, by kind (event, command, action, view) and HTTP status",
            ["kind", "status"],
            registry=r,
        )
        self.ack_seconds = Histogram(
            "denpex_ack_seconds",
            "Time from receiving a Slack request to its ack",
            ["kind"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.diagnoses = Counter(
            "denpex_diagnoses",
            "Diagnoses finished, by class of the top diagnosis and "
            "outcome (diagnosed, unrecognised, healthy, refused, failed)",
            ["class", "outcome"],
            registry=r,
        )
        self.scan_seconds = Histogram(
            "denpex_scan_seconds",
            "Seconds spent fetching and scanning one request's logs",
            buckets=_SCAN_BUCKETS,
            registry=r,
        )
        self.scan_bytes = Counter("denpex_scan_bytes", "Bytes of logs scanned", registry=r)
        self.downloads = Counter("denpex_downloads", "Slack file downloads, by outcome", ["outcome"], registry=r)
        self.fetches = Counter(
            "denpex_fetches", "Job log fetches, by cluster kind and outcome", ["backend", "outcome"], registry=r
        )
        self.slack_calls = Counter(
            "denpex_slack_api_calls",
            "Slack Web API calls, by method and error (ok; ratelimited for each 429)",
            ["method", "error"],
            registry=r,
        )
        self.followups_due = Gauge("denpex_followups_due", "Follow-up checks due now", registry=r)
        self.watches_overdue = Gauge(
            "denpex_watches_overdue", "Job watches due for longer than three intervals (see /healthz)", registry=r
        )
        self.followups_overdue = Gauge(
            "denpex_followups_overdue", "Follow-up checks due for longer than three ticks", registry=r
        )
        self.followup_verdicts = Counter(
            "denpex_followup_verdicts", "Follow-up check outcomes, by verdict", ["verdict"], registry=r
        )
        self.queue_depth = Gauge("denpex_queue_depth", "Diagnoses waiting for a free slot", registry=r)
        self.running = Gauge("denpex_diagnoses_running", "Diagnoses running now", registry=r)

    def track_signatures(self, read: Callable[[], Iterable[_Counts]], known: Iterable[str]) -> None:
        """Per-signature counters read from the database at each scrape (so every process shows the workspace's
        numbers, across restarts): how often each signature fired, was confirmed, was rejected. Labels are the
        library's ids (`known`); any other id (a removed or renamed signature) counts as "other"."""
        self.registry.register(_SignatureFeedback(read, frozenset(known)))

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _Counts(Protocol):
    @property
    def signature(self) -> str: ...
    @property
    def fired(self) -> int: ...
    @property
    def confirmed(self) -> int: ...
    @property
    def rejected(self) -> int: ...


class _SignatureFeedback(Collector):
    FAMILIES = {
        "fired": "Incidents whose top diagnosis is the signature",
        "confirmed": "Incidents of the signature confirmed (a fix proven gone; a checklist tick or Useful, no Not this)",
        "rejected": "Incidents of the signature someone said Not this of (unless a fix was proven gone)",
    }

    def __init__(self, read: Callable[[], Iterable[_Counts]], known: frozenset[str]):
        self.read, self.known = read, known

    def _families(self) -> dict[str, CounterMetricFamily]:
        return {
            name: CounterMetricFamily(f"denpex_signature_{name}", text, labels=["signature"])
            for name, text in self.FAMILIES.items()
        }

    def describe(self) -> Iterator[Metric]:
        return iter(self._families().values())

    def collect(self) -> Iterator[Metric]:
        families = self._families()
        totals: dict[str, dict[str, int]] = {}
        try:
            rows = list(self.read())
        except Exception:  # a scrape must answer even when the database does not
            log.exception("per-signature counters not read")
            rows = []
        for row in rows:
            label = row.signature if row.signature in self.known else "other"
            counts = totals.setdefault(label, dict.fromkeys(self.FAMILIES, 0))
            for name in self.FAMILIES:
                counts[name] += getattr(row, name)
        for label, counts in sorted(totals.items()):
            for name, family in families.items():
                family.add_metric([label], counts[name])
        return iter(families.values())
