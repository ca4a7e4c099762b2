"""The composition root: one App, one matcher, store, client, metrics, inbox and services, handed to the
listeners (bot/listeners/); cross-cutting concerns as middleware."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from slack_bolt import App, BoltRequest, BoltResponse
from slack_sdk.errors import SlackApiError

import signatures
from bot.diagnose import Diagnoser
from bot.fetch import parse_job_ref
from bot.followups import FollowUps
from bot.inbox import MAX_ATTEMPTS, Inbox
from bot.listeners import actions, commands, events
from bot.metrics import Metrics
from bot.responder import Responder, Target
from bot.settings import Settings
from bot.slack_client import DenpexWebClient
from bot.store import Store
from bot.watching.jobs import AutoDiagnosis, JobWatches

log = logging.getLogger("denpex.bot")


def request_kind(body: dict) -> str:
    """What Slack sent, for the metrics: event, command, action, view, or other."""
    if body.get("command"):
        return "command"
    return {
        "event_callback": "event",
        "url_verification": "event",
        "block_actions": "action",
        "view_submission": "view",
        "view_closed": "view",
    }.get(body.get("type") or "", "other")


class DenpexApp(App):
    """Bolt's App, with the services build_app wires (for the server, the health check and the tests) and
    the time to each ack in the metrics (Bolt's dispatch returns once the listener acked), in HTTP and
    Socket Mode alike."""

    responder: Responder
    followups: FollowUps
    watches: JobWatches
    metrics: Metrics
    inbox: Inbox

    def dispatch(self, req: BoltRequest) -> BoltResponse:
        started = time.perf_counter()
        response = super().dispatch(req)
        kind = request_kind(req.body if isinstance(req.body, dict) else {})
        self.metrics.requests.labels(kind, str(response.status)).inc()
        self.metrics.ack_seconds.labels(kind).observe(time.perf_counter() - started)
        return response


def web_client(settings: Settings, metrics: Metrics | None = None) -> DenpexWebClient:
    """The one WebClient: configurable base URL (GovSlack, Enterprise Grid, tests), retries 429s, masks and counts."""
    return DenpexWebClient(
        token=settings.bot_token, base_url=settings.api_url, timeout=30, metrics=metrics or Metrics()
    )


def build_app(
    settings: Settings, store: Store, http: httpx.Client | None = None, matcher: signatures.Matcher | None = None
) -> DenpexApp:
    """The composition root: one metrics registry, one Slack client, one matcher (bundled library + the
    site's extra_dirs), shared by the answers, the follow-ups and the health endpoints."""
    http = http or httpx.Client(timeout=httpx.Timeout(settings.config.bot.download_timeout_seconds, connect=10))
    metrics = Metrics()
    inbox = Inbox(store, settings.config.bot.request_lease_seconds)
    matcher = matcher or signatures.cached_matcher([signatures.LIBRARY_DIR, *settings.config.signatures.extra_dirs])
    service = Diagnoser(settings, store, http, matcher, metrics)
    responder = Responder(settings, store, service, metrics, inbox)
    app = DenpexApp(
        client=web_client(settings, metrics),
        signing_secret=settings.signing_secret,
        # HTTP mode checks the signature on the raw bytes before Bolt parses anything (bot/server.py);
        # Socket Mode has none to check
        request_verification_enabled=False,
        process_before_response=False,
        ignoring_self_events_enabled=True,
        # Bolt's default is 5 threads, shared by every listener: a burst could hold them all
        listener_executor=ThreadPoolExecutor(max_workers=16, thread_name_prefix="listener"),
    )

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

    followups = FollowUps(settings.config, store, app.client, matcher, metrics)
    followups.on_final = lambda incident_id: responder.refresh(app.client, incident_id)

    def hand_job(key: str, body: dict) -> None:
        def work() -> bool:
            ref = parse_job_ref(body["job"], settings.config)
            responder.diagnose_job(app.client, Target(body["channel"], body.get("thread_ts"), None, key), ref)
            return True

        inbox.finish_unless_handed(key, work)

    def answer_job(key: str, job: str, channel: str, thread_ts: str | None) -> None:
        """A diagnosis nobody typed (a watched job's failure, a [[watch.auto]] job), answered like `/denpex diagnose`
        (buttons, incident, follow-ups): recorded as a request first, so a restart finishes it and the same key
        asked again (the next look, another process) is not answered twice."""
        body = {"job": job, "channel": channel, "thread_ts": thread_ts}
        if inbox.accept(key, "job", body):
            hand_job(key, body)

    deliver = lambda outbox_id: followups.deliver(only=outbox_id)  # noqa: E731
    # the logs of watched Kubernetes jobs: DENPEX_SPOOL_DIR, else next to a SQLite file (its directory is the bot's)
    watches = JobWatches(settings.config, store, matcher, deliver=deliver, answer=answer_job, spool=settings.spool_dir)
    auto = AutoDiagnosis(settings.config, store, matcher, deliver=deliver, answer=answer_job)

    def every_tick() -> None:
        """Besides the follow-ups: requests to resume, and the watched jobs' next looks."""
        for work in (inbox.tick, watches.tick, auto.tick):
            try:
                work()
            except Exception:
                log.exception("periodic %s failed", work.__qualname__)

    followups.also_every_tick = every_tick

    diagnose_command = commands.register(app, store, inbox, responder, service, watches)
    route_event = events.register(app, inbox, responder)
    actions.register(app, responder, followups)

    def resume(row: dict) -> None:
        """A request another process accepted and never finished (killed, or stopped mid-way): finish it here."""
        key, body = row["key"], row["body"]
        if row["attempts"] > MAX_ATTEMPTS:
            log.error("request %s failed %d times: giving up", key, row["attempts"] - 1)
            responder.give_up(app.client, row)
            inbox.done(key, "gave_up")
            return
        if row["kind"] == "event":
            inbox.finish_unless_handed(key, lambda: route_event(body.get("event") or {}, app.client, key))
        elif row["kind"] == "job":
            hand_job(key, body)
        else:
            inbox.finish_unless_handed(key, lambda: diagnose_command(body, lambda **_: None, app.client, key))

    inbox.resume = resume

    @app.error
    def on_error(error, body, logger):
        logger.exception("unhandled error for a %s request: %s", body.get("type"), error)

    app.responder = responder  # for tests and the health check
    app.followups = followups
    app.watches = watches
    app.metrics = metrics
    app.inbox = inbox
    return app


def start_error(api_url: str, exc: Exception) -> str:
    """What failed at start, where: Slack's auth.test at the API the bot was pointed at."""
    where = api_url if "slack.com" not in api_url else "slack.com"
    origin = "" if where == "slack.com" else " (DENPEX_SLACK_API_URL)"
    if isinstance(exc, SlackApiError):  # Slack answered, and refused
        said = f"Slack refused the token: {exc.response.get('error')}"
    else:  # urllib's URLError carries the socket's error as its reason
        said = str(getattr(exc, "reason", None) or exc)
    return f"checking the bot token with auth.test on {where}{origin} failed: {said}"
