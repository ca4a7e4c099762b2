"""The Bolt app: one App, thin listeners, cross-cutting concerns as middleware."""

from __future__ import annotations

import logging
import re
import time

from concurrent.futures import ThreadPoolExecutor

import httpx
from slack_bolt import App, BoltResponse
from slack_sdk.errors import SlackApiError

import signatures

from bot.fetch import FetchError, parse_job_ref
from bot.followups import FollowUps
from bot.inbox import MAX_ATTEMPTS, Inbox
from bot.metrics import Metrics
from bot import render
from bot.render import ACK, CHECKLIST, FIX, FIX_VIEW, MORE, NOT_THIS, status_message
from bot.responder import JOB_REF, Responder, Target, looks_like_log_file
from bot.settings import Settings
from bot.slack_client import DenpexWebClient
from bot.store import Store, StoreError
from bot.work import ShuttingDown, Task

log = logging.getLogger("denpex.bot")

SLASH_TEXT_LIMIT = 4000  # Slack cuts slash-command text here
TRUNCATION_MARGIN = 50
MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
FENCE = re.compile(r"^```|```$")

ERROR_WORDS = re.compile(r"error|exception|traceback|fault|fail|killed|abort|timeout|timed out|nccl|cuda|oom|"
                         r"signal|exit|denied|refused|nan|panic|fatal", re.I)


def looks_like_a_paste(text: str) -> bool:
    """Several lines, a long line, or one short line that reads like an error: worth diagnosing.
    Anything else one-line (`; rm -rf /`, `１２３`, a typo'd job id) gets a refusal that says why."""
    return "\n" in text.strip() or len(text) >= 80 or bool(ERROR_WORDS.search(text))


def web_client(settings: Settings, metrics: Metrics | None = None) -> DenpexWebClient:
    """The one WebClient: configurable base URL (GovSlack, Enterprise Grid, tests), retries 429s, masks and counts."""
    return DenpexWebClient(token=settings.bot_token, base_url=settings.api_url, timeout=30,
                           metrics=metrics or Metrics())


