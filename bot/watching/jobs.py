"""Watches of running jobs asked for in Slack (`/denpex watch <job>`): the same Watcher as `denpex watch`, fed
the job's log files as the scheduler names them, polled by the follow-up ticker.

A watch is a row of the store: its watcher's state (read offsets, saves, steps) goes back into the row after
every poll, in the same transaction as the alerts it produced (into the outbox), under a lease: a restarted bot
resumes where the last poll stopped, two bot processes never poll one watch at once, and every alert is posted
exactly once. When the scheduler says the job has ended, a last poll reads what is left and a closing message
says how it ended (the diagnosis of its logs when it failed).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import socket
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import signatures
from bot import render
from bot.config import AutoWatch, Config, seconds
from bot.fetch import (
    FetchError,
    FetchResult,
    JobFacts,
    JobRef,
    LogFollow,
    ended_jobs,
    fetch_job,
    job_status,
    parse_job_ref,
)
from bot.fetch.errors import InvalidJobId, NotConfigured, UnknownCluster, UnknownJob
from bot.jobs import fetched_report
from bot.store import Store

from .watcher import Watcher

log = logging.getLogger("denpex.watch")

WAITING = {
    "PENDING",
    "CONFIGURING",
    "REQUEUED",
    "REQUEUE_HOLD",
    "REQUEUE_FED",
    "RESIZING",
    "SUSPENDED",
    "SPECIAL_EXIT",
    "RESV_DEL_HOLD",
}
RUNNING = {"RUNNING", "COMPLETING", "STOPPED", "SIGNALING", "STAGE_OUT"}
# Kubernetes' words (a job's condition or its pods' phase) in Slurm's
KUBERNETES_STATES = {
    "COMPLETE": "COMPLETED",
    "SUCCEEDED": "COMPLETED",
    "SUCCESSCRITERIAMET": "COMPLETED",
    "RESTARTING": "RUNNING",
    "CREATED": "PENDING",
}
FAILURES_KEPT = 5  # a look that fails this many times in a row (not the scheduler: the watch itself) ends it
LEASE_SECONDS = 120.0
AUTO_WATCHER = "auto:"  # requested_by of the watches [[watch.auto]] starts (watch_running), before its key
LOST_AFTER_POLLS = 10  # the scheduler no longer knows the job this many polls in a row: stop, and say so


def state_of(facts: JobFacts) -> str:
    """The job's state word ("RUNNING", "FAILED"). An array's or het job's states ("COMPLETED/RUNNING") say
    RUNNING while any task runs, PENDING while any waits, else the first of the final ones."""
    states = {s.split(" ")[0].upper() for s in (facts.state or "UNKNOWN").split("/") if s}
    states = {KUBERNETES_STATES.get(s, s) for s in states}
    if states & RUNNING:
        return "RUNNING"
    if states & WAITING:
        return "PENDING"
    return sorted(states)[0] if states else "UNKNOWN"


class JobWatches:
    def __init__(
        self,
        config: Config,
        store: Store,
        matcher: signatures.Matcher,
        deliver: Callable[[int], None],
        status: Callable[..., tuple[JobFacts, list]] = job_status,
        clock: Callable[[], float] = time.time,
        answer: Callable[[str, str, str, str | None], None] | None = None,
        spool: Path | None = None,
        fetch: Callable[[JobRef, Config], FetchResult] = fetch_job,
    ):
        self.fetch = fetch  # a whole job's logs, for the closing diagnosis of a job whose logs come from an API
        self.answer = answer  # (key, job, channel, thread): the whole diagnosis with its buttons, once per key
        # where the logs of watched jobs that come from an API (Kubernetes) are kept while they are watched
        self.spool = spool or Path(tempfile.gettempdir()) / "denpex-spool"
        self.config = config
        self.store = store
        self.matcher = matcher
        self.deliver = deliver  # posts one outbox row (the follow-ups' delivery: retried until Slack confirms)
        self.status = status
        self.clock = clock
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.interval = seconds(config.watch.interval)

    # -- asked in Slack -----------------------------------------------------------

    def start(
        self,
        ref: JobRef,
        channel: str,
        user: str,
        post: Callable[[str], str],
        reply: Callable[[str, str], object] | None = None,
    ) -> str:
        """Start watching `ref` in `channel`: checks the job with the scheduler, posts the confirmation (whose
        thread the alerts go to) with `post`, and records the watch. Returns what to answer the command with.
        An unwatch that arrived while the confirmation was being posted is said in its thread with `reply`
        (thread ts, text)."""
        existing = self.store.active_watch(ref.cluster, ref.job_id, channel)
        if existing is not None:
            return render.watch_already(ref.cluster, ref.job_id)
        facts, _ = self.status(ref, self.config)  # FetchError: unknown job, scheduler unreachable, ...
        state = state_of(facts)
        if state not in WAITING | RUNNING:
            return render.watch_job_ended(ref.job_id, facts.state or state)
        # reserved first (one active watch per job and channel, however many commands arrive at once), then the
        # confirmation posted, whose thread the alerts go to
        watch_id = self.store.add_watch(ref.cluster, ref.job_id, channel, None, user, self.clock(), "starting")
        if watch_id is None:
            return render.watch_already(ref.cluster, ref.job_id)
        try:
            thread_ts = post(
                render.watch_started(
                    ref.cluster, ref.job_id, user, state, self.interval, seconds(self.config.watch.stall_after)
                )
            )
        except BaseException:
            self.store.drop_watch(watch_id)
            raise
        began, stopped_by = self.store.begin_watch(watch_id, thread_ts)
        if began == "watching":
            return ""
        # unwatched while the confirmation was being posted, or taken over by another watch of the job after this
        # post hung for minutes: say so where the confirmation went
        if began == "stopped":
            text = render.watch_stopped(ref.cluster, ref.job_id, stopped_by)
        else:
            text = render.watch_taken_over(ref.cluster, ref.job_id)
        if reply is None:
            return text
        reply(thread_ts, text)
        return ""

    def stop(self, ref: JobRef, channel: str, user: str, post: Callable[[str, str], None]) -> str:
        """Stop the watch of `ref` in `channel`, saying so in its thread with `post` (thread ts, text). A watch
        whose confirmation is still being posted (by this process or another) is stopped without waiting: the
        start that posts it finds it stopped and says so in the new thread."""
        watch = self.store.active_watch(ref.cluster, ref.job_id, channel)
        if watch is None:
            if self.store.stop_starting_watch(ref.cluster, ref.job_id, channel, user):
                # the start says it in the new thread; the one who asked hears it now (that start may never post)
                return render.watch_stopped_starting(ref.cluster, ref.job_id)
            watch = self.store.active_watch(ref.cluster, ref.job_id, channel)  # it began meanwhile
        if watch is None or not self.store.stop_watch(watch["id"], user):
            return render.not_watched(ref.job_id)
        post(watch["thread_ts"], render.watch_stopped(ref.cluster, ref.job_id, user))
        return ""

    # -- the ticker -----------------------------------------------------------------

    def tick(self) -> None:
        now = self.clock()
        for watch_id in self.store.due_watches(now):
            if self.store.claim_watch(watch_id, self.owner, now, LEASE_SECONDS):
                try:
                    self.poll(watch_id)
                except Exception as exc:
                    log.exception("watch %s: poll failed", watch_id)
                    self._failed(watch_id, exc)

    def _failed(self, watch_id: int, exc: Exception) -> None:
        """A look that raised: try again next interval; after FAILURES_KEPT in a row, end the watch, saying why."""
        row = self.store.watch(watch_id)
        if row is None:
            return
        saved = json.loads(row["state"]) if row["state"] else {}
        saved["failures"] = saved.get("failures", 0) + 1
        try:
            if saved["failures"] >= FAILURES_KEPT:
                text = render.watch_lost(row["job"], f"{saved['failures']} looks in a row failed; the last: {exc}")
                self._record(row, saved, [text], None, "lost")
            else:
                self._record(row, saved, [], self.clock() + self.interval, None)
        except Exception:
            log.exception("watch %s: recording a failed look failed too", watch_id)

    def poll(self, watch_id: int) -> list[str]:
        """One look at a watched job; returns what it posts (for tests and logs)."""
        row = self.store.watch(watch_id)
        if row is None:
            return []
        job = f"{row['cluster']}/{row['job']}"
        saved = json.loads(row["state"]) if row["state"] else {}
        texts: list[str] = []
        next_at: float | None = self.clock() + self.interval
        outcome = None
        spool = self.spool / f"watch-{row['id']}"
        try:
            ref = parse_job_ref(job, self.config)
            follow = LogFollow(spool, saved.setdefault("cursors", {})) if ref.kind == "kubernetes" else None
            facts, paths = self.status(ref, self.config, follow=follow)
        except (UnknownCluster, NotConfigured, InvalidJobId) as exc:
            texts, next_at, outcome = [render.watch_lost(row["job"], str(exc))], None, "lost"
            return self._record(row, saved, texts, next_at, outcome)
        except UnknownJob as exc:
            lost = saved.get("lost", 0) + 1
            saved["lost"] = lost
            if lost >= LOST_AFTER_POLLS:
                texts, next_at, outcome = [render.watch_lost(row["job"], str(exc))], None, "lost"
            return self._record(row, saved, texts, next_at, outcome)
        except FetchError as exc:  # the scheduler is slow or unreachable: look again next time
            log.warning("watch %s (%s): %s", watch_id, job, exc)
            return self._record(row, saved, texts, next_at, outcome)
        saved.pop("lost", None)
        saved.pop("failures", None)
        state = state_of(facts)
        if state in WAITING:
            return self._record(row, saved, texts, next_at, outcome)
        watcher = Watcher([str(p) for p in paths], self.config.watch, self.matcher, self.clock, saved.get("watcher"))
        alerts = [a for a in watcher.poll() if not a.notice]
        ended = state not in RUNNING
        answered = False
        for alert in alerts:
            if alert.kind == "end" and ended:
                continue  # the closing message below says how it ended, with the scheduler's state
            if alert.kind == "diagnosis" and alert.facts.get("role") == "root" and self.answer is not None:
                # the whole answer in the thread, as `/denpex diagnose` gives it (buttons, incident, follow-ups);
                # keyed by the failure: a restart that reads it again does not ask again
                key = f"watch:{row['id']}:{alert.facts.get('signature', alert.message[:60])}:{alert.rank}"
                self.answer(key, job, row["channel"], row["thread_ts"])
                answered = True
                continue
            texts.append(render.watch_alert(row["job"], alert.kind, alert.message))
        if ended:
            silent = row["thread_ts"] is None and not texts and not saved.get("said")  # an auto watch, silent
            if not silent:
                report = self._closing_report(ref, paths)
                final = "COMPLETED" if state == "COMPLETED" else facts.state or state
                texts.append(render.watch_closing(row["job"], final, report))
            next_at, outcome = None, state.lower()
        saved["watcher"] = watcher.state()
        if texts or answered:
            saved["said"] = True
        return self._record(row, saved, texts, next_at, outcome)

    def _closing_report(self, ref: JobRef, paths: list) -> signatures.Report | None:
        """The diagnosis of an ended job's logs: a Slurm job's files, a Kubernetes job fetched whole (its spool
        holds only what was written while it was watched, and every attempt's log is on the API)."""
        budget = self.config.inputs.budget()
        if ref.kind == "kubernetes":
            try:
                return fetched_report(ref, self.config, self.matcher, self.fetch)
            except FetchError as exc:
                log.warning("watch of %s: the closing fetch failed: %s", ref.raw, exc)
        readable = [str(p) for p in paths if os.path.isfile(p)]
        return signatures.diagnose(readable, matcher=self.matcher, budget=budget) if readable else None

    def _record(self, row: dict, saved: dict, texts: list[str], next_at: float | None, outcome: str | None):
        if row["thread_ts"] is None and len(texts) > 1:  # no thread yet: one message, whose thread is the watch's
            texts = ["\n".join(texts)]
        outbox = self.store.record_watch_poll(row["id"], self.owner, saved, next_at, outcome, texts)
        if outcome is not None:
            shutil.rmtree(self.spool / f"watch-{row['id']}", ignore_errors=True)
        if outbox is False:
            log.warning("watch %s: lease lost to another process; not posting", row["id"])
            return []
        assert isinstance(outbox, list)
        for outbox_id in outbox:
            self.deliver(outbox_id)
            if row["thread_ts"] is None:
                self.store.watch_thread_from(row["id"], outbox_id)
        return texts


class AutoDiagnosis:
    """[[watch.auto]]: each entry's cluster is asked for jobs that ended badly; every job in scope is diagnosed
    in the entry's channel once (recorded with its announcement in one transaction: never twice, across restarts
    and processes), and jobs that ended before the entry first ran are passed over, not flooded in."""

    def __init__(
        self,
        config: Config,
        store: Store,
        matcher: signatures.Matcher,
        deliver: Callable[[int], None],
        ended: Callable[..., list[dict]] = ended_jobs,
        clock: Callable[[], float] = time.time,
        answer: Callable[[str, str, str, str | None], None] | None = None,
        fetch: Callable[[JobRef, Config], FetchResult] = fetch_job,
    ):
        self.config, self.store, self.matcher, self.deliver = config, store, matcher, deliver
        self.fetch = fetch
        self.answer = answer  # the whole diagnosis with buttons (see JobWatches.answer); else a text summary
        self.ended, self.clock = ended, clock
        self.next_at: dict[str, float] = {}

    def tick(self) -> None:
        now = self.clock()
        for entry in self.config.watch.auto:
            if self.next_at.get(entry.key, 0) > now:
                continue
            self.next_at[entry.key] = now + seconds(entry.poll)
            try:
                self.look(entry)
            except FetchError as exc:
                log.warning("watch.auto %s: %s", entry.key, exc)

    def in_scope(self, entry: AutoWatch, job: dict) -> bool:
        return (
            (not entry.partitions or job.get("Partition") in entry.partitions)
            and (not entry.accounts or job.get("Account") in entry.accounts)
            and (not entry.users or job.get("user") in entry.users)
            and (entry.name is None or re.search(entry.name, job.get("JobName", "")) is not None)
        )

    def look(self, entry: AutoWatch) -> list[str]:
        """One look at the entry's cluster; returns the job ids announced."""
        started, first_look = self.store.auto_started(entry.key, self.clock())
        seen = self.store.auto_seen(entry.key)
        announced = []
        states = set(entry.states) | ({"RUNNING"} if entry.watch_running else set())
        listed = self.ended(entry.cluster, self.config, states, namespace=entry.namespace, selector=entry.selector)
        for job in listed:
            job_id = job.get("JobId", "")
            if job.get("JobState") == "RUNNING":
                if job_id and self.in_scope(entry, job):
                    self._watch(entry, job_id)
                continue
            if not job_id or job_id in seen or not self.in_scope(entry, job):
                continue
            # what the first look finds ended before the entry ran (the controller's EndTime is its local time,
            # not comparable with ours): passed over, not flooded in
            if first_look or (job.get("end") is not None and job["end"] < started):
                self.store.auto_record(entry.key, job_id, job.get("JobState", ""), None)
                continue
            try:
                announced += self._answer(entry, job, job_id)
            except Exception:
                log.exception("watch.auto %s: job %s could not be answered", entry.key, job_id)
        return announced

    def _watch(self, entry: AutoWatch, job_id: str) -> None:
        """watch_running: a running job in scope gets a watch in the entry's channel (one per job: the store
        refuses a second), without a thread: it posts nothing until it has an alert, whose message becomes its
        thread; when the job ends having said nothing, it ends silently (a failure is this entry's to answer)."""
        if self.store.add_watch(entry.cluster, job_id, entry.channel, None, AUTO_WATCHER + entry.key, self.clock()):
            log.info("watch.auto %s: watching running job %s", entry.key, job_id)

    def _answer(self, entry: AutoWatch, job: dict, job_id: str) -> list[str]:
        """Answer for one failed job in scope, once: claimed (or recorded with its post) in one transaction."""
        if self.answer is not None:
            if not self.store.auto_claim(entry.key, job_id, job.get("JobState", "")):
                return []  # another process answers it
            self.answer(f"auto:{entry.key}:{job_id}", f"{entry.cluster}/{job_id}", entry.channel, None)
            return [job_id]
        text = render.auto_diagnosis(job, *self._diagnose(entry, job_id))
        outbox = self.store.auto_record(entry.key, job_id, job.get("JobState", ""), (entry.channel, text))
        if outbox is None:
            return []
        self.deliver(outbox)
        return [job_id]

    def _diagnose(self, entry: AutoWatch, job_id: str) -> tuple[signatures.Report | None, str | None]:
        try:
            ref = parse_job_ref(f"{entry.cluster}/{job_id}", self.config)
            return fetched_report(ref, self.config, self.matcher, self.fetch), None
        except FetchError as exc:
            return None, str(exc)
