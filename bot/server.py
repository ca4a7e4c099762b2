"""Running the bot: HTTP mode (waitress, production WSGI server) or Socket Mode. Same App either way."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import signal
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl

from slack_bolt import BoltRequest, BoltResponse
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_bolt.adapter.wsgi.http_request import WsgiHttpRequest
from slack_bolt.context import BoltContext
from slack_bolt.request.internals import build_context
from slack_sdk.signature import SignatureVerifier

from bot.metrics import CONTENT_TYPE_LATEST
from bot.store import Store

if TYPE_CHECKING:
    from bot.app import DenpexApp

log = logging.getLogger("denpex.bot")

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"
LOOP_SECONDS = 0.25  # how soon a signal is noticed
DRAIN_SECONDS = 8.0  # in-flight requests get this long after SIGTERM (Kubernetes grants 30 s by default)


def repair_form_body(request: BoltRequest) -> BoltRequest:
    """Bolt reads any form body containing the word "payload" as an interactivity payload and, finding
    no `payload` field, drops it: a slash command with a pasted log vanishes. Parse such bodies as the
    plain form they are. (Signature verification still uses the untouched raw body.)"""
    if (
        not request.body
        and request.raw_body
        and "payload" in request.raw_body
        and not request.raw_body.lstrip().startswith("{")
    ):
        params = dict(parse_qsl(request.raw_body, keep_blank_values=True))
        if "payload" not in params:
            request.body = params
            request.context = build_context(BoltContext({}), params)
    return request


class Handler(SlackRequestHandler):
    """Bolt's WSGI handler, plus the form-body repair, a health endpoint and the metrics."""

    app: DenpexApp

    def __init__(self, app: DenpexApp, store: Store, signing_secret: str | None = None):
        super().__init__(app, path=EVENTS_PATH)
        self.store = store
        self.verifier = _RawSignatureVerifier(signing_secret) if signing_secret else None

    def dispatch(self, request: WsgiHttpRequest):
        raw = _raw_body(request.environ)
        headers = request.get_headers()
        # the signature first, on the raw bytes: nothing an unsigned sender wrote is parsed (or logged);
        # WSGI's header values are strings (Bolt's type allows lists too)
        signed = {k: v for k, v in headers.items() if isinstance(v, str)}
        if self.verifier and not self.verifier.is_valid_request(raw, signed):
            self.app.metrics.requests.labels("other", "401").inc()
            return BoltResponse(status=401, body="invalid request signature")
        try:
            bolt_request = BoltRequest(body=raw.decode("utf-8"), query=request.query_string, headers=headers)
        except ValueError as exc:  # not UTF-8, not JSON, a broken payload field: refuse it, keep serving
            log.warning("malformed request body refused: %s", type(exc).__name__)
            self.app.metrics.requests.labels("other", "400").inc()
            return BoltResponse(status=400, body="malformed request body")
        return self.app.dispatch(repair_form_body(bolt_request))

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            if environ.get("PATH_INFO") == HEALTH_PATH:
                return health_response(self.app, self.store, start_response)
            if environ.get("PATH_INFO") == METRICS_PATH:
                return metrics_response(self.app, start_response)
        return super().__call__(environ, start_response)


class _RawSignatureVerifier(SignatureVerifier):
    """Slack's check (timestamp window included), over the body's bytes as sent: a body that is not
    UTF-8 is still verified, so its sender learns 400 (signed, malformed) or 401 (not signed)."""

    def generate_signature(self, *, timestamp: str, body: str | bytes) -> str | None:
        if timestamp is None:
            return None
        raw = body if isinstance(body, bytes) else (body or "").encode()
        digest = hmac.new(self.signing_secret.encode(), b"v0:" + timestamp.encode() + b":" + raw, hashlib.sha256)
        return "v0=" + digest.hexdigest()


def _raw_body(environ) -> bytes:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    return environ["wsgi.input"].read(length) if length and "wsgi.input" in environ else b""


