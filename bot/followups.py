"""After "Fix applied": re-check the rerun on a schedule until the signature is proven gone, or back.

The database is the source of truth: a follow-up is a row with its next due time.
APScheduler runs one in-process ticker that claims due rows with an atomic lease,
so a check that fell due while the bot was down runs once at start-up, a check
never runs twice, and two bot processes on one database never run the same check.
Every outcome is committed before it is announced.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from apscheduler.schedulers.background import BackgroundScheduler
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

import signatures
from bot.config import Config, seconds
from bot.fetch import FetchError, fetch_job, parse_job_ref
from bot.jobs import finished_line, job_report
from bot.metrics import Metrics
from bot.render import followup_announcement, verdict_detail
from bot.store import Incident, Store

log = logging.getLogger("denpex.followups")

DEFAULT_FIRST, DEFAULT_INTERVAL, DEFAULT_WINDOW = "10m", "10m", "24h"
RUNNING = {"RUNNING", "PENDING", "CONFIGURING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED"}
GONE, BACK, NOT_YET, INCONCLUSIVE = "gone", "back", "not_yet", "inconclusive"
_RUNTIME = re.compile(r"^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+)$")


def durations(config: Config, sig: signatures.Signature | None) -> tuple[float, float, float]:
    """(first check, interval, window) in seconds: the config's [followups], else the signature's, else defaults."""
    f = config.followups
    interval = f.interval or (sig.followup_interval if sig else None) or DEFAULT_INTERVAL
    first = f.first_check or interval or DEFAULT_FIRST
    window = f.window or (sig.followup_window if sig else None) or DEFAULT_WINDOW
    return seconds(first), seconds(interval), seconds(window)


def runtime_seconds(value: str | None) -> float | None:
    """Slurm's RunTime/Elapsed ("[D-]HH:MM:SS" or "MM:SS") in seconds."""
    m = _RUNTIME.match(value or "")
    if not m:
        return None
    days, hours, minutes, secs = (int(g) if g else 0 for g in m.groups())
    return ((days * 24 + hours) * 60 + minutes) * 60 + secs


@dataclass
class Verdict:
    verdict: str
    detail: str
    report: signatures.Report | None = None


def judge(
    original: signatures.Report,
    rerun: signatures.Report,
    facts,
    library: signatures.Library,
    finished: str | None = None,
) -> Verdict:
    """Compare a rerun's diagnosis and facts with the incident's original diagnosis, by the signatures of
    `library` (the bot's: bundled plus the site's). `finished` is the line of the rerun's log saying training
    finished, if any: a job with no scheduler state (a `paths` cluster) is judged by its log alone."""
    first = original.top
    sig_id = first.signature if first else None
    again = next((d for d in rerun.diagnoses if d.signature == sig_id), None)
    if again is None and first:
        again = next((d for d in rerun.diagnoses if d.class_ == first.class_), None)
    state = (facts.state or "").split("/")[0]
    if again:
        where = again.first_seen
        return Verdict(
            BACK,
            verdict_detail(
                "fired_again", signature=again.signature, source=where.source, line=where.line, text=where.text
            ),
            rerun,
        )
    if state == "COMPLETED" and (facts.exit_code or "0:0").split(":")[0] == "0":
        return Verdict(GONE, verdict_detail("completed", facts=facts.line()), rerun)
    if not state and finished and rerun.top is None:  # no scheduler to ask: the log says it finished
        return Verdict(GONE, verdict_detail("log_finished", line=finished), rerun)
    # progress, not state: gone once the rerun trained past the step where the original failed
    before_step, step = original.stats.last_step, rerun.stats.last_step
    if before_step is not None and step is not None:
        if step > before_step:
            return Verdict(GONE, verdict_detail("trained_past", step=step, before=before_step), rerun)
        if state in RUNNING or (not state and rerun.top is None):  # no state: it may still be running
            return Verdict(
                NOT_YET,
                verdict_detail("running_steps", state=state.lower() or "logging", step=step, before=before_step),
                rerun,
            )
        if rerun.top is None:  # it ended short of the step, whatever its run time: that proves nothing
            return Verdict(INCONCLUSIVE, verdict_detail("ended_early", state=state or "without a state"), rerun)
    sig = library.by_id().get(sig_id) if sig_id else None
    if sig is not None and sig.absence is not None:
        # a hang is only cleared by what it never reached: a save that completed after the fix
        if rerun.stats.completed.get(sig.id):
            return Verdict(GONE, verdict_detail("save_completed"), rerun)
    else:
        elapsed_before = original.job.elapsed if original.job else None
        before = runtime_seconds(elapsed_before)
        now = runtime_seconds(facts.elapsed)
        if before is not None and now is not None and now > before * 1.1 + 60:
            return Verdict(GONE, verdict_detail("ran_past", elapsed=facts.elapsed, before=elapsed_before), rerun)
    if state in RUNNING:
        return Verdict(NOT_YET, verdict_detail("running", state=state.lower(), facts=facts.line()), rerun)
    if not state and rerun.top is None:
        return Verdict(NOT_YET, verdict_detail("log_quiet"), rerun)
    other = rerun.top
    if other:
        return Verdict(
            INCONCLUSIVE,
            verdict_detail("other_failure", state=state or "early", title=other.title, signature=other.signature),
            rerun,
        )
    return Verdict(INCONCLUSIVE, verdict_detail("ended_early", state=state or "without a state"), rerun)


