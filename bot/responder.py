"""Turning a request (pasted log, shared file, button press) into an answer in its thread.

Listeners stay thin: they ack, then call one of these. This is the Slack side of a diagnosis: the
progress message, the queue, the answer and the buttons; the diagnosis service (bot/diagnose.py)
fetches, downloads and scans, after the ack.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

import signatures
from bot import feedback, render
from bot.diagnose import Diagnoser, NotAllowed
from bot.fetch import FetchError, JobRef
from bot.inbox import Inbox
from bot.metrics import Metrics
from bot.redact import redact
from bot.render import (
    ACK,
    CHECKLIST,
    CHECKLIST_BLOCK,
    DRAFT,
    FIX,
    MORE,
    MUTE,
    NOT_THIS,
    UNMUTE,
    USEFUL,
    MessageState,
    details_message,
    diagnosis_message,
    draft_lines,
    draft_modal,
    evidence_file,
    fix_modal,
    not_this_modal,
    notice_message,
    progress_message,
    queued_message,
    timeline_steps,
)
from bot.settings import Settings
from bot.slack_files import DownloadError, human_size
from bot.store import Store, StoreError
from bot.timeline import render as render_timeline
from bot.work import ShuttingDown, Task, WorkQueue

log = logging.getLogger("denpex.bot")


@dataclass
class Target:
    """Where the answer goes, and the request it answers (finished when the answer is posted)."""

    channel: str
    thread_ts: str | None
    user: str | None
    request: str | None = None
    asked: str | None = None  # a slash command's: what it asked about ("a pasted log"), said in the channel


class Responder:
    def __init__(self, settings: Settings, store: Store, service: Diagnoser, metrics: Metrics, inbox: Inbox):
        self.settings = settings
        self.inbox = inbox
        self.store = store
        self.service = service
        self.metrics = metrics
        # downloads and job fetches can be slow: a paste (a few KB, scanned in milliseconds) never waits behind them
        self.heavy = WorkQueue(settings.config.bot.max_concurrent_diagnoses, metrics, "diagnose")
        self.quick = WorkQueue(2, metrics, "paste")
        # events are routed here (files.info, the thread's parent, the first message), not on Bolt's few
        # listener threads, which must stay free to ack slash commands and button presses
        self.intake = WorkQueue(2, None, "intake")
        library = service.matcher.library
        self.classes = [(key, cls.family) for key, cls in library.taxonomy.items()]  # Not this: what was it?
        self.draft_classes = [c for c in self.classes if c[0] != "healthy"]  # a draft is of a failure
        self._workspace: str | None = None
        # the track record the buttons build, per signature on /metrics, read from the database at each scrape
        metrics.track_signatures(lambda: feedback.records(store), library.by_id())

    def workspace_url(self, client: WebClient) -> str | None:
        """The workspace's address (auth.test, asked once), for links to incident threads; None when Slack
        does not say."""
        if self._workspace is None:
            try:
                self._workspace = client.auth_test().get("url") or ""
            except SlackApiError as exc:
                log.warning("auth.test failed: %s", exc.response.get("error"))
                return None
        return self._workspace or None

    def close(self, grace: float, client: WebClient | None = None) -> None:
        """Shutdown: take no new work; running diagnoses get `grace` seconds to post their answers. What is
        left (never started, or still running) is handed to the next process, which answers in the same message."""
        deadline = time.monotonic() + grace
        left = self.intake.close(min(grace, 2.0))
        left += self.quick.close(max(0.0, deadline - time.monotonic()))
        left += self.heavy.close(max(0.0, deadline - time.monotonic()))
        left += self.intake.unfinished() + self.quick.unfinished() + self.heavy.unfinished()
        self.inbox.handed_over([t.key for t in left if t.key])
        for task in left:
            log.warning("%s was not finished at shutdown: handed to the next start", task.name)
            if client and task.message:
                _say_restarting(client, *task.message)

    # -- diagnoses --------------------------------------------------------------

    def diagnose_text(self, client: WebClient, target: Target, text: str, notes: list[str]) -> None:
        body = text.encode("utf-8", "replace")
        fingerprint = "text:" + hashlib.sha256(body).hexdigest()
        self._run(
            client,
            target,
            "pasted log",
            len(body),
            lambda progress: self.service.scan_paste(body, progress),
            fingerprint,
            notes,
            queue=self.quick,
        )

    def diagnose_job(self, client: WebClient, target: Target, ref: JobRef) -> None:
        """Fetch a job's logs from its cluster, then diagnose them like an upload."""
        self._run(
            client,
            target,
            f"job {ref.raw}",
            None,
            lambda progress: self.service.scan_job(ref, progress),
            f"job:{ref.cluster}/{ref.job_id}",
            [],
            expected=(FetchError,),
            job=f"{ref.cluster}/{ref.job_id}",
        )

    def diagnose_file(self, client: WebClient, target: Target, file_id: str) -> None:
        try:
            info = client.files_info(file=file_id)["file"]
        except SlackApiError as exc:
            self._notice(client, target, render.unreadable_file(exc.response.get("error")))
            return
        name = info.get("name") or file_id
        size = info.get("size")
        limit = self.settings.config.bot.max_file_bytes
        if size == 0:
            self._notice(client, target, render.empty_file(name))
            return
        if size and size > limit:
            self._notice(client, target, render.file_too_big(name, human_size(size), human_size(limit)))
            return
        url = info.get("url_private_download") or info.get("url_private")
        if not url:
            self._notice(client, target, render.no_download_address(name))
            return
        fingerprints: list[str] = []  # the content's, known once it is downloaded

        def scan(progress):
            downloaded = self.service.scan_download(url, name, progress)
            fingerprints.append(downloaded.fingerprint)
            return downloaded.report

        self._run(client, target, name, size, scan, lambda: fingerprints[0] if fingerprints else "", [])

    def _run(
        self,
        client: WebClient,
        target: Target,
        source: str,
        total: int | None,
        scan,
        fingerprint,
        notes: list[str],
        expected: tuple = (),
        job: str | None = None,
        queue: WorkQueue | None = None,
    ) -> None:
        """Post the progress message now (queued or started), and leave the work to a worker."""
        queue = queue or self.heavy
        source = redact(source)
        submitted = False
        try:
            if isinstance(fingerprint, str) and self._link_existing(client, target, fingerprint):
                return
            ahead = queue.ahead()
            first = (
                progress_message(source, 0, total) if ahead is None else queued_message(source, ahead, queue.workers)
            )
            # a slash paste is answered once its (quick) scan says what it is: "no failure found" goes to the
            # asker alone; anything else is announced in the channel with the answer in its thread
            deferred = target.asked is not None and queue is self.quick and not self._answered_before(target)
            message: list = []
            if deferred:
                if ahead is not None:
                    self._tell_asker(client, target, first)
            else:
                channel, ts, target = self._first_message(client, self._announced(client, target), first)
                self.inbox.answering(target.request, channel, ts)
                message += [channel, ts]

            def started() -> None:
                if ahead is not None and message:  # it said "queued": say it has started
                    client.chat_update(channel=message[0], ts=message[1], **_kw(progress_message(source, 0, total)))

            def work() -> None:
                retry = False
                try:
                    self._diagnose(client, target, message, source, total, scan, fingerprint, notes, expected, job)
                except Exception as exc:
                    retry = self._retry_later(target, exc)
                    raise
                finally:  # answered (or told why not): a process that dies before this leaves it to the next
                    if not retry:
                        self.inbox.done(target.request)

            try:
                queue.submit(Task(f"diagnosis of {source}", work, started, target.request, tuple(message) or None))
            except ShuttingDown:  # arrived during shutdown: the next process answers it, in this message
                self.inbox.handed_over([target.request] if target.request else [])
                if message:
                    _say_restarting(client, *message)
            submitted = True
        except Exception as exc:
            if self._retry_later(target, exc):
                submitted = True  # not done: retried
            raise
        finally:
            if not submitted:
                self.inbox.done(target.request)

    def _retry_later(self, target: Target, exc: Exception) -> bool:
        """Slack could not take the answer (down, or still rate limiting after the client's own retries): the
        request is not done; a lease later, the inbox's look takes it over (in this process or another) and
        answers in the same message (a request that fails MAX_ATTEMPTS times is given up, saying so). Anything
        else: False."""
        if target.request is None or not slack_unreachable(exc):
            return False
        log.warning("request %s: Slack did not take the answer (%s); it is retried", target.request, exc)
        self.inbox.retry_later(target.request)
        return True

    def _answered_before(self, target: Target) -> bool:
        """An earlier process posted this request's message: it is answered there, not deferred."""
        earlier = self.store.request(target.request) if target.request else None
        return bool(earlier and earlier.get("answer_ts"))

    def _announced(self, client: WebClient, target: Target) -> Target:
        """A slash command's answer goes in the thread of a one-line message in the channel naming who asked
        (an earlier process's message is reused instead, in the thread it was posted in)."""
        if target.asked is None or target.thread_ts is not None:
            return target
        earlier = self.store.request(target.request) if target.request else None
        if earlier and earlier.get("answer_ts"):
            thread = self._thread_of(client, earlier["answer_channel"], earlier["answer_ts"])
            return Target(target.channel, thread, target.user, target.request, target.asked) if thread else target
        posted = client.chat_postMessage(channel=target.channel, text=render.asked(target.user or "", target.asked))
        return Target(posted.get("channel", target.channel), posted["ts"], target.user, target.request, target.asked)

    def _thread_of(self, client: WebClient, channel: str, ts: str) -> str | None:
        """The thread a message of ours is a reply in (the channel's line a restarted slash diagnosis goes on
        under), or None: not a reply, or Slack will not say."""
        try:
            found = client.conversations_replies(channel=channel, ts=ts, limit=1)["messages"]
        except SlackApiError as exc:
            log.warning("cannot find the thread of message %s: %s", ts, exc.response.get("error"))
            return None
        parent = found[0].get("thread_ts") if found else None
        return parent if parent and parent != ts else None

    def _tell_asker(self, client: WebClient, target: Target, message: tuple[str, list[dict]]) -> None:
        client.chat_postEphemeral(channel=target.channel, user=target.user or "", **_kw(message))

    def _first_message(self, client: WebClient, target: Target, first: tuple[str, list[dict]]) -> tuple:
        """Post the first visible sign of work, or reuse the one an earlier (stopped) process posted."""
        earlier = self.store.request(target.request) if target.request else None
        if earlier and earlier.get("answer_ts"):
            try:
                client.chat_update(channel=earlier["answer_channel"], ts=earlier["answer_ts"], **_kw(first))
                return earlier["answer_channel"], earlier["answer_ts"], target
            except SlackApiError as exc:
                log.warning("cannot reuse the message of request %s: %s", target.request, exc.response.get("error"))
        try:
            posted = client.chat_postMessage(channel=target.channel, thread_ts=target.thread_ts, **_kw(first))
        except SlackApiError as exc:
            if exc.response.get("error") not in ("thread_not_found", "invalid_thread_ts") or not target.thread_ts:
                raise
            # the message we were asked about is gone: answer in the channel instead
            target = Target(target.channel, None, target.user, target.request)
            posted = client.chat_postMessage(channel=target.channel, **_kw(first))
        return posted.get("channel", target.channel), posted["ts"], target

    def _diagnose(
        self,
        client: WebClient,
        target: Target,
        message: list,
        source: str,
        total: int | None,
        scan,
        fingerprint,
        notes: list[str],
        expected: tuple,
        job: str | None,
    ) -> None:
        """Scan, then answer in `message` ([channel, ts]; empty for a deferred slash paste: posted here)."""
        interval = self.settings.config.bot.progress_interval_seconds

        def update(done: int, verb: str) -> None:
            if message:
                client.chat_update(
                    channel=message[0], ts=message[1], **_kw(progress_message(source, done, total, verb))
                )

        progress = _Progress(update, interval)
        started = time.perf_counter()
        try:
            report = scan(progress)
        except (signatures.InputError, DownloadError, *expected) as exc:
            self.service.refused(source, exc)
            self._answer_notice(client, target, message, render.warning(exc))
            return
        except Exception:
            self.service.failed(source)
            self._answer_notice(client, target, message, render.DIAGNOSIS_FAILED)
            return
        seconds = time.perf_counter() - started
        timeline = report.timeline if isinstance(report, signatures.ScannedReport) else None  # not in the JSON
        repeat = self.service.host_repeat(report)
        if repeat is not None:
            notes = [*notes, repeat]
        report = self.service.finished(report, notes, seconds)
        if not message:  # a slash paste: healthy or not a log to the asker alone, anything else in the channel
            if report.outcome == "healthy":
                self._tell_asker(client, target, render.healthy_message(report, source, notes))
                return
            if report.outcome == "not_a_log":
                self._tell_asker(client, target, render.not_a_log_message(report, source, notes))
                return
            channel, ts, target = self._first_message(
                client, self._announced(client, target), progress_message(source, 0, total)
            )
            self.inbox.answering(target.request, channel, ts)
            message += [channel, ts]
        channel, ts = message
        fp = fingerprint() if callable(fingerprint) else fingerprint
        existing = self.store.find_incident(fp)
        if existing and (existing.channel, existing.message_ts) == (channel, ts):
            self._complete(client, target, existing.id)  # an earlier process recorded it, then stopped posting
            return
        if existing:
            self._link_to(client, target, existing, (channel, ts))
            return  # the same content or job was diagnosed meanwhile: the progress message now links there
        try:
            incident_id = self.service.open_incident(
                report, (channel, ts), target.thread_ts, source, fp, target.user, job, seconds
            )
        except StoreError as exc:
            client.chat_update(channel=channel, ts=ts, **_kw(notice_message(render.not_recorded(exc, report))))
            return
        opened = self.store.incident(incident_id)
        if opened is not None and (opened.channel, opened.message_ts) != (channel, ts):
            # another replica opened it at the same moment, in its own message: one answer, this one links there
            self._link_to(client, target, opened, (channel, ts))
            return
        state = MessageState(incident_id, source, notes=notes, opened_at=_epoch(ts))
        client.chat_update(channel=channel, ts=ts, **_kw(diagnosis_message(report, state)))
        thread = target.thread_ts or ts
        self._post_details(client, incident_id, report, state, channel, thread)
        self._say_found(client, target, channel, target.thread_ts, report)
        if timeline is not None:
            post_timeline(client, timeline, channel, thread, incident_id, source)

    def _say_found(
        self, client: WebClient, target: Target, channel: str, thread: str | None, report: signatures.Report
    ) -> None:
        """A slash diagnosis's line in the channel says what was found."""
        if target.asked is not None and thread:
            client.chat_update(channel=channel, ts=thread, text=render.asked(target.user or "", target.asked, report))

    def _complete(self, client: WebClient, target: Target, incident_id: int) -> None:
        """An answer recorded by an earlier attempt that did not finish posting it (Slack did not take it, or the
        process died): the answer in its message, its details in the thread unless they were posted, and the
        channel's line."""
        incident = self.store.incident(incident_id)
        if incident is None or not incident.message_ts:
            return
        self.refresh(client, incident.id)
        actions = self.store.actions(incident.id)
        if not any(a["action"] == "details" and a["user_id"] == DENPEX for a in actions):
            thread = incident.thread_ts or incident.message_ts
            state = self._state(incident, actions)
            self._post_details(client, incident.id, incident.report, state, incident.channel, thread)
        self._say_found(client, target, incident.channel, incident.thread_ts, incident.report)

    def _post_details(
        self,
        client: WebClient,
        incident_id: int,
        report: signatures.Report,
        state: MessageState,
        channel: str,
        thread: str,
    ) -> None:
        """The answer's first reply in its thread (evidence, fix, checklist), recorded so that a tick or a
        button press re-renders it too."""
        details = details_message(report, state)
        if details is None:
            return
        posted = client.chat_postMessage(channel=channel, thread_ts=thread, **_kw(details))
        self.store.record_action(incident_id, DENPEX, "details", posted["ts"])

    def _answer_notice(self, client: WebClient, target: Target, message: list, text: str) -> None:
        """A refusal or a failure, in the request's message (to the asker alone when none was posted)."""
        if message:
            client.chat_update(channel=message[0], ts=message[1], **_kw(notice_message(text)))
        else:
            self._tell_asker(client, target, notice_message(text))

    def give_up(self, client: WebClient, request: dict) -> None:
        """A request whose process died again and again while working on it (a file that crashes the bot)."""
        if request.get("answer_ts"):
            client.chat_update(
                channel=request["answer_channel"], ts=request["answer_ts"], **_kw(notice_message(render.GAVE_UP))
            )

    def _link_existing(self, client: WebClient, target: Target, fingerprint: str) -> bool:
        """The same job or content was diagnosed before: point at that incident's thread instead."""
        existing = self.store.find_incident(fingerprint)
        if existing is None:
            return False
        earlier = self.store.request(target.request) if target.request else None
        if earlier and (earlier.get("answer_channel"), earlier.get("answer_ts")) == (
            existing.channel,
            existing.message_ts,
        ):  # this request opened it, and Slack did not take the answer (or the process died): answer it now
            self._complete(client, target, existing.id)
            return True
        self._link_to(client, target, existing, None)
        return True

    def _link_to(self, client: WebClient, target: Target, existing, replace: tuple | None) -> None:
        try:
            link = client.chat_getPermalink(channel=existing.channel, message_ts=existing.message_ts)["permalink"]
        except SlackApiError:
            link = None
        top = existing.report.top
        text = render.already_diagnosed(top.title if top else existing.status, existing.status, link, existing.id)
        if replace:
            client.chat_update(channel=replace[0], ts=replace[1], **_kw(notice_message(text)))
            self._say_found(client, target, replace[0], target.thread_ts, existing.report)
        else:
            self._notice(client, target, text)

    def _notice(self, client: WebClient, target: Target, text: str) -> None:
        if target.asked is not None and target.thread_ts is None:  # a slash command's: to the asker
            self._tell_asker(client, target, notice_message(text))
            return
        client.chat_postMessage(channel=target.channel, thread_ts=target.thread_ts, **_kw(notice_message(text)))

    # -- buttons ----------------------------------------------------------------

    def press(self, client: WebClient, body: dict) -> None:
        """A button or checkbox: act on it; a Slack refusal is told to the person who pressed it."""
        try:
            self.on_action(client, body)
        except SlackApiError as exc:  # never leave Bolt an exception
            log.warning("button %s failed: %s", body["actions"][0].get("action_id"), exc.response.get("error"))
            client.chat_postEphemeral(
                channel=body["channel"]["id"],
                user=body["user"]["id"],
                text=render.button_failed(exc.response.get("error")),
            )

    def on_action(self, client: WebClient, body: dict) -> None:
        action = body["actions"][0]
        user = body["user"]["id"]
        kind = action["action_id"]
        # buttons carry the incident id; the checklist's checkboxes find it through the message's buttons
        incident_id = self._incident_for_message(body) if kind == CHECKLIST else _as_int(action.get("value"))
        incident = self.store.incident(incident_id) if incident_id else None
        if incident is None:
            log.warning("action %s on an unknown incident %r", kind, incident_id)
            return
        channel = body["channel"]["id"]
        if kind == ACK:
            self.store.record_action(incident.id, user, "acknowledge", status="acknowledged")
        elif kind == NOT_THIS:  # the form first: its trigger expires in 3 s
            client.views_open(trigger_id=body["trigger_id"], view=not_this_modal(incident.id, self.classes))
            self.store.record_action(incident.id, user, "not_this", status="disputed")
            self.store.record_feedback(incident.id, user, "rejected")
            client.chat_postEphemeral(channel=channel, user=user, text=render.NOT_THIS_THANKS)
        elif kind == USEFUL:
            self.store.record_feedback(incident.id, user, "useful", action="useful")
        elif kind in (MUTE, UNMUTE):
            thread = incident.thread_ts or incident.message_ts or ""
            self.store.set_muted(incident.id, incident.channel, thread, user, kind == MUTE)
            if kind == MUTE:
                client.chat_postEphemeral(channel=channel, user=user, text=render.MUTED)
        elif kind == DRAFT:
            lines = draft_lines(incident.report)
            if not lines:
                client.chat_postEphemeral(channel=channel, user=user, text=render.NOTHING_TO_DRAFT)
                return
            picked = next(
                (f["class"] for f in self.store.feedback_of(incident.id) if f["user_id"] == user and f["class"]), None
            )
            client.views_open(
                trigger_id=body["trigger_id"], view=draft_modal(incident.id, lines, self.draft_classes, picked)
            )
            return
        elif kind == FIX:
            clusters = list(self.settings.config.clusters)
            client.views_open(trigger_id=body["trigger_id"], view=fix_modal(incident.id, incident.job, clusters))
            return
        elif kind == MORE:
            self.store.record_action(incident.id, user, "more_evidence")
            client.files_upload_v2(
                channel=channel,
                thread_ts=incident.thread_ts or incident.message_ts,
                content=evidence_file(incident.report),
                filename=f"denpex-evidence-{incident.id}.txt",
                title=f"Full evidence for {incident.source}",
            )
            return
        elif kind == CHECKLIST:
            selected = {int(o["value"]) for o in action.get("selected_options", []) if o.get("value", "").isdigit()}
            items = len(incident.report.top.checklist) if incident.report.top else 0
            self.store.set_checklist(incident.id, selected, items, user)
            self.store.record_action(incident.id, user, "checklist", ",".join(map(str, sorted(selected))))
            if selected:  # a tick confirms the diagnosis; unticking everything takes that back
                self.store.record_feedback(incident.id, user, "confirmed_checklist")
            else:
                self.store.withdraw_feedback(incident.id, user, "confirmed_checklist")
        self.refresh(client, incident.id)

    def fix_submitted(self, client: WebClient, followups, body: dict, view: dict) -> dict | None:
        """The Fix applied modal was submitted: validate, record, schedule. Returns modal errors, or None."""
        incident = self.store.incident(_as_int(view.get("private_metadata")) or 0)
        if incident is None:
            return {"rerun": render.INCIDENT_GONE}
        values = view["state"]["values"]
        typed = ((values.get("rerun", {}).get("rerun_job", {}) or {}).get("value") or "").strip()
        same = bool((values.get("same", {}).get("same_job", {}) or {}).get("selected_options"))
        note = ((values.get("note", {}).get("fix_note", {}) or {}).get("value") or "").strip()
        user = body["user"]["id"]
        job = typed or (incident.job if same else "")
        thread = incident.thread_ts or incident.message_ts
        if not job and not note:
            return {"rerun" if "rerun" in values else "note": render.FIX_NEEDS_SOMETHING}
        if note:
            self.store.record_action(incident.id, user, "fix_note", note)
        if not job:  # a fix recorded without a rerun to watch
            self.store.record_action(incident.id, user, "fix_applied", "")
            client.chat_postMessage(channel=incident.channel, thread_ts=thread, text=render.fix_recorded(user, note))
            self.refresh(client, incident.id)
            return None
        try:
            ref = self.service.job_for(job, user, group_members(client))
        except FetchError as exc:
            return {"rerun": render.rerun_refused(exc)}
        except NotAllowed as exc:
            return {"rerun": render.not_allowed_field(exc.ref.cluster)}
        job = f"{ref.cluster}/{ref.job_id}"
        self.store.record_action(incident.id, user, "fix_applied", job)
        _, first, interval, window = followups.schedule(incident.id, job, user, note)
        client.chat_postMessage(
            channel=incident.channel,
            thread_ts=thread,
            text=render.fix_applied(user, note, job, first, interval, window),
        )
        self.refresh(client, incident.id)
        return None

    def submitted(
        self, handle: Callable[[WebClient, dict, dict], None], client: WebClient, body: dict, view: dict
    ) -> None:
        """A form acknowledged before it is handled (it has closed): a Slack refusal is logged, never raised."""
        try:
            handle(client, body, view)
        except SlackApiError as exc:
            log.warning("form %s failed: %s", view.get("callback_id"), exc.response.get("error"))

    def not_this_submitted(self, client: WebClient, body: dict, view: dict) -> None:
        """What it was: the class picked and the note, recorded with the rejection (who and when)."""
        incident = self.store.incident(_as_int(view.get("private_metadata")) or 0)
        if incident is None:
            return
        picked = _chosen(view, "class")
        note = (_field(view, "note").get("value") or "").strip()
        self.store.record_feedback(incident.id, body["user"]["id"], "rejected", picked, note or None)
        self.refresh(client, incident.id)

    def draft_submitted(self, client: WebClient, body: dict, view: dict) -> None:
        """Draft a signature from the line picked (found by its index in the stored report), check it as the
        library checks itself, and post it in the incident's thread as a TOML file with how to add it."""
        incident = self.store.incident(_as_int(view.get("private_metadata")) or 0)
        if incident is None:
            return
        index = _as_int(_chosen(view, "line"))
        picked = _chosen(view, "class")
        lines = draft_lines(incident.report)
        user = body["user"]["id"]
        thread = incident.thread_ts or incident.message_ts
        if index is None or index >= len(lines):
            client.chat_postMessage(
                channel=incident.channel, thread_ts=thread, text=render.draft_failed("no line was picked")
            )
            return
        try:
            draft = signatures.draft_signature(
                lines[index],
                picked,
                source=f"incident #{incident.id} ({incident.source})",
                library=self.service.matcher.library,
            )
        except signatures.DraftError as exc:
            client.chat_postMessage(channel=incident.channel, thread_ts=thread, text=render.draft_failed(exc))
            return
        extra_dirs = [str(d) for d in self.settings.config.signatures.extra_dirs]
        self.store.record_action(incident.id, user, "draft", draft.id)
        client.files_upload_v2(
            channel=incident.channel,
            thread_ts=thread,
            content=draft.toml,
            filename=draft.filename,
            title=f"Draft signature {draft.id}",
            initial_comment=render.draft_posted(user, draft.id, draft.filename, extra_dirs, draft.checks),
        )

    def _incident_for_message(self, body: dict) -> int | None:
        """The incident of a checklist tick: its block says it (the checklist in the thread), else the buttons of
        the message it is on (an answer posted before the checklist moved to the thread)."""
        block_id = body["actions"][0].get("block_id") or ""
        if block_id.startswith(CHECKLIST_BLOCK):
            return _as_int(block_id[len(CHECKLIST_BLOCK) :])
        for block in body.get("message", {}).get("blocks", []):
            for el in block.get("elements", []):
                if str(el.get("action_id", "")).startswith("denpex_") and el.get("value", "").isdigit():
                    return int(el["value"])
        return None

    def refresh(self, client: WebClient, incident_id: int) -> None:
        """Re-render the incident's message from the stored report and everything recorded since.

        Two presses at once (two people, two threads or two replicas) each render what was recorded when they read
        it, and Slack keeps whichever update reached it last: possibly the one rendered before the other press was
        recorded. So after its update each refresh reads again, and renders again when what it showed is no longer
        what is recorded: the last refresh to finish shows everything (REFRESH_ROUNDS at most)."""
        incident = self.store.incident(incident_id)
        if incident is None or not incident.message_ts:
            return
        shown = None
        for _ in range(REFRESH_ROUNDS):
            actions = self.store.actions(incident.id)
            state = self._state(incident, actions)
            message = _kw(diagnosis_message(incident.report, state))
            rendered = details_message(incident.report, state)
            details = _kw(rendered) if rendered is not None else None
            if (message, details) == shown:
                return  # what Slack shows is what is recorded
            client.chat_update(channel=incident.channel, ts=incident.message_ts, **message)
            posted = [a["value"] for a in actions if a["action"] == "details" and a["user_id"] == DENPEX]
            if details is not None and posted:
                client.chat_update(channel=incident.channel, ts=posted[-1], **details)
            shown = (message, details)

    def _state(self, incident, actions: list[dict]) -> MessageState:
        """What the incident's messages show besides its report: who did what since it was opened."""
        state = MessageState(
            incident.id,
            incident.source,
            notes=incident.report.notes or [],
            checked=self.store.checklist(incident.id),
            opened_at=_epoch(incident.message_ts),
            steps=timeline_steps(actions, self.store.followups_of(incident.id)),
            ticked_by=_ticked_by(actions),
        )
        for f in self.store.feedback_of(incident.id):
            if f["kind"] == "useful":
                state.useful.append(f["user_id"])
            elif f["kind"] == "rejected" and (f["class"] or f["note"]):
                state.what_it_was.append((f["user_id"], f["class"], f["note"]))
        muted = self.store.muted(incident.channel, incident.thread_ts or incident.message_ts)
        if muted:
            state.muted = (muted["user_id"], muted["at"])
        return state