def metrics_response(app: DenpexApp, start_response):
    body = app.metrics.render()
    start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(body)))])
    return [body]


def health_state(app: DenpexApp, store: Store) -> dict:
    """From state, never by queueing behind a writer: the last database write's outcome and whether the
    follow-up ticker is keeping up (no tick for three intervals means follow-ups and resumed work stall)."""
    problem = store.problem
    status = {"ok": problem is None, "database": problem or "ok"}
    followups = getattr(app, "followups", None)
    if followups is not None and followups.scheduler is not None:
        interval = followups.config.followups.tick_seconds
        since = time.time() - (followups.last_tick or followups.started_at)
        behind = since > 3 * interval + 5
        status["followups"] = f"behind: no tick for {since:.0f} s" if behind else "ok"
        status["ok"] = status["ok"] and not behind
        watches = getattr(app, "watches", None)
        # a watch waits at most an interval and a tick; three of those is falling behind (not asked of a database
        # that is failing: it has said so already)
        if watches is not None and problem is None:
            late = time.time() - 3 * (watches.interval + interval) - 5
            overdue = store.overdue_watches(late)
            app.metrics.watches_overdue.set(overdue)
            status["watches"] = f"behind: {overdue} watch(es) not looked at in time" if overdue else "ok"
            status["ok"] = status["ok"] and not overdue
    return status


def health_response(app: DenpexApp, store: Store, start_response, extra: dict | None = None):
    status = {**health_state(app, store), **(extra or {})}
    ok = all(v for k, v in status.items() if isinstance(v, bool))
    status["ok"] = ok
    body = json.dumps(status).encode()
    start_response(
        "200 OK" if ok else "503 Service Unavailable",
        [("Content-Type", "application/json"), ("Content-Length", str(len(body)))],
    )
    return [body]


class StartingGate:
    """The WSGI app a server answers with from its first second: while the bot starts (auth.test with Slack,
    the database, the library) /healthz is 503 and says what it waits for, and Slack's requests get 503 too
    (Slack retries them); once ready, everything goes to the bot's own handler."""

    def __init__(self) -> None:
        self.handler: Callable | None = None
        self.status = "starting: checking the token with Slack (auth.test)"

    def __call__(self, environ, start_response):
        handler = self.handler
        if handler is not None:
            return handler(environ, start_response)
        body = json.dumps({"ok": False, "ready": False, "status": self.status}).encode()
        start_response(
            "503 Service Unavailable",
            [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("Retry-After", "5")],
        )
        return [body]


class StartError(Exception):
    """The bot could not start; the message says what it tried and where."""


