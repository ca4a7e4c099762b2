"""What the bot is doing, in Prometheus' text format (GET /metrics on the HTTP or health port).

One registry per bot (not prometheus-client's global one), so several bots can live in one
process (tests) and a scrape shows only this bot's numbers.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

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

    def render(self) -> bytes:
        return generate_latest(self.registry)