DENPEX = "denpex"  # who the bot's own recorded actions (the details message it posted) are by
REFRESH_ROUNDS = 3  # renders of one refresh at most: the first, and again while presses keep changing the record


def _epoch(ts: str | None) -> float | None:
    """A Slack message ts ("1796040605.000100") as seconds: when the message was posted."""
    try:
        return float(ts) if ts else None
    except ValueError:
        return None


def _ticked_by(actions: list[dict]) -> dict[int, str]:
    """Who ticked each checklist item: each tick is recorded as the whole selection its presser sent, so an
    item was ticked by whoever's selection first held it after a selection that did not."""
    ticked: dict[int, str] = {}
    before: set[int] = set()
    for a in actions:
        if a["action"] != "checklist":
            continue
        now = {int(v) for v in a["value"].split(",") if v.isdigit()}
        for item in now - before:
            ticked[item] = a["user_id"]
        for item in before - now:
            ticked.pop(item, None)
        before = now
    return ticked


def group_members(client: WebClient) -> Callable[[str], list[str]]:
    """A user group's members, for a cluster's `allow` list; a group Slack will not list has none."""

    def members(group: str) -> list[str]:
        try:
            return client.usergroups_users_list(usergroup=group)["users"]
        except SlackApiError as exc:
            log.warning("cannot read user group %s: %s", group, exc.response.get("error"))
            return []

    return members


