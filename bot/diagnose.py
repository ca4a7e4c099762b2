"""The diagnosis service: what a request asks for, who may fetch which cluster, a report from a paste, a
downloaded file or a job, and the incident it opens. No Slack here (tests/test_architecture.py holds it):
listeners and the responder turn what it returns into messages (bot/render.py) and post them.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Protocol, TypeVar

import httpx

import signatures
from bot import hosts, render
from bot.config import seconds
from bot.fetch import FetchError, JobRef, fetch_job, parse_job_ref
from bot.jobs import job_report, with_baseline
from bot.metrics import Metrics
from bot.redact import redact, redact_report
from bot.settings import Settings
from bot.slack_files import DownloadError, download
from bot.store import Store, StoreError

log = logging.getLogger("denpex.bot")

SLASH_TEXT_LIMIT = 4000  # Slack cuts slash-command text here
TRUNCATION_MARGIN = 50
MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
FENCE = re.compile(r"^```|```$")
JOB_REF = re.compile(
    r"^(?:[A-Za-z][\w-]*/)?(?:[0-9]+(?:_[0-9]+)?|raysubmit_\w+|[a-z0-9][\w.-]*/[a-z0-9][\w.-]*)$", re.ASCII
)
ERROR_WORDS = re.compile(
    r"error|exception|traceback|fault|fail|killed|abort|timeout|timed out|nccl|cuda|oom|"
    r"signal|exit|denied|refused|nan|panic|fatal",
    re.I,
)
LOG_EXTENSIONS = {
    ".log",
    ".txt",
    ".out",
    ".err",
    ".gz",
    ".tgz",
    ".zip",
    ".tar",
    ".bz2",
    ".xz",
    ".jsonl",
    ".stderr",
    ".stdout",
}
LOG_FILETYPES = {"text", "gzip", "zip", "tar", "tgz", "bz2", "xz", "binary", "log", "csv"}


def looks_like_a_paste(text: str) -> bool:
    """Several lines, a long line, or one short line that reads like an error: worth diagnosing.
    Anything else one-line (`; rm -rf /`, `１２３`, a typo'd job id) gets a refusal that says why."""
    return "\n" in text.strip() or len(text) >= 80 or bool(ERROR_WORDS.search(text))


def looks_like_log_file(info: dict) -> bool:
    """Screenshots and PDFs shared in an incident channel are not logs: only text and archives are."""
    name = info.get("name") or ""
    suffixes = {s.lower() for s in PurePosixPath(name).suffixes}
    mimetype = info.get("mimetype") or ""
    if mimetype.startswith(("image/", "video/", "audio/")) or info.get("filetype") in ("pdf", "png", "jpg", "gif"):
        return False
    return bool(suffixes & LOG_EXTENSIONS) or info.get("filetype") in LOG_FILETYPES or mimetype.startswith("text/")


class Refused(Exception):
    """A request that cannot be served as asked; the message (from bot/render.py) says why and what to do."""


class NotAllowed(Exception):
    """The user may not fetch this cluster's jobs (its `allow` list)."""

    def __init__(self, ref: JobRef):
        super().__init__(ref.cluster)
        self.ref = ref


@dataclass(frozen=True)
class Paste:
    text: str
    notes: list[str]


@dataclass(frozen=True)
class JobAsked:
    reference: str


def read_diagnose_command(text: str) -> Paste | JobAsked:
    """`/denpex diagnose …`: a job reference or a pasted log; Refused (with the answer) when it is neither."""
    rest = text.strip().partition(" ")[2].strip()
    if not rest:
        raise Refused(render.NOTHING_TO_DIAGNOSE)
    if JOB_REF.match(rest):
        return JobAsked(rest)
    if not looks_like_a_paste(rest):
        raise Refused(render.not_a_paste(rest))
    notes = [render.PASTE_TRUNCATED] if len(text) >= SLASH_TEXT_LIMIT - TRUNCATION_MARGIN else []
    return Paste(FENCE.sub("", rest).strip("\n"), notes)


def mention_text(text: str) -> str:
    """A mention's text without the mentions and the code fences: a pasted log, or nothing worth scanning."""
    return FENCE.sub("", MENTION.sub("", text)).strip("\n ")


def is_a_paste(text: str) -> bool:
    """What a mention carries is a log when it has several lines or a long one."""
    return len(text.splitlines()) >= 2 or len(text) >= 80


R = TypeVar("R", bound=signatures.Report)


class Progress(Protocol):
    """How a scan reports what it read (the responder's turns it into message updates)."""

    def phase(self, verb: str) -> None: ...

    def at(self, done: int) -> None: ...

    def __call__(self, n: int) -> None: ...


@dataclass(frozen=True)
class Downloaded:
    report: signatures.Report
    fingerprint: str


class Diagnoser:
    """Reports from what a request points at, with the bot's one matcher; incidents opened in the store."""

    def __init__(
        self, settings: Settings, store: Store, http: httpx.Client, matcher: signatures.Matcher, metrics: Metrics
    ):
        self.settings = settings
        self.store = store
        self.http = http
        self.matcher = matcher
        self.metrics = metrics

    # -- who may fetch what --------------------------------------------------------

    def job_for(self, reference: str, user: str, members_of: Callable[[str], Iterable[str]]) -> JobRef:
        """The job `user` asks for, if they may fetch it: FetchError for a reference that names no job,
        NotAllowed when the cluster's `allow` (`*`, user ids, user groups via `members_of`) leaves them out."""
        ref = parse_job_ref(reference, self.settings.config)
        allow = self.settings.config.clusters[ref.cluster].allow
        if "*" in allow or user in allow:
            return ref
        if any(user in members_of(group) for group in allow if group.startswith("S")):
            return ref
        log.warning("denied: user %s may not fetch job %s from cluster %s", user, ref.job_id, ref.cluster)
        raise NotAllowed(ref)

    # -- scans ---------------------------------------------------------------------

    def scan_paste(self, body: bytes, progress: Progress) -> signatures.Report:
        return signatures.diagnose_sources([signatures.source_from_bytes("pasted log", body)], self.matcher, progress)

    def scan_job(self, ref: JobRef, progress: Progress) -> signatures.Report:
        """Fetch a job's logs from its cluster, then diagnose them as one job."""
        progress.phase("Fetching logs of")
        try:
            fetched = fetch_job(ref, self.settings.config)
        except FetchError as exc:
            self.metrics.fetches.labels(ref.kind, exc.kind).inc()
            raise
        self.metrics.fetches.labels(ref.kind, "ok").inc()
        try:
            progress.phase("Diagnosing")
            budget = self.settings.config.inputs.budget()
            report = job_report(ref, fetched, self.matcher, progress, budget)
            return with_baseline(report, ref, fetched, self.settings.config, budget)
        finally:
            fetched.cleanup()

    def scan_download(self, url: str, name: str, progress: Progress) -> Downloaded:
        """Download a file (the token sent to Slack's own hosts only), then diagnose it; the fingerprint is
        its content's, so the same file shared twice is one incident."""
        progress.phase("Downloading")
        try:
            got = download(
                self.http,
                url,
                self.settings.bot_token,
                self.settings.token_origins,
                self.settings.config.bot.max_file_bytes,
                on_bytes=progress.at,
            )
        except DownloadError:
            self.metrics.downloads.labels("refused").inc()
            raise
        except Exception:
            self.metrics.downloads.labels("failed").inc()
            raise
        self.metrics.downloads.labels("ok").inc()
        try:
            progress.phase("Diagnosing")
            digest = hashlib.sha256()
            with open(got.path, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(chunk)
            if got.size == 0:
                raise signatures.InputError(render.empty_download(name))
            budget = self.settings.config.inputs.budget()
            report = signatures.diagnose_sources(signatures.open_path(got.path, name, budget), self.matcher, progress)
            return Downloaded(report, "file:" + digest.hexdigest())
        finally:
            got.remove()

    # -- the outcome ---------------------------------------------------------------

    def unrecognised_open_for(self) -> float:
        """How long an unrecognised failure stays on `/denpex status` (`[bot] unrecognised_open_for`, 3 days by
        default)."""
        return seconds(self.settings.config.bot.unrecognised_open_for)

    def hosts_text(self) -> str:
        """`/denpex hosts`: the hosts with the most incidents in the window."""
        config = self.settings.config
        return render.hosts_message(
            hosts.top_hosts(self.store, config, self.matcher.library.taxonomy), config.bot.host_window
        )

    def host_repeat(self, report: signatures.Report) -> str | None:
        """A line naming the host of the initiating failure when its incidents repeat (see bot/hosts.py)."""
        try:
            rec = hosts.repeat_of(self.store, self.settings.config, report, self.matcher.library.taxonomy)
        except StoreError as exc:  # the history is a bonus: the answer goes out without it
            log.warning("host history unavailable: %s", exc)
            return None
        if rec is None:
            return None
        kind = report.job.kind if report.job else None
        return render.host_repeat(rec, self.settings.config.bot.host_window, kind)

    def finished(self, report: signatures.Report, notes: list[str], seconds: float) -> signatures.Report:
        """A scan's report, counted, masked (before anything clips, stores or posts it), with the request's notes."""
        self.metrics.scan_seconds.observe(seconds)
        self.metrics.scan_bytes.inc(report.stats.bytes)
        report = redact_report(report).model_copy(update={"notes": notes})
        top = report.top
        self.metrics.diagnoses.labels(top.class_ if top else "", report.outcome).inc()
        return report

    def refused(self, source: str, exc: Exception) -> None:
        self.metrics.diagnoses.labels("", "refused").inc()
        log.info("diagnosis of %s refused: %s", source, redact(str(exc)))

    def failed(self, source: str) -> None:
        self.metrics.diagnoses.labels("", "failed").inc()
        log.exception("diagnosis of %s failed", source)

    def open_incident(
        self,
        report: signatures.Report,
        message: tuple[str, str],
        thread_ts: str | None,
        source: str,
        fingerprint: str,
        user: str | None,
        job: str | None,
        seconds: float,
    ) -> int:
        """Record the diagnosis as an incident of the message that shows it (StoreError when the database
        refuses)."""
        channel, ts = message
        incident_id = self.store.open_incident(channel, ts, thread_ts, source, fingerprint, report, user, job)
        top = report.top
        log.info(
            "diagnosed %s: %s",
            source,
            top.signature if top else report.outcome,
            extra={
                "incident_id": incident_id,
                "outcome": report.outcome,
                "signature": top.signature if top else None,
                "seconds": round(seconds, 3),
                "bytes": report.stats.bytes,
            },
        )
        return incident_id