class FollowUps:
    def __init__(
        self,
        config: Config,
        store: Store,
        client: WebClient,
        matcher: signatures.Matcher,
        metrics: Metrics,
        fetch: Callable = fetch_job,
    ):
        self.config = config
        self.matcher = matcher  # the bot's one matcher (bundled library + site signatures), from build_app
        self.metrics = metrics
        self.store = store
        self.client = client
        self.fetch = fetch
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.scheduler: BackgroundScheduler | None = None
        self.on_final: Callable[[int], None] | None = None  # re-render the incident's message
        self.also_every_tick: Callable[[], None] | None = None  # other periodic work (requests to resume)
        self.last_tick: float | None = None
        self.started_at = time.time()

    # -- scheduling ---------------------------------------------------------------

    def _incident(self, incident_id: int) -> Incident:
        incident = self.store.incident(incident_id)
        if incident is None:
            raise LookupError(f"incident {incident_id} is not in the database")
        return incident

    def schedule(self, incident_id: int, job: str, user: str, note: str) -> tuple[int, float, float, float]:
        incident = self._incident(incident_id)
        sig_id = incident.report.top.signature if incident.report.top else None
        sig = self.matcher.library.by_id().get(sig_id) if sig_id else None
        first, interval, window = durations(self.config, sig)
        now = time.time()
        fid = self.store.schedule_followup(incident_id, job, user, note, now + first, interval, now + window)
        return fid, first, interval, window

    def start(self) -> None:
        self.started_at = time.time()
        self.scheduler = BackgroundScheduler(daemon=True)
        # the first tick runs at once: checks that fell due while the bot was down run now, once
        self.scheduler.add_job(
            self.tick,
            "interval",
            seconds=self.config.followups.tick_seconds,
            max_instances=1,
            coalesce=True,
            id="denpex-followups",
            next_run_time=datetime.now(UTC),
        )
        self.scheduler.start()

    def stop(self) -> None:
        """Stop ticking (idempotent): called first on SIGTERM, so no check starts during shutdown."""
        if self.scheduler and self.scheduler.running:
            self.scheduler.shutdown(wait=False)
            log.info("follow-up ticker stopped")

    def tick(self) -> None:
        log.debug("follow-up tick runs")
        self.last_tick = time.time()
        if self.also_every_tick:
            try:
                self.also_every_tick()
            except Exception:
                log.exception("periodic work failed")
        try:
            self.deliver()  # announcements left unposted by a process that stopped
        except Exception:
            log.exception("delivering announcements failed")
        now = time.time()
        due = self.store.due_followups(now)
        self.metrics.followups_due.set(len(due))
        self.metrics.followups_overdue.set(self.store.overdue_followups(now - 3 * self.config.followups.tick_seconds))
        for fid in due:
            if self.store.claim_followup(fid, self.owner, now, self.config.followups.lease_seconds):
                try:
                    self.check(fid)
                except Exception:
                    log.exception("follow-up %s failed", fid)

    # -- one check ------------------------------------------------------------------

    def check(self, fid: int) -> Verdict:
        fu = self.store.followup(fid)
        if fu is None:
            raise LookupError(f"follow-up {fid} is not in the database")
        incident = self._incident(fu["incident_id"])
        verdict = self._verdict(fu, incident)
        now = time.time()
        final = verdict.verdict in (GONE, BACK, INCONCLUSIVE)
        if not final and now + fu["interval_s"] > fu["window_end"]:
            verdict = Verdict(INCONCLUSIVE, verdict_detail("window_ended", detail=verdict.detail), verdict.report)
            final = True
        next_at = None if final else now + fu["interval_s"]
        text = self._announcement(fu, verdict, first_check=fu["checks"] == 0)
        thread = incident.thread_ts or incident.message_ts
        outbox = self.store.record_check(
            fid,
            self.owner,
            verdict.verdict,
            verdict.detail,
            verdict.report,
            next_at,
            (incident.channel, thread, text) if text else None,
        )
        if outbox is False:
            log.warning("follow-up %s: lease lost to another process; not announcing", fid)
            return verdict
        self.metrics.followup_verdicts.labels(verdict.verdict).inc()
        if text:
            self.deliver(only=outbox)
        if verdict.verdict != NOT_YET and self.on_final:
            self.on_final(incident.id)
        return verdict

    def _verdict(self, fu: dict, incident) -> Verdict:
        try:
            ref = parse_job_ref(fu["job"], self.config)
            fetched = self.fetch(ref, self.config)
        except FetchError as exc:
            if exc.kind == "unknown_job":
                return Verdict(INCONCLUSIVE, verdict_detail("vanished", job=fu["job"], error=exc))
            if exc.kind in ("pending", "unreachable", "timeout", "log_missing"):
                return Verdict(NOT_YET, str(exc))
            return Verdict(INCONCLUSIVE, str(exc))
        try:
            rerun = job_report(ref, fetched, self.matcher, budget=self.config.inputs.budget())
            finished = finished_line(fetched) if not fetched.facts.state else None
        finally:
            fetched.cleanup()
        return judge(incident.report, rerun, fetched.facts, self.matcher.library, finished)

    def _announcement(self, fu: dict, verdict: Verdict, first_check: bool) -> str | None:
        """What to post in the thread, or None ("still running" is said once, not at every check)."""
        if verdict.verdict == NOT_YET and not first_check:
            return None
        return followup_announcement(verdict.verdict, verdict.detail, fu["job"], fu["requested_by"])

    def deliver(self, only: int | None = None) -> None:
        """Post pending announcements, each exactly once: an attempt that may have reached Slack before its
        process stopped is looked up in the thread before it is posted again."""
        for row in self.store.claim_outbox(self.owner, self.config.followups.lease_seconds, only):
            muted = self.store.muted(row["channel"], row["thread_ts"]) if row["thread_ts"] else None
            if muted:  # Mute on the incident: recorded as not posted, with why
                self.store.outbox_muted(row["id"], f"thread muted by {muted['user_id']} at {muted['at']}")
                continue
            try:
                posted = self._already_posted(row) if row["attempts"] > 0 else None
                if posted is None:
                    posted = self.client.chat_postMessage(
                        channel=row["channel"], thread_ts=row["thread_ts"], text=row["text"]
                    )["ts"]
            except SlackApiError as exc:
                error = exc.response.get("error")
                log.warning("announcement %s not posted: %s", row["id"], error)
                if error in ("channel_not_found", "is_archived", "not_in_channel", "thread_not_found"):
                    self.store.outbox_sent(row["id"], None, error)  # will never succeed: stop trying
                continue
            self.store.outbox_sent(row["id"], posted)

    def _already_posted(self, row: dict) -> str | None:
        """The ts of this announcement if an earlier attempt posted it: the bot's messages since the row was
        written (`oldest`, every page of the thread: a busy thread has more than one), compared as Slack
        stores text (it escapes &, < and > that are not markup)."""
        oldest = f"{_epoch(row['created_at']) - OLDEST_MARGIN:.6f}"
        cursor = None
        for _ in range(LOOKUP_PAGES):
            if row["thread_ts"]:
                found = self.client.conversations_replies(
                    channel=row["channel"], ts=row["thread_ts"], oldest=oldest, limit=200, cursor=cursor
                )
            else:  # a post in the channel itself ([[watch.auto]])
                found = self.client.conversations_history(
                    channel=row["channel"], oldest=oldest, limit=200, cursor=cursor
                )
            messages: list[dict] = found.get("messages", [])
            for message in messages:
                if message.get("bot_id") and _unescaped(message.get("text") or "") == _unescaped(row["text"]):
                    return message["ts"]
            cursor = (found.get("response_metadata") or {}).get("next_cursor")
            if not cursor:
                break
        return None


OLDEST_MARGIN = 60.0  # seconds before an outbox row was written that its post is looked for (clock skew)
LOOKUP_PAGES = 10  # pages of 200 messages looked through for an earlier attempt's post


def _epoch(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _unescaped(text: str) -> str:
    """Text as posted, from text as Slack returns it (https://api.slack.com/reference/surfaces/formatting#escaping)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