def _field(view: dict, block: str) -> dict:
    """A submitted form's value of the element whose block_id and action_id are both `block`."""
    return (view["state"]["values"].get(block) or {}).get(block) or {}


def _chosen(view: dict, block: str) -> str | None:
    """The value of the option picked in a form's select (`block`), or None."""
    return (_field(view, block).get("selected_option") or {}).get("value") or None


def _as_int(value) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


TRANSIENT_SLACK_ERRORS = {"ratelimited", "service_unavailable", "fatal_error", "internal_error", "request_timeout"}


def slack_unreachable(exc: BaseException) -> bool:
    """Whether `exc` says Slack was unreachable or failing for a while (a retry later may work), not that it
    refused the request (a bad argument, a missing scope, a deleted channel: a retry would fail the same way)."""
    if isinstance(exc, SlackApiError):
        status = getattr(exc.response, "status_code", 200)
        return status >= 500 or status == 429 or exc.response.get("error") in TRANSIENT_SLACK_ERRORS
    return isinstance(exc, (OSError, TimeoutError))  # urllib's URLError, a refused or reset connection


def post_timeline(
    client: WebClient, timeline: signatures.Timeline, channel: str, thread: str, incident_id: int, source: str
) -> None:
    """The picture of the failure in time, in the incident's thread under the diagnosis. It is a bonus: when it
    cannot be drawn or uploaded, that is logged, and the diagnosis stands."""
    try:
        client.files_upload_v2(
            channel=channel,
            thread_ts=thread,
            file=render_timeline(timeline),
            filename=f"denpex-timeline-{incident_id}.png",
            title=redact(f"Timeline of {source}"),
            alt_txt=redact(signatures.timeline_caption(timeline))[:1000],
        )
    except Exception:
        log.exception("the timeline of incident %s was not posted", incident_id)