def serve_http(
    start: Callable[[], DenpexApp],
    store: Store,
    host: str,
    port: int,
    threads: int = 8,
    on_stop: Callable[[], None] = lambda: None,
    signing_secret: str | None = None,
    connection_limit: int = 1000,
    channel_timeout: float = 15.0,
) -> None:
    """Serve until SIGTERM/SIGINT, then shut down in a bounded time: `on_stop` first (no new background
    work), stop accepting, let requests already in flight get their answer (Slack retries an event it
    never got a 200 for), then drop idle keep-alive connections, which waitress alone would hold open.
    The port is open from the start: `start()` builds the bot meanwhile (StartingGate answers until it is
    ready); when it raises, the server stops and the error is raised here."""
    from waitress import wasyncore
    from waitress.server import BaseWSGIServer, create_server

    _allow_open_files(connection_limit + 64)
    channels: dict = {}  # waitress's socket map: the listeners, their trigger and one channel per connection
    # slow or idle clients are dropped after channel_timeout, and many of them cannot crowd Slack out
    gate = StartingGate()
    server = create_server(
        gate,
        map=channels,
        host=host,
        port=port,
        threads=threads,
        ident="denpex",
        max_request_body_size=10 << 20,
        connection_limit=connection_limit,
        channel_timeout=channel_timeout,
        cleanup_interval=max(1, int(channel_timeout // 3)),
    )
    # one listener per address `host` stands for (`localhost` may be 127.0.0.1 and ::1; waitress then returns
    # a MultiSocketServer, which has no socket or port of its own)
    listeners = [ch for ch in channels.values() if isinstance(ch, BaseWSGIServer)]
    ports = ",".join(sorted({listener.getsockname()[1] for listener in listeners}))
    stopping = threading.Event()
    _stop_on_signals(stopping.set)
    failed: list[BaseException] = []

    def starting() -> None:
        try:
            gate.handler = Handler(start(), store, signing_secret)
        except BaseException as exc:  # said by the caller once the server is down
            failed.append(exc)
            stopping.set()
            return
        log.info("denpex listening on http://%s:%s%s (health: %s)", host, ports, EVENTS_PATH, HEALTH_PATH)
        print(f"denpex: serving Slack events on http://{host}:{ports}{EVENTS_PATH}", flush=True)

    threading.Thread(target=starting, daemon=True, name="starting").start()
    while not stopping.is_set():
        wasyncore.loop(timeout=LOOP_SECONDS, map=channels, count=1)
    on_stop()
    for listener in listeners:  # stop accepting; the trigger stays so finishing tasks can still wake the loop
        listener.del_channel()
        if listener.socket is not None:
            listener.socket.close()
    deadline = time.monotonic() + DRAIN_SECONDS
    wasyncore.loop(timeout=0, map=channels, count=1)  # read what already arrived before judging
    while _in_flight(channels) and time.monotonic() < deadline:
        wasyncore.loop(timeout=0.05, map=channels, count=1)
    if _in_flight(channels):
        log.warning("shutting down with %d request(s) unanswered after %ss", _in_flight(channels), DRAIN_SECONDS)
    for channel in list(channels.values()):
        channel.close()
    server.task_dispatcher.shutdown(timeout=1)
    log.info("stopped")
    if failed:
        raise failed[0]


def _in_flight(channels: dict) -> int:
    """Connections with a request being received or handled, or an answer not yet sent."""
    return sum(
        1
        for ch in channels.values()
        if getattr(ch, "requests", None)
        or getattr(ch, "request", None) is not None
        or getattr(ch, "total_outbufs_len", 0)
    )


def serve_socket_mode(
    start: Callable[[], DenpexApp],
    store: Store,
    app_token: str,
    health_port: int | None,
    on_stop: Callable[[], None] = lambda: None,
) -> None:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    gate = StartingGate()
    if health_port:  # answering 503 from the first second, while the bot starts
        _serve_health(gate, health_port)
    app = start()
    handler = SocketModeHandler(app, app_token)
    if health_port:
        gate.handler = _health_wsgi(app, store, lambda: {"socket_connected": handler.client.is_connected()})
    done = threading.Event()
    _stop_on_signals(done.set)
    handler.connect()
    print("denpex: connected to Slack in Socket Mode", flush=True)
    done.wait()
    on_stop()
    handler.close()


def _health_wsgi(app: DenpexApp, store: Store, extra) -> Callable:
    def wsgi(environ, start_response):
        if environ.get("PATH_INFO") == HEALTH_PATH:
            return health_response(app, store, start_response, extra())
        if environ.get("PATH_INFO") == METRICS_PATH:
            return metrics_response(app, start_response)
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]

    return wsgi


def _serve_health(wsgi: Callable, port: int) -> None:
    from waitress.server import create_server

    server = create_server(wsgi, host="0.0.0.0", port=port, threads=1, ident="denpex-health")
    threading.Thread(target=server.run, daemon=True, name="health").start()


def _allow_open_files(wanted: int) -> None:
    """Each connection is a file descriptor: raise the soft limit toward `wanted` (never past the hard one)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        log.info("open-file limit raised from %d to %d for %d connections", soft, target, wanted)


def _stop_on_signals(stop) -> None:
    def handle(signum, _frame):
        log.info("signal %s: shutting down", signum)
        stop()

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, handle)