def build_app(settings: Settings, store: Store, http: httpx.Client | None = None,
              matcher: signatures.Matcher | None = None) -> App:
    """The composition root: one metrics registry, one Slack client, one matcher (bundled library + the
    site's extra_dirs), shared by the answers, the follow-ups and the health endpoints."""
    http = http or httpx.Client(timeout=httpx.Timeout(settings.config.bot.download_timeout_seconds, connect=10))
    metrics = Metrics()
    inbox = Inbox(store, settings.config.bot.request_lease_seconds)
    matcher = matcher or signatures.cached_matcher([signatures.LIBRARY_DIR, *settings.config.signatures.extra_dirs])
    responder = Responder(settings, store, http, matcher, metrics, inbox)
    app = App(client=web_client(settings, metrics), signing_secret=settings.signing_secret,
              # HTTP mode checks the signature on the raw bytes before Bolt parses anything (bot/server.py);
              # Socket Mode has none to check
              request_verification_enabled=False,
              process_before_response=False, ignoring_self_events_enabled=True,
              # Bolt's default is 5 threads, shared by every listener: a burst could hold them all
              listener_executor=ThreadPoolExecutor(max_workers=16, thread_name_prefix="listener"))

    @app.middleware
    def one_client(context, next):
        """Bolt hands listeners a fresh plain WebClient per request; ours masks and counts every call."""
        context["client"] = app.client
        return next()

    @app.middleware
    def once_per_event(body: dict, next, logger) -> BoltResponse | None:
        """Slack retries events it thinks were lost: accept each event id once (durably, before the ack),
        answer its retries with a bare 200, even across restarts and processes."""
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id and not inbox.accept(f"event:{event_id}", "event", body):
            logger.info("event %s already accepted: acknowledging the retry", event_id)
            return BoltResponse(status=200, body="")
        return next()

    followups = FollowUps(settings.config, store, app.client, matcher=matcher, metrics=metrics)
    followups.on_final = lambda incident_id: responder.refresh(app.client, incident_id)
    followups.also_every_tick = inbox.tick

    def diagnose_command(body: dict, ack, client, key: str | None) -> bool:
        """`/denpex diagnose …`; True when the work was handed to the responder (which finishes `key`)."""
        rest = (body.get("text") or "").strip().partition(" ")[2].strip()
        if not rest:
            ack(text=render.NOTHING_TO_DIAGNOSE)
            return False
        user = body.get("user_id", "")
        target = Target(body["channel_id"], None, user, key)
        if JOB_REF.match(rest):
            try:
                ref = parse_job_ref(rest, settings.config)
            except FetchError as exc:
                ack(text=render.warning(exc))
                return False
            if not responder.allowed(client, user, ref.cluster):
                log.warning("denied: user %s may not fetch job %s from cluster %s", user, ref.job_id, ref.cluster)
                ack(text=render.not_allowed(ref.cluster))
                return False
            ack()
            responder.diagnose_job(client, target, ref)
            return True
        if not looks_like_a_paste(rest):
            ack(text=render.not_a_paste(rest))
            return False
        ack()
        notes = []
        if len(body.get("text") or "") >= SLASH_TEXT_LIMIT - TRUNCATION_MARGIN:
            notes.append(render.PASTE_TRUNCATED)
        responder.diagnose_text(client, target, FENCE.sub("", rest).strip("\n"), notes)
        return True

    @app.command("/denpex")
    def on_command(ack, body, client):
        verb = (body.get("text") or "").strip().partition(" ")[0].lower()
        if verb == "status":
            ack(text=status_message(store.open_incidents(body["channel_id"])))
            return
        if verb != "diagnose":
            ack(text=render.help_message(verb))
            return
        key = f"command:{body.get('trigger_id') or body.get('channel_id', '') + ':' + str(time.time())}"
        inbox.accept(key, "command", body)  # recorded before the ack; a slash command is never retried
        finish_unless_handed(key, lambda: diagnose_command(body, ack, client, key))

    def answer_file(client, key: str | None, file_id: str, channel: str, thread_ts: str | None, user: str | None,
                    info: dict) -> bool:
        if not looks_like_log_file(info):
            return False
        # file_shared and message/file_share: one upload, one answer (the same request may claim it again)
        if not store_first_time(f"file:{file_id}", key):
            return False
        responder.diagnose_file(client, Target(channel, thread_ts, user, key), file_id)
        return True

    def store_first_time(claim: str, key: str | None) -> bool:
        try:
            return store.first_time(claim, owner=key)
        except StoreError as exc:
            log.error("cannot record %s: %s; answering anyway", claim, exc)
            return True

    def route_event(event: dict, client, key: str | None) -> bool:
        """What an event asks for; True when the work was handed to the responder (which finishes `key`)."""
        kind, subtype = event.get("type"), event.get("subtype")
        if kind == "message" and subtype == "file_share":
            thread_ts = event.get("thread_ts") or event.get("ts")
            handed = False
            for f in event.get("files", []):  # the request is finished with the first file's answer
                if answer_file(client, None if handed else key, f["id"], event["channel"], thread_ts,
                               event.get("user"), f):
                    handed = True
            return handed
        if kind == "file_shared":
            file_id = event.get("file_id") or (event.get("file") or {}).get("id")
            if not file_id:
                log.warning("file_shared event without a file id: ignored")
                return False
            info = client.files_info(file=file_id)["file"]
            channel = event.get("channel_id")
            shares = {**info.get("shares", {}).get("public", {}), **info.get("shares", {}).get("private", {})}
            share = (shares.get(channel) or [{}])[0]
            return answer_file(client, key, file_id, channel, share.get("thread_ts") or share.get("ts"),
                               event.get("user_id"), info)
        if kind == "app_mention":
            return on_mention(event, client, key)
        return False  # plain messages are not for the bot

    def on_mention(event: dict, client, key: str | None) -> bool:
        channel = event["channel"]
        thread_ts = event.get("thread_ts") or event["ts"]
        target = Target(channel, thread_ts, event.get("user"), key)
        text = FENCE.sub("", MENTION.sub("", event.get("text") or "")).strip("\n ")
        if len(text.splitlines()) >= 2 or len(text) >= 80:
            responder.diagnose_text(client, target, text, [])
            return True
        files = [f for f in event.get("files", []) if looks_like_log_file(f)]
        if not files and event.get("thread_ts"):
            parent = client.conversations_replies(channel=channel, ts=event["thread_ts"], limit=1)["messages"][0]
            files = [f for f in parent.get("files", []) if looks_like_log_file(f)]
        if files:
            responder.diagnose_file(client, target, files[0]["id"])
            return True
        client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=render.MENTION_WITHOUT_LOG)
        return False

    def finish_unless_handed(key: str | None, route) -> None:
        """Run `route`; a request it did not hand to the responder (which finishes it) is finished here."""
        handed = False
        try:
            handed = route()
        finally:
            if not handed:
                inbox.done(key)

    def on_event(body, client):
        key = f"event:{body['event_id']}" if body.get("event_id") else None

        def route() -> None:
            finish_unless_handed(key, lambda: route_event(body.get("event") or {}, client, key))

        try:
            responder.intake.submit(Task(f"event {key}", route, key=key))
        except ShuttingDown:
            inbox.handed_over([key])  # accepted, not started: the next process answers it

    for matcher_ in ({"type": "message", "subtype": "file_share"}, "file_shared", "message", "app_mention"):
        app.event(matcher_)(on_event)

    def resume(row: dict) -> None:
        """A request another process accepted and never finished (killed, or stopped mid-way): finish it here."""
        key, body = row["key"], row["body"]
        if row["attempts"] > MAX_ATTEMPTS:
            log.error("request %s failed %d times: giving up", key, row["attempts"] - 1)
            responder.give_up(app.client, row)
            inbox.done(key, "gave_up")
            return
        if row["kind"] == "event":
            finish_unless_handed(key, lambda: route_event(body.get("event") or {}, app.client, key))
        else:
            finish_unless_handed(key, lambda: diagnose_command(body, lambda **_: None, app.client, key))

    inbox.resume = resume

    @app.action(ACK)
    @app.action(FIX)
    @app.action(NOT_THIS)
    @app.action(MORE)
    @app.action(CHECKLIST)
    def on_button(ack, body, client, logger):
        ack()
        try:
            responder.on_action(client, body)
        except SlackApiError as exc:  # tell the person who pressed it; never leave Bolt an exception
            logger.warning("button %s failed: %s", body["actions"][0].get("action_id"), exc.response.get("error"))
            client.chat_postEphemeral(channel=body["channel"]["id"], user=body["user"]["id"],
                                      text=render.button_failed(exc.response.get("error")))

    @app.view(FIX_VIEW)
    def on_fix_submitted(ack, body, view, client):
        errors = responder.fix_submitted(client, followups, body, view)
        if errors:
            ack(response_action="errors", errors=errors)
        else:
            ack()

    @app.error
    def on_error(error, body, logger):
        logger.exception("unhandled error for a %s request: %s", body.get("type"), error)

    app.responder = responder  # for tests and the health check
    app.followups = followups
    app.metrics = metrics
    app.inbox = inbox
    return app