def _say_restarting(client: WebClient, channel: str, ts: str) -> None:
    """Work handed to the next start: its message says so until then."""
    try:
        client.chat_update(channel=channel, ts=ts, **_kw(notice_message(render.RESTARTING)))
    except SlackApiError as exc:
        log.warning("could not say so in Slack: %s", exc.response.get("error"))


def _kw(message: tuple[str, list[dict]]) -> dict:
    text, blocks = message
    return {"text": text, "blocks": blocks}


class _Progress:
    """Calls `update(bytes_done, verb)` at most every `interval` seconds while a download or scan runs."""

    def __init__(self, update, interval: float):
        self.update, self.interval = update, interval
        self.done = 0
        self.verb = "Diagnosing"
        self.last = time.monotonic()

    def phase(self, verb: str) -> None:
        self.verb, self.done = verb, 0

    def at(self, done: int) -> None:
        """Progress given as a running total (downloads)."""
        self(done - self.done)

    def __call__(self, n: int) -> None:
        """Progress given as an increment (the scanner's blocks)."""
        self.done += n
        now = time.monotonic()
        if now - self.last >= self.interval:
            self.last = now
            try:
                self.update(self.done, self.verb)
            except SlackApiError as exc:  # a lost progress update must not stop the diagnosis
                log.warning("progress update failed: %s", exc.response.get("error"))
