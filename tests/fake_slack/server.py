"""A strict fake Slack workspace: the Web API, file hosting, uploads and response URLs.

Standard library only (``http.server.ThreadingHTTPServer`` on 127.0.0.1); point the bot's
``WebClient(base_url=fake.api_url)`` at it::

    with FakeSlack() as fake:
        client = WebClient(token=fake.bot_token, base_url=fake.api_url)
        client.chat_postMessage(channel="C123", text="hi")
        assert fake.messages("C123")[0]["text"] == "hi"

Behaviour follows Slack's documented API (docs.slack.dev method pages and error tables):

* every Web API answer is HTTP 200 with ``{"ok": true, ...}`` or ``{"ok": false, "error": ...}``,
  except rate limiting (HTTP 429, ``Retry-After``, ``{"ok": false, "error": "ratelimited"}``);
* the token comes from ``Authorization: Bearer`` (or a ``token`` form field; never from a JSON
  body, as Slack requires): missing -> ``not_authed``, wrong -> ``invalid_auth``;
* form bodies without a charset get Slack's ``"warning": "missing_charset"``;
* method scopes are checked (``missing_scope`` with ``needed``/``provided``);
* Block Kit is validated by :mod:`fake_slack.blockkit` (``invalid_blocks`` with the reasons in
  ``errors`` and ``response_metadata.messages``).

File downloads (``url_private`` / ``url_private_download``) need ``Authorization: Bearer
<bot token>``; without it (or with a wrong token) the fake answers like Slack does: **302** to
the workspace sign-in page (``Location: <fake.url>?redir=/files-pri/...``), which itself answers
200 with an HTML page.  A client that follows redirects therefore gets HTML, not the file.
"""

from __future__ import annotations

import base64
import copy
import email.parser
import email.policy
import inspect
import io
import json
import mimetypes
import mmap
import os
import re
import secrets
import shutil
import string
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from . import blockkit

__all__ = ["Call", "FakeSlack", "DEFAULT_SCOPES"]

DEFAULT_SCOPES = (
    "app_mentions:read",
    "channels:history",
    "channels:read",
    "chat:write",
    "commands",
    "files:read",
    "files:write",
    "groups:history",
    "groups:read",
    "im:history",
    "im:read",
    "im:write",
    "mpim:history",
    "reactions:read",
    "reactions:write",
    "users:read",
    "usergroups:read",
)

_TS = re.compile(r"^\d{1,12}\.\d{1,6}$")
_EMOJI = re.compile(r"^[a-z0-9_+\-']+(::skin-tone-[2-6])?$")
_CHUNK = 1 << 20
_VIEW_MAX_BYTES = 250 * 1024
_RESPONSE_URL_USES = 5
_RESPONSE_URL_TTL = 30 * 60

_FILETYPES = {
    ".txt": ("text", "Plain Text", "text/plain"),
    ".log": ("text", "Plain Text", "text/plain"),
    ".out": ("text", "Plain Text", "text/plain"),
    ".err": ("text", "Plain Text", "text/plain"),
    ".md": ("markdown", "Markdown (raw)", "text/plain"),
    ".json": ("json", "JSON", "application/json"),
    ".jsonl": ("text", "Plain Text", "text/plain"),
    ".csv": ("csv", "CSV", "text/csv"),
    ".py": ("python", "Python", "text/plain"),
    ".sh": ("shell", "Shell", "text/plain"),
    ".yaml": ("yaml", "YAML", "text/plain"),
    ".yml": ("yaml", "YAML", "text/plain"),
    ".toml": ("text", "Plain Text", "text/plain"),
    ".gz": ("gzip", "GZip", "application/gzip"),
    ".tgz": ("gzip", "GZip", "application/gzip"),
    ".bz2": ("bzip2", "BZip2", "application/x-bzip2"),
    ".xz": ("binary", "Binary", "application/x-xz"),
    ".zip": ("zip", "Zip", "application/zip"),
    ".tar": ("tar", "Tar", "application/x-tar"),
    ".png": ("png", "PNG", "image/png"),
    ".jpg": ("jpg", "JPEG", "image/jpeg"),
    ".jpeg": ("jpg", "JPEG", "image/jpeg"),
    ".gif": ("gif", "GIF", "image/gif"),
    ".pdf": ("pdf", "PDF", "application/pdf"),
}

_SIGNIN_PAGE = b"""<!DOCTYPE html>
<html lang="en-US"><head><meta charset="utf-8"><title>Sign in | Slack</title></head>
<body><form id="signin_form" action="/" method="post"><h1>Sign in to your workspace</h1>
<input type="email" name="email"><input type="password" name="password">
<button type="submit">Sign in</button></form></body></html>
"""


@dataclass
class Call:
    """One request the fake received.

    ``method`` is the Web API method (``"chat.postMessage"``) or, for non-API endpoints,
    ``"response_url"``, ``"upload"`` or ``"download"``.  ``args`` are the decoded arguments as
    sent (form values are strings, JSON values keep their types); ``headers`` use the names as
    sent.  ``status`` and ``response`` are what the fake answered.
    """

    method: str
    args: dict
    headers: dict
    time: float
    status: int = 200
    response: Any = None
    path: str = ""

    def arg(self, name: str, default: Any = None) -> Any:
        """An argument, JSON-decoded when it was sent as a JSON string (``blocks``, ``view``...)."""
        value = self.args.get(name, default)
        if isinstance(value, str) and value[:1] in ("[", "{"):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    @property
    def ok(self) -> bool:
        return isinstance(self.response, dict) and self.response.get("ok") is True

    @property
    def error(self) -> str | None:
        return self.response.get("error") if isinstance(self.response, dict) else None


class _Refusal(Exception):
    def __init__(self, error: str, status: int = 200, headers: dict | None = None, **extra: Any):
        super().__init__(error)
        self.error = error
        self.status = status
        self.headers = headers or {}
        self.extra = extra


def _invalid_arguments(*reasons: str) -> _Refusal:
    return _Refusal("invalid_arguments", response_metadata={"messages": blockkit.slack_messages(reasons)})


def _rand_id(prefix: str, n: int = 10) -> str:
    alphabet = string.ascii_uppercase + string.digits
    return prefix + "".join(secrets.choice(alphabet) for _ in range(n))


def _block_id() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(5))


class _FileRec:
    def __init__(self, file_id: str, name: str, *, user: str, created: int):
        self.id = file_id
        self.name = name
        self.title = name
        self.user = user
        self.created = created
        self.data: bytes | None = None
        self.path: str | None = None
        self.size = 0
        self.declared_length: int | None = None
        self.uploaded = False
        self.completed = False
        self.mimetype, self.filetype, self.pretty_type = _types_for(name)
        self.shares: dict[str, dict[str, list]] = {}
        self.channels: list[str] = []
        self.groups: list[str] = []
        self.ims: list[str] = []
        self.upload_token: str | None = None
        self.alt_txt: str | None = None

    def open(self):
        if self.path is not None:
            return open(self.path, "rb")
        return io.BytesIO(self.data or b"")


def _types_for(name: str, mimetype: str | None = None) -> tuple[str, str, str]:
    lower = name.lower()
    ext = os.path.splitext(lower)[1]
    known = _FILETYPES.get(ext)
    if known is not None:
        filetype, pretty, guessed = known
    else:
        mt, _enc = mimetypes.guess_type(lower)
        guessed = mt or "application/octet-stream"
        filetype, pretty = ("text", "Plain Text") if guessed.startswith("text/") else ("binary", "Binary")
    return mimetype or guessed, filetype, pretty


class FakeSlack:
    """A fake Slack workspace served over HTTP on 127.0.0.1.

    Channels must exist before the bot can use them (``add_channel``; ``C123`` "general" exists
    by default).  Users ``U123`` ("alice") and the bot user exist by default (``add_user``).
    """

    def __init__(
        self,
        bot_token: str = "xoxb-test-token",
        team_id: str = "T0001",
        bot_user_id: str = "U0BOT",
        signing_secret: str = "fake-signing-secret",
        *,
        bot_id: str = "B0BOT",
        app_id: str = "A0APP",
        bot_name: str = "denpex",
        team_name: str = "Denpex Test",
        team_domain: str = "denpex-test",
        channels: dict[str, str] | Iterable[str] | None = None,
        users: dict[str, str] | None = None,
        scopes: Iterable[str] | None = None,
        trigger_ttl: float = 3.0,
        host: str = "127.0.0.1",
        port: int = 0,
    ):
        self.bot_token = bot_token
        self.team_id = team_id
        self.bot_user_id = bot_user_id
        self.signing_secret = signing_secret
        self.bot_id = bot_id
        self.app_id = app_id
        self.bot_name = bot_name
        self.team_name = team_name
        self.team_domain = team_domain
        self.scopes = set(DEFAULT_SCOPES if scopes is None else scopes)
        self.trigger_ttl = trigger_ttl
        self._host = host
        self._port = port

        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._tmpdir: str | None = None

        self._calls: list[Call] = []
        self._channels: dict[str, dict] = {}
        self._users: dict[str, dict] = {}
        self._messages: dict[str, dict[str, dict]] = {}
        self._ephemeral: list[dict] = []
        self._files: dict[str, _FileRec] = {}
        self._url_overrides: dict[str, str] = {}
        self._usergroups: dict[str, list[str]] = {}
        self.socket_mode = None  # a socket_mode.SocketModeServer, for apps.connections.open
        self._uploads: dict[str, str] = {}
        self._rate_limits: dict[str, list] = {}
        self._outages: dict[str, int] = {}
        self._delays: dict[str, float] = {}
        self.download_rate: float | None = None  # bytes per second for file downloads; None: as fast as it can
        self._triggers: dict[str, dict] = {}
        self._views: dict[str, dict] = {}
        self._view_stacks: dict[str, list[str]] = {}
        self._home: dict[str, str] = {}
        self._response_urls: dict[str, dict] = {}
        self._last_us = 0
        self._generation = 0

        self.add_user(bot_user_id, bot_name, is_bot=True)
        for uid, name in (users if users is not None else {"U123": "alice"}).items():
            self.add_user(uid, name)
        if channels is None:
            channels = {"C123": "general"}
        if not isinstance(channels, dict):
            channels = {c: c.lower() for c in channels}
        for cid, name in channels.items():
            self.add_channel(cid, name)

    # ------------------------------------------------------------------------------------------
    # lifecycle

    def start(self) -> FakeSlack:
        if self._server is not None:
            return self
        self._tmpdir = tempfile.mkdtemp(prefix="fake-slack-")
        handler = type("_BoundHandler", (_Handler,), {"fake": self})
        self._server = ThreadingHTTPServer((self._host, self._port), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="fake-slack", kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self) -> FakeSlack:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeSlack is not started")
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{self._host}:{self.port}/"

    @property
    def api_url(self) -> str:
        return self.url + "api/"

    @property
    def workspace_url(self) -> str:
        """What auth.test reports as ``url`` (permalinks use it too)."""
        return f"https://{self.team_domain}.slack.com/"

    # ------------------------------------------------------------------------------------------
    # workspace set-up helpers (for tests)

    def add_user(self, user_id: str, name: str | None = None, *, is_bot: bool = False) -> dict:
        with self._lock:
            user = {"id": user_id, "name": name or user_id.lower(), "team_id": self.team_id, "is_bot": is_bot}
            self._users[user_id] = user
            return dict(user)

    def add_channel(
        self,
        channel_id: str,
        name: str | None = None,
        *,
        is_private: bool = False,
        is_member: bool = True,
        is_archived: bool = False,
        members: Iterable[str] | None = None,
    ) -> dict:
        """Register a conversation.  ``C...`` public, ``G...``/``is_private`` private, ``D...`` a DM.

        ``is_member``: whether the bot is in it (posting/reading elsewhere -> ``not_in_channel``).
        ``members``: user ids in the channel (``None`` = every user), for chat.postEphemeral.
        """
        with self._cond:
            ch = {
                "id": channel_id,
                "name": name or channel_id.lower(),
                "is_private": is_private or channel_id.startswith("G"),
                "is_im": channel_id.startswith("D"),
                "is_member": is_member,
                "is_archived": is_archived,
                "members": None if members is None else set(members),
            }
            self._channels[channel_id] = ch
            self._messages.setdefault(channel_id, {})
            self._changed()
            return {k: v for k, v in ch.items() if k != "members"}

    def add_message(
        self,
        channel: str,
        text: str = "",
        *,
        user: str = "U123",
        ts: str | None = None,
        thread_ts: str | None = None,
        blocks: list | None = None,
        **extra: Any,
    ) -> dict:
        """Put a message from ``user`` into ``channel`` (a reply when ``thread_ts`` is given)."""
        with self._cond:
            self._require_channel(channel)
            msg: dict[str, Any] = {
                "user": user,
                "type": "message",
                "ts": self._take_ts(ts),
                "text": text,
                "team": self.team_id,
            }
            if blocks is not None:
                msg["blocks"] = self._with_block_ids(blocks)
            msg.update(extra)
            self._store_message(channel, msg, thread_ts)
            return self._render(msg)

    def add_file(
        self,
        channel: str,
        name: str,
        content: bytes | str | os.PathLike,
        user: str = "U123",
        ts: str | None = None,
        mimetype: str | None = None,
        *,
        title: str | None = None,
        text: str = "",
        thread_ts: str | None = None,
    ) -> dict:
        """Register a file shared by ``user`` in ``channel`` and the message that shared it.

        ``content`` is the bytes, or a path (``str``/``PathLike``: a ``str`` is always a path)
        streamed from disk on download (never read into memory).  ``thread_ts`` shares it as a
        reply in that thread.  Returns the file object as ``files.info`` would.
        """
        with self._cond:
            self._require_channel(channel)
            rec = _FileRec(_rand_id("F"), name, user=user, created=int(time.time()))
            if isinstance(content, (bytes, bytearray, memoryview)):
                rec.data = bytes(content)
                rec.size = len(rec.data)
            else:
                rec.path = os.fspath(content)
                rec.size = os.stat(rec.path).st_size
            rec.title = title or name
            rec.mimetype, rec.filetype, rec.pretty_type = _types_for(name, mimetype)
            rec.uploaded = rec.completed = True
            self._files[rec.id] = rec
            msg = {
                "user": user,
                "type": "message",
                "ts": self._take_ts(ts),
                "text": text,
                "team": self.team_id,
                "upload": True,
                "display_as_bot": False,
                "_file_ids": [rec.id],
            }
            self._store_message(channel, msg, thread_ts)
            self._share(rec, channel, msg)
            return self._file_obj(rec)

    def issue_trigger(self, user_id: str = "U123") -> str:
        """A new ``trigger_id`` (valid ``trigger_ttl`` seconds, once) as interactions carry."""
        with self._lock:
            tid = f"{secrets.randbelow(10**10)}.{secrets.randbelow(10**12)}.{secrets.token_hex(16)}"
            self._triggers[tid] = {"issued": time.monotonic(), "used": False, "user_id": user_id}
            return tid

    def new_response_url(
        self, kind: str, channel: str | None, user_id: str, message_ts: str | None = None, thread_ts: str | None = None
    ) -> str:
        """A ``response_url`` on the fake (``kind``: "commands" or "actions"); POSTs are recorded."""
        with self._lock:
            rid = f"{secrets.randbelow(10**13):013d}"
            secret = secrets.token_urlsafe(18).replace("-", "a").replace("_", "b")
            path = f"{kind}/{self.team_id}/{rid}/{secret}"
            self._response_urls[path] = {
                "kind": kind,
                "channel": channel,
                "user": user_id,
                "message_ts": message_ts,
                "thread_ts": thread_ts,
                "uses": 0,
                "issued": time.monotonic(),
            }
            return self.url + path

    def delay(self, method: str, seconds: float) -> None:
        """Calls of ``method`` are answered ``seconds`` late (a slow network or a slow Slack)."""
        with self._lock:
            self._delays[method] = seconds

    def outage(self, method: str, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` fail as Slack does when it is down: HTTP 503,
        ``{"ok": false, "error": "service_unavailable"}`` (not retried by the SDK's default handlers)."""
        with self._lock:
            self._outages[method] = times

    def rate_limit(self, method: str, times: int = 1, retry_after: int = 1) -> None:
        """The next ``times`` calls of ``method`` get HTTP 429, ``Retry-After: retry_after``."""
        with self._lock:
            self._rate_limits[method] = [times, retry_after]

    # ------------------------------------------------------------------------------------------
    # recorded state (for assertions)

    @property
    def calls(self) -> list[Call]:
        with self._lock:
            return list(self._calls)

    def calls_to(self, method: str) -> list[Call]:
        with self._lock:
            return [c for c in self._calls if c.method == method]

    def clear_calls(self) -> None:
        with self._lock:
            self._calls.clear()

    def messages(self, channel: str, *, include_replies: bool = True) -> list[dict]:
        """The channel's messages (oldest first); replies carry ``thread_ts``."""
        with self._lock:
            msgs = sorted(self._messages.get(channel, {}).values(), key=lambda m: _ts_key(m["ts"]))
            if not include_replies:
                msgs = [m for m in msgs if m.get("thread_ts", m["ts"]) == m["ts"]]
            return [self._render(m) for m in msgs]

    def message(self, channel: str, ts: str) -> dict | None:
        with self._lock:
            msg = self._messages.get(channel, {}).get(ts)
            return self._render(msg) if msg is not None else None

    def thread(self, channel: str, ts: str) -> list[dict]:
        """The parent message ``ts`` and its replies, oldest first."""
        with self._lock:
            return [self._render(m) for m in self._thread_msgs(channel, ts)]

    def ephemeral_messages(self, channel: str | None = None, user: str | None = None) -> list[dict]:
        with self._lock:
            return [
                copy.deepcopy(e)
                for e in self._ephemeral
                if (channel is None or e["channel"] == channel) and (user is None or e["user"] == user)
            ]

    def file(self, file_id: str) -> dict | None:
        with self._lock:
            rec = self._files.get(file_id)
            return self._file_obj(rec) if rec is not None and rec.completed else None

    def files(self) -> list[dict]:
        with self._lock:
            return [self._file_obj(r) for r in self._files.values() if r.completed]

    def file_content(self, file_id: str) -> bytes:
        """The stored bytes of a file (reads a path-backed file entirely: keep it small)."""
        with self._lock:
            rec = self._files[file_id]
        with rec.open() as fh:
            return fh.read()

    def uploads(self) -> list[dict]:
        """Files uploaded through files.getUploadURLExternal, with ``declared_length`` and ``size``."""
        with self._lock:
            return [
                {
                    "id": r.id,
                    "name": r.name,
                    "declared_length": r.declared_length,
                    "size": r.size,
                    "uploaded": r.uploaded,
                    "completed": r.completed,
                }
                for r in self._files.values()
                if r.upload_token is not None
            ]

    def views(self, user_id: str | None = None, *, open_only: bool = False) -> list[dict]:
        with self._lock:
            out = [
                self._render_view(v)
                for v in self._views.values()
                if (user_id is None or v["_user"] == user_id) and (not open_only or v["_open"])
            ]
            return out

    def view(self, view_id: str) -> dict | None:
        with self._lock:
            v = self._views.get(view_id)
            return self._render_view(v) if v is not None else None

    def open_view(self, user_id: str = "U123", callback_id: str | None = None) -> dict | None:
        """The top open modal of ``user_id`` (optionally the latest open one with ``callback_id``)."""
        with self._lock:
            for vid in reversed(self._view_stacks.get(user_id, [])):
                v = self._views[vid]
                if v["_open"] and (callback_id is None or v.get("callback_id") == callback_id):
                    return self._render_view(v)
            return None

    def home_view(self, user_id: str) -> dict | None:
        with self._lock:
            vid = self._home.get(user_id)
            return self._render_view(self._views[vid]) if vid else None

    def response_url_posts(self) -> list[Call]:
        return self.calls_to("response_url")

    def wait_for(
        self, predicate: Callable[..., Any], timeout: float = 10, *, interval: float = 0.05, message: str | None = None
    ) -> Any:
        """Wait until ``predicate()`` (or ``predicate(fake)``) is truthy; return its value.

        Re-evaluated after every request the fake handles (and every ``interval`` seconds);
        raises ``TimeoutError`` after ``timeout`` seconds.
        """
        takes_arg = False
        try:
            takes_arg = len(inspect.signature(predicate).parameters) >= 1
        except (TypeError, ValueError):
            pass
        deadline = time.monotonic() + timeout
        while True:
            generation = self._generation
            # evaluated without holding the lock: the predicate may itself call the fake over HTTP
            value = predicate(self) if takes_arg else predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(message or f"condition not met within {timeout}s: {predicate!r}")
            with self._cond:
                if self._generation == generation:
                    self._cond.wait(min(interval, remaining))

    def wait_for_call(self, method: str, count: int = 1, timeout: float = 10) -> list[Call]:
        """Wait until ``method`` was called at least ``count`` times; return those calls."""
        return self.wait_for(
            lambda: (lambda cs: cs if len(cs) >= count else None)(self.calls_to(method)),
            timeout,
            message=f"{method} not called {count} time(s) within {timeout}s",
        )

    # ------------------------------------------------------------------------------------------
    # internals: messages

    def _take_ts(self, ts: str | None = None) -> str:
        if ts is not None:
            whole, _, frac = ts.partition(".")
            us = int(whole) * 1_000_000 + int((frac + "000000")[:6])
            self._last_us = max(self._last_us, us)
            return ts
        now_us = int(time.time() * 1_000_000)
        self._last_us = max(now_us, self._last_us + 1)
        return f"{self._last_us // 1_000_000}.{self._last_us % 1_000_000:06d}"

    def _require_channel(self, channel: str) -> dict:
        ch = self._channels.get(channel)
        if ch is None:
            raise KeyError(f"unknown channel {channel!r}: add it with fake.add_channel()")
        return ch

    def _store_message(self, channel: str, msg: dict, thread_ts: str | None) -> None:
        if thread_ts:
            parent = self._messages[channel].get(thread_ts)
            msg["thread_ts"] = thread_ts
            if parent is not None:
                msg["parent_user_id"] = parent.get("user")
                parent["thread_ts"] = parent["ts"]
                replies = [
                    m
                    for m in self._messages[channel].values()
                    if m.get("thread_ts") == thread_ts and m["ts"] != thread_ts
                ] + [msg]
                users = []
                for m in replies:
                    if m.get("user") not in users:
                        users.append(m.get("user"))
                parent["reply_count"] = len(replies)
                parent["reply_users"] = users[:5]
                parent["reply_users_count"] = len(users)
                parent["latest_reply"] = msg["ts"]
        self._messages[channel][msg["ts"]] = msg
        self._changed()

    def _thread_msgs(self, channel: str, ts: str) -> list[dict]:
        msgs = self._messages.get(channel, {})
        root = msgs.get(ts)
        if root is None:
            return []
        parent_ts = root.get("thread_ts", ts)
        out = [m for m in msgs.values() if m["ts"] == parent_ts or m.get("thread_ts") == parent_ts]
        return sorted(out, key=lambda m: _ts_key(m["ts"]))

    def _render(self, msg: dict) -> dict:
        out = {k: copy.deepcopy(v) for k, v in msg.items() if not k.startswith("_")}
        if "_file_ids" in msg:
            out["files"] = [self._file_obj(self._files[f]) for f in msg["_file_ids"]]
        return out

    def _with_block_ids(self, blocks: list) -> list:
        out = copy.deepcopy(blocks)
        for b in out:
            if isinstance(b, dict) and "block_id" not in b:
                b["block_id"] = _block_id()
        return out

    def _bot_message(
        self,
        channel: str,
        *,
        text: str | None,
        blocks: list | None,
        attachments: list | None,
        thread_ts: str | None,
        extra: dict | None = None,
    ) -> dict:
        msg = {
            "user": self.bot_user_id,
            "type": "message",
            "ts": self._take_ts(),
            "bot_id": self.bot_id,
            "app_id": self.app_id,
            "text": text or "",
            "team": self.team_id,
            "bot_profile": {
                "id": self.bot_id,
                "app_id": self.app_id,
                "name": self.bot_name,
                "deleted": False,
                "team_id": self.team_id,
            },
        }
        if blocks:
            msg["blocks"] = self._with_block_ids(blocks)
        if attachments:
            msg["attachments"] = copy.deepcopy(attachments)
        if extra:
            msg.update(extra)
        self._store_message(channel, msg, thread_ts)
        return msg

    # ------------------------------------------------------------------------------------------
    # internals: files

    def add_usergroup(self, group_id: str, users: list[str]) -> None:
        """A user group (S...) and its members, for usergroups.users.list."""
        with self._lock:
            self._usergroups[group_id] = list(users)

    def _m_usergroups_users_list(self, args: dict) -> dict:
        group = self._str_arg(args, "usergroup")
        if not group:
            raise _invalid_arguments("missing required field: usergroup")
        if group not in self._usergroups:
            raise _Refusal("no_such_subteam")
        return {"users": list(self._usergroups[group])}

    def set_file_url(self, file_id: str, url: str) -> None:
        """Make files.info hand out `url` as the file's download address (e.g. a host that is not Slack's)."""
        with self._lock:
            self._url_overrides[file_id] = url

    def _file_urls(self, rec: _FileRec) -> dict:
        override = self._url_overrides.get(rec.id)
        if override:
            return {
                "url_private": override,
                "url_private_download": override,
                "permalink": override,
                "permalink_public": override,
            }
        quoted = urllib.parse.quote(rec.name)
        base = f"{self.url}files-pri/{self.team_id}-{rec.id}/"
        return {
            "url_private": base + quoted,
            "url_private_download": base + "download/" + quoted,
            "permalink": f"{self.workspace_url}files/{rec.user}/{rec.id}/{quoted}",
            "permalink_public": f"https://slack-files.com/{self.team_id}-{rec.id}-{secrets.token_hex(5)}",
        }

    def _file_obj(self, rec: _FileRec) -> dict:
        obj = {
            "id": rec.id,
            "created": rec.created,
            "timestamp": rec.created,
            "name": rec.name,
            "title": rec.title,
            "mimetype": rec.mimetype,
            "filetype": rec.filetype,
            "pretty_type": rec.pretty_type,
            "user": rec.user,
            "user_team": self.team_id,
            "editable": False,
            "size": rec.size,
            "mode": "hosted",
            "is_external": False,
            "external_type": "",
            "is_public": bool(rec.shares.get("public")),
            "public_url_shared": False,
            "display_as_bot": False,
            "username": "",
            **self._file_urls(rec),
            "channels": list(rec.channels),
            "groups": list(rec.groups),
            "ims": list(rec.ims),
            "comments_count": 0,
            "has_rich_preview": False,
            "file_access": "visible",
        }
        if rec.shares:
            obj["shares"] = copy.deepcopy(rec.shares)
        if rec.alt_txt:
            obj["alt_txt"] = rec.alt_txt
        return obj

    def _share(self, rec: _FileRec, channel: str, msg: dict) -> None:
        ch = self._channels[channel]
        scope = "private" if (ch["is_private"] or ch["is_im"]) else "public"
        share = {
            "reply_users": [],
            "reply_users_count": 0,
            "reply_count": 0,
            "ts": msg["ts"],
            "channel_name": ch["name"],
            "team_id": self.team_id,
            "share_user_id": msg.get("user"),
        }
        if msg.get("thread_ts") and msg["thread_ts"] != msg["ts"]:
            share["thread_ts"] = msg["thread_ts"]
        rec.shares.setdefault(scope, {}).setdefault(channel, []).append(share)
        bucket = rec.ims if ch["is_im"] else rec.groups if ch["is_private"] else rec.channels
        if channel not in bucket:
            bucket.append(channel)

    # ------------------------------------------------------------------------------------------
    # internals: views

    def _render_view(self, v: dict) -> dict:
        return {k: copy.deepcopy(val) for k, val in v.items() if not k.startswith("_")}

    def _make_view(
        self, payload: dict, user: str, *, root: str | None, previous: str | None, view_id: str | None = None
    ) -> dict:
        vid = view_id or _rand_id("V")
        v = {
            "id": vid,
            "team_id": self.team_id,
            "type": payload["type"],
            "blocks": self._with_block_ids(payload.get("blocks") or []),
            "private_metadata": payload.get("private_metadata", ""),
            "callback_id": payload.get("callback_id", ""),
            "state": {"values": {}},
            "hash": f"{int(time.time())}.{secrets.token_hex(4)}",
            "clear_on_close": bool(payload.get("clear_on_close", False)),
            "notify_on_close": bool(payload.get("notify_on_close", False)),
            "close": copy.deepcopy(payload.get("close")),
            "submit": copy.deepcopy(payload.get("submit")),
            "previous_view_id": previous,
            "root_view_id": root or vid,
            "app_id": self.app_id,
            "external_id": payload.get("external_id", ""),
            "app_installed_team_id": self.team_id,
            "bot_id": self.bot_id,
            "_user": user,
            "_open": True,
        }
        if payload["type"] == "modal":
            v["title"] = copy.deepcopy(payload.get("title"))
            v["submit_disabled"] = bool(payload.get("submit_disabled", False))
        self._views[vid] = v
        self._changed()
        return v

    def _close_views(self, user: str, view_id: str | None = None, *, all_: bool = False) -> None:
        """Close the top view of ``user``'s modal stack (or the whole stack)."""
        with self._cond:
            stack = self._view_stacks.get(user, [])
            if all_:
                for vid in stack:
                    self._views[vid]["_open"] = False
                stack.clear()
            elif stack and (view_id is None or stack[-1] == view_id):
                self._views[stack.pop()]["_open"] = False
            self._changed()

    def _replace_view(self, view_id: str, payload: dict) -> dict:
        with self._cond:
            old = self._views[view_id]
            return self._make_view(
                payload, old["_user"], root=old["root_view_id"], previous=old["previous_view_id"], view_id=view_id
            )

    def _push_view(self, user: str, payload: dict) -> dict:
        with self._cond:
            stack = self._view_stacks.setdefault(user, [])
            root = stack[0] if stack else None
            previous = stack[-1] if stack else None
            v = self._make_view(payload, user, root=root, previous=previous)
            stack.append(v["id"])
            return v

    # ------------------------------------------------------------------------------------------
    # the Web API

    def _api(self, method: str, args: dict, token: str | None, token_in_json: bool) -> dict:
        if method == "apps.connections.open":  # Socket Mode: app-level (xapp-) token only
            if not token:
                raise _Refusal("not_authed")
            if self.socket_mode is None or token.startswith("xoxb-"):
                raise _Refusal("not_allowed_token_type" if token.startswith("xoxb-") else "invalid_auth")
            result = self.socket_mode.connections_open(token)
            if not result.pop("ok"):
                raise _Refusal(result["error"])
            return result
        handler = _METHODS.get(method)
        if handler is None:
            raise _Refusal("unknown_method", req_method=method)
        if not token:
            raise _Refusal("not_authed")
        if token != self.bot_token:
            raise _Refusal("invalid_auth")
        with self._lock:
            wait = self._delays.get(method, 0.0)
        if wait:
            time.sleep(wait)
        with self._lock:
            limit = self._rate_limits.get(method)
            if limit and limit[0] > 0:
                limit[0] -= 1
                raise _Refusal("ratelimited", status=429, headers={"Retry-After": str(limit[1])})
            if self._outages.get(method, 0) > 0:
                self._outages[method] -= 1
                raise _Refusal("service_unavailable", status=503)
        fn, scope = handler
        if scope is not None and scope not in self.scopes:
            raise _Refusal("missing_scope", needed=scope, provided=",".join(sorted(self.scopes)))
        with self._cond:
            result = fn(self, args)
            self._changed()
            return result

    # arguments ---------------------------------------------------------------------------------

    @staticmethod
    def _str_arg(args: dict, name: str) -> str | None:
        value = args.get(name)
        if value is None:
            return None
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, str):
            return value
        raise _invalid_arguments(f"must provide a string [json-pointer:/{name}]")

    @staticmethod
    def _bool_arg(args: dict, name: str) -> bool:
        value = args.get(name)
        if isinstance(value, bool):
            return value
        if value is None:
            return False
        return str(value).lower() in ("1", "true")

    def _channel_arg(
        self,
        args: dict,
        name: str = "channel",
        *,
        error: str = "channel_not_found",
        must_be_member: bool = True,
        posting: bool = False,
    ) -> str:
        raw = self._str_arg(args, name)
        if not raw:
            raise _Refusal(error)
        cid = raw
        if raw.startswith("#"):
            cid = next((c for c, ch in self._channels.items() if ch["name"] == raw[1:]), "")
        elif raw[:1] in ("U", "W") and raw in self._users and raw not in self._channels:
            cid = "D" + raw[1:]
            if cid not in self._channels:
                self.add_channel(cid, raw, members={raw, self.bot_user_id})
        ch = self._channels.get(cid)
        if ch is None:
            raise _Refusal(error)
        if posting and ch["is_archived"]:
            raise _Refusal("is_archived")
        if must_be_member and not ch["is_member"]:
            if posting and not ch["is_private"] and "chat:write.public" in self.scopes:
                return cid
            raise _Refusal("channel_not_found" if ch["is_private"] else "not_in_channel")
        return cid

    def _thread_arg(self, args: dict, channel: str, *, name: str = "thread_ts") -> str | None:
        raw = self._str_arg(args, name)
        if raw is None or raw == "":
            return None
        if not _TS.match(raw) or _ts_key(raw) == (0, 0):
            raise _Refusal(
                "invalid_thread_ts", response_metadata={"messages": [f"[ERROR] {raw} is not a valid thread_ts"]}
            )
        parent = self._messages[channel].get(raw)
        if parent is None:
            raise _Refusal("thread_not_found")
        return parent.get("thread_ts", raw)

    def _content(self, args: dict, *, require: bool = True) -> tuple[str | None, list | None, list | None]:
        markdown_text = args.get("markdown_text")
        problem = blockkit.check_message(
            args.get("text"),
            args.get("blocks"),
            args.get("attachments"),
            markdown_text=markdown_text,
            require_content=require,
        )
        if problem is not None:
            error, errors = problem
            if error == "invalid_blocks":
                raise _Refusal(error, errors=errors, response_metadata={"messages": blockkit.slack_messages(errors)})
            if errors:
                raise _Refusal(error, response_metadata={"messages": blockkit.slack_messages(errors)})
            raise _Refusal(error)
        text = args.get("text")
        if text is not None and not isinstance(text, str):
            text = str(text)
        if markdown_text is not None and not text:
            text = markdown_text
        blocks, _ = blockkit.parse_json_array(args.get("blocks"))
        attachments, _ = blockkit.parse_json_array(args.get("attachments"))
        return text, blocks, attachments

    # methods -----------------------------------------------------------------------------------

    def _m_auth_test(self, args: dict) -> dict:
        return {
            "url": self.workspace_url,
            "team": self.team_name,
            "user": self.bot_name,
            "team_id": self.team_id,
            "user_id": self.bot_user_id,
            "bot_id": self.bot_id,
            "is_enterprise_install": False,
        }

    def _m_chat_postMessage(self, args: dict) -> dict:
        channel = self._channel_arg(args, posting=True)
        thread_ts = self._thread_arg(args, channel)
        text, blocks, attachments = self._content(args)
        extra = {}
        if thread_ts and self._bool_arg(args, "reply_broadcast"):
            extra["subtype"] = "thread_broadcast"
        msg = self._bot_message(
            channel, text=text, blocks=blocks, attachments=attachments, thread_ts=thread_ts, extra=extra
        )
        return {"channel": channel, "ts": msg["ts"], "message": self._render(msg)}

    def _existing_message(self, args: dict, channel: str, name: str = "ts") -> dict:
        ts = self._str_arg(args, name)
        msg = self._messages[channel].get(ts or "")
        if msg is None:
            raise _Refusal("message_not_found")
        return msg

    def _m_chat_update(self, args: dict) -> dict:
        channel = self._channel_arg(args, must_be_member=False)
        msg = self._existing_message(args, channel)
        if msg.get("user") != self.bot_user_id:
            raise _Refusal("cant_update_message")
        text, blocks, attachments = self._content(args)
        if args.get("text") is not None:
            msg["text"] = text or ""
        if args.get("blocks") is not None:
            if blocks:
                msg["blocks"] = self._with_block_ids(blocks)
            else:
                msg.pop("blocks", None)
        if args.get("attachments") is not None:
            if attachments:
                msg["attachments"] = copy.deepcopy(attachments)
            else:
                msg.pop("attachments", None)
        msg["edited"] = {"user": self.bot_user_id, "ts": self._take_ts()}
        self._changed()
        rendered = self._render(msg)
        return {"channel": channel, "ts": msg["ts"], "text": msg.get("text", ""), "message": rendered}

    def _m_chat_delete(self, args: dict) -> dict:
        channel = self._channel_arg(args, must_be_member=False)
        msg = self._existing_message(args, channel)
        if msg.get("user") != self.bot_user_id:
            raise _Refusal("cant_delete_message")
        del self._messages[channel][msg["ts"]]
        return {"channel": channel, "ts": msg["ts"]}

    def _m_chat_postEphemeral(self, args: dict) -> dict:
        channel = self._channel_arg(args, posting=True)
        user = self._str_arg(args, "user")
        if not user or user not in self._users:
            raise _Refusal("user_not_found")
        members = self._channels[channel]["members"]
        if members is not None and user not in members:
            raise _Refusal("user_not_in_channel")
        thread_ts = self._thread_arg(args, channel)
        text, blocks, attachments = self._content(args)
        ts = self._take_ts()
        msg: dict[str, Any] = {
            "type": "message",
            "subtype": "bot_message",
            "text": text or "",
            "ts": ts,
            "bot_id": self.bot_id,
            "username": self.bot_name,
        }
        if blocks:
            msg["blocks"] = self._with_block_ids(blocks)
        if attachments:
            msg["attachments"] = copy.deepcopy(attachments)
        self._ephemeral.append({"channel": channel, "user": user, "thread_ts": thread_ts, "ts": ts, "message": msg})
        return {"message_ts": ts}

    def _m_chat_getPermalink(self, args: dict) -> dict:
        channel = self._channel_arg(args, must_be_member=False)
        msg = self._existing_message(args, channel, "message_ts")
        link = f"{self.workspace_url}archives/{channel}/p{msg['ts'].replace('.', '')}"
        if msg.get("thread_ts") and msg["thread_ts"] != msg["ts"]:
            link += f"?thread_ts={msg['thread_ts']}&cid={channel}"
        return {"channel": channel, "permalink": link}

    def _m_reactions_add(self, args: dict) -> dict:
        name = self._str_arg(args, "name")
        if not args.get("channel") or not args.get("timestamp"):
            if args.get("file") or args.get("file_comment"):
                raise _Refusal("not_reactable")
            raise _Refusal("no_item_specified")
        channel = self._channel_arg(args)
        ts = self._str_arg(args, "timestamp") or ""
        if not _TS.match(ts):
            raise _Refusal("bad_timestamp")
        msg = self._messages[channel].get(ts)
        if msg is None:
            raise _Refusal("message_not_found")
        if not name or not _EMOJI.match(name):
            raise _Refusal("invalid_name")
        reactions = msg.setdefault("reactions", [])
        for r in reactions:
            if r["name"] == name:
                if self.bot_user_id in r["users"]:
                    raise _Refusal("already_reacted")
                r["users"].append(self.bot_user_id)
                r["count"] += 1
                break
        else:
            if len(reactions) >= 23:
                raise _Refusal("too_many_emoji")
            reactions.append({"name": name, "users": [self.bot_user_id], "count": 1})
        return {}

    def _m_conversations_replies(self, args: dict) -> dict:
        channel = self._channel_arg(args)
        ch = self._channels[channel]
        needed = "im:history" if ch["is_im"] else "groups:history" if ch["is_private"] else "channels:history"
        if needed not in self.scopes:
            raise _Refusal("missing_scope", needed=needed, provided=",".join(sorted(self.scopes)))
        ts = self._str_arg(args, "ts") or ""
        msgs = self._thread_msgs(channel, ts)
        if not msgs:
            raise _Refusal("thread_not_found")
        oldest, latest = self._str_arg(args, "oldest"), self._str_arg(args, "latest")
        inclusive = self._bool_arg(args, "inclusive")
        for bound, name in ((oldest, "oldest"), (latest, "latest")):
            if bound and not _TS.match(bound):
                raise _Refusal(f"invalid_ts_{name}")

        def keep(m: dict) -> bool:
            k = _ts_key(m["ts"])
            if oldest and (k < _ts_key(oldest) or (not inclusive and k == _ts_key(oldest))):
                return False
            if latest and (k > _ts_key(latest) or (not inclusive and k == _ts_key(latest))):
                return False
            return True

        if oldest or latest:
            msgs = [m for m in msgs if keep(m)]
        try:
            limit = int(self._str_arg(args, "limit") or 1000)
        except ValueError:
            raise _invalid_arguments("must provide an integer [json-pointer:/limit]") from None
        limit = max(1, min(limit, 1000))
        offset = 0
        cursor = self._str_arg(args, "cursor")
        if cursor:
            try:
                offset = int(base64.b64decode(cursor).decode().removeprefix("next_ts:"))
            except Exception:
                raise _Refusal("invalid_cursor") from None
        page = msgs[offset : offset + limit]
        more = offset + limit < len(msgs)
        next_cursor = base64.b64encode(f"next_ts:{offset + limit}".encode()).decode() if more else ""
        return {
            "messages": [self._render(m) for m in page],
            "has_more": more,
            "response_metadata": {"next_cursor": next_cursor},
        }

    def _m_conversations_history(self, args: dict) -> dict:
        """The channel's messages (not thread replies), newest first, as Slack returns them; `limit` 1..1000."""
        channel = self._channel_arg(args)
        ch = self._channels[channel]
        needed = "im:history" if ch["is_im"] else "groups:history" if ch["is_private"] else "channels:history"
        if needed not in self.scopes:
            raise _Refusal("missing_scope", needed=needed, provided=",".join(sorted(self.scopes)))
        try:
            limit = int(self._str_arg(args, "limit") or 100)
        except ValueError:
            raise _invalid_arguments("must provide an integer [json-pointer:/limit]") from None
        limit = max(1, min(limit, 1000))
        top = [m for m in self._messages[channel].values() if m.get("thread_ts") in (None, m["ts"])]
        oldest = self._str_arg(args, "oldest")
        if oldest:
            if not _TS.match(oldest):
                raise _Refusal("invalid_ts_oldest")
            top = [m for m in top if _ts_key(m["ts"]) > _ts_key(oldest)]
        top.sort(key=lambda m: _ts_key(m["ts"]), reverse=True)
        return {
            "messages": [self._render(m) for m in top[:limit]],
            "has_more": len(top) > limit,
            "response_metadata": {"next_cursor": ""},
        }

    def _m_files_info(self, args: dict) -> dict:
        rec = self._files.get(self._str_arg(args, "file") or "")
        if rec is None or not rec.completed:
            raise _Refusal("file_not_found")
        return {"file": self._file_obj(rec), "comments": [], "response_metadata": {"next_cursor": ""}}

    def _m_files_upload(self, args: dict) -> dict:
        raise _Refusal("method_deprecated")

    def _m_files_getUploadURLExternal(self, args: dict) -> dict:
        filename = self._str_arg(args, "filename")
        raw_length = self._str_arg(args, "length")
        missing = [
            f"missing required field: {n} [json-pointer:/{n}]"
            for n, v in (("filename", filename), ("length", raw_length))
            if not v
        ]
        if missing or not filename or not raw_length:
            raise _invalid_arguments(*missing)
        try:
            length = int(raw_length)
        except ValueError:
            raise _invalid_arguments("must provide an integer [json-pointer:/length]") from None
        if length <= 0:
            raise _Refusal("missing_argument")
        alt = self._str_arg(args, "alt_txt")
        if alt and len(alt) > 1000:
            raise _Refusal("alt_txt_too_large")
        rec = _FileRec(_rand_id("F"), filename, user=self.bot_user_id, created=int(time.time()))
        rec.declared_length = length
        rec.alt_txt = alt
        rec.upload_token = secrets.token_urlsafe(24)
        self._files[rec.id] = rec
        self._uploads[rec.upload_token] = rec.id
        return {"upload_url": f"{self.url}upload/v1/{rec.upload_token}", "file_id": rec.id}

    def _m_files_completeUploadExternal(self, args: dict) -> dict:
        raw = args.get("files")
        items = raw
        if isinstance(raw, str):
            try:
                items = json.loads(raw)
            except ValueError:
                raise _invalid_arguments("files must be a JSON array [json-pointer:/files]") from None
        if not items or not isinstance(items, list) or not all(isinstance(i, dict) and i.get("id") for i in items):
            raise _invalid_arguments("missing required field: files [json-pointer:/files]")
        recs = []
        for item in items:
            rec = self._files.get(str(item["id"]))
            if rec is None or rec.upload_token is None or not rec.uploaded or rec.completed:
                raise _Refusal("file_not_found")
            recs.append((rec, item))
        channels: list[str] = []
        if args.get("channel_id"):
            channels.append(self._channel_arg(args, "channel_id", error="invalid_channel", posting=True))
        elif args.get("channels"):
            for c in (self._str_arg(args, "channels") or "").split(","):
                if c.strip():
                    channels.append(self._channel_arg({"channel": c.strip()}, error="invalid_channel", posting=True))
        thread_ts = None
        if args.get("thread_ts"):
            if len(channels) != 1:
                raise _invalid_arguments("thread_ts requires exactly one channel [json-pointer:/thread_ts]")
            thread_ts = self._thread_arg(args, channels[0])
        text = self._str_arg(args, "initial_comment")
        blocks = None
        if not text and args.get("blocks") is not None:
            blocks, ok = blockkit.parse_json_array(args.get("blocks"))
            if not ok:
                raise _Refusal("invalid_blocks_format")
            errors = blockkit.validate_blocks(blocks or [])
            if errors:
                raise _Refusal(
                    "invalid_blocks", errors=errors, response_metadata={"messages": blockkit.slack_messages(errors)}
                )
        for rec, item in recs:
            rec.completed = True
            if item.get("title"):
                rec.title = str(item["title"])
            rec.created = int(time.time())
        for channel in channels:
            msg = self._bot_message(
                channel,
                text=text,
                blocks=blocks,
                attachments=None,
                thread_ts=thread_ts,
                extra={"upload": True, "display_as_bot": False, "_file_ids": [r.id for r, _ in recs]},
            )
            for rec, _ in recs:
                self._share(rec, channel, msg)
        return {"files": [self._file_obj(rec) for rec, _ in recs]}

    # views -------------------------------------------------------------------------------------

    def _view_arg(self, args: dict, expect_type: str | None) -> dict:
        raw = args.get("view")
        if raw is None or raw == "":
            raise _invalid_arguments("missing required field: view [json-pointer:/view]")
        size = len(raw.encode()) if isinstance(raw, str) else len(json.dumps(raw).encode())
        if size > _VIEW_MAX_BYTES:
            raise _Refusal("view_too_large")
        view = raw
        if isinstance(raw, str):
            try:
                view = json.loads(raw)
            except ValueError:
                raise _invalid_arguments("must provide an object [json-pointer:/view]") from None
        errors = blockkit.validate_view(view, expect_type=expect_type)
        if errors:
            raise _invalid_arguments(*errors)
        return view

    def _exchange_trigger(self, args: dict) -> str:
        tid = self._str_arg(args, "trigger_id")
        trig = self._triggers.get(tid or "")
        if trig is None:
            raise _invalid_arguments("invalid `trigger_id`")
        if trig["used"]:
            raise _Refusal("exchanged_trigger_id")
        if time.monotonic() - trig["issued"] > self.trigger_ttl:
            raise _Refusal("expired_trigger_id")
        trig["used"] = True
        return trig["user_id"]

    def _check_external_id(self, view: dict, own: str | None = None) -> None:
        ext = view.get("external_id")
        if ext and any(v.get("external_id") == ext and v["id"] != own and v["_open"] for v in self._views.values()):
            raise _Refusal("duplicate_external_id")

    def _m_views_open(self, args: dict) -> dict:
        view = self._view_arg(args, "modal")
        user = self._exchange_trigger(args)
        self._check_external_id(view)
        self._close_views(user, all_=True)
        v = self._push_view(user, view)
        return {"view": self._render_view(v)}

    def _m_views_push(self, args: dict) -> dict:
        view = self._view_arg(args, "modal")
        user = self._exchange_trigger(args)
        if len(self._view_stacks.get(user, [])) >= 3:
            raise _Refusal("push_limit_reached")
        self._check_external_id(view)
        v = self._push_view(user, view)
        return {"view": self._render_view(v)}

    def _m_views_update(self, args: dict) -> dict:
        view = self._view_arg(args, None)
        vid, ext = self._str_arg(args, "view_id"), self._str_arg(args, "external_id")
        if not vid and not ext:
            raise _invalid_arguments("must provide one of: view_id, external_id")
        target = (
            self._views.get(vid)
            if vid
            else next((v for v in self._views.values() if ext and v.get("external_id") == ext), None)
        )
        if target is None:
            raise _Refusal("not_found")
        if view["type"] != target["type"]:
            raise _invalid_arguments("must be a valid enum value [json-pointer:/view/type]")
        h = self._str_arg(args, "hash")
        if h and h != target["hash"]:
            raise _Refusal("hash_conflict")
        self._check_external_id(view, own=target["id"])
        was_open = target["_open"]
        v = self._replace_view(target["id"], view)
        v["_open"] = was_open
        return {"view": self._render_view(v)}

    def _m_views_publish(self, args: dict) -> dict:
        user = self._str_arg(args, "user_id")
        if not user or user not in self._users:
            raise _invalid_arguments("invalid `user_id`")
        view = self._view_arg(args, "home")
        old = self._home.get(user)
        h = self._str_arg(args, "hash")
        if old and h and h != self._views[old]["hash"]:
            raise _Refusal("hash_conflict")
        v = self._make_view(view, user, root=None, previous=None, view_id=old)
        self._home[user] = v["id"]
        return {"view": self._render_view(v)}

    # ------------------------------------------------------------------------------------------
    # non-API endpoints

    def _response_url_post(self, path: str, body: dict) -> tuple[int, dict]:
        with self._cond:
            ru = self._response_urls.get(path)
            if ru is None:
                return 404, {"ok": False, "error": "invalid_url"}
            if time.monotonic() - ru["issued"] > _RESPONSE_URL_TTL:
                return 404, {"ok": False, "error": "expired_url"}
            if ru["uses"] >= _RESPONSE_URL_USES:
                return 404, {"ok": False, "error": "used_url"}
            ru["uses"] += 1
            if self._bool_arg(body, "delete_original"):
                if ru["message_ts"] and ru["message_ts"] in self._messages.get(ru["channel"], {}):
                    del self._messages[ru["channel"]][ru["message_ts"]]
                    self._changed()
                    return 200, {"ok": True}
                return 404, {"ok": False, "error": "message_not_found"}
            try:
                text, blocks, attachments = self._content(body)
            except _Refusal as r:
                return 400, {"ok": False, "error": r.error, **r.extra}
            if self._bool_arg(body, "replace_original"):
                msg = self._messages.get(ru["channel"], {}).get(ru["message_ts"] or "")
                if msg is None:
                    return 404, {"ok": False, "error": "message_not_found"}
                msg["text"] = text or ""
                if blocks:
                    msg["blocks"] = self._with_block_ids(blocks)
                else:
                    msg.pop("blocks", None)
                msg["edited"] = {"user": self.bot_user_id, "ts": self._take_ts()}
                self._changed()
                return 200, {"ok": True}
            thread_ts = body.get("thread_ts") or ru.get("thread_ts")
            if body.get("response_type") == "in_channel":
                if ru["channel"] not in self._channels:
                    return 404, {"ok": False, "error": "channel_not_found"}
                if thread_ts and thread_ts not in self._messages[ru["channel"]]:
                    thread_ts = None
                self._bot_message(ru["channel"], text=text, blocks=blocks, attachments=attachments, thread_ts=thread_ts)
            else:
                msg = {
                    "type": "message",
                    "subtype": "bot_message",
                    "text": text or "",
                    "ts": self._take_ts(),
                    "bot_id": self.bot_id,
                    "username": self.bot_name,
                }
                if blocks:
                    msg["blocks"] = self._with_block_ids(blocks)
                self._ephemeral.append(
                    {
                        "channel": ru["channel"],
                        "user": ru["user"],
                        "thread_ts": thread_ts,
                        "ts": msg["ts"],
                        "message": msg,
                    }
                )
            self._changed()
            return 200, {"ok": True}

    def _changed(self) -> None:
        with self._cond:
            self._generation += 1
            self._cond.notify_all()

    def _record(self, call: Call) -> None:
        with self._cond:
            self._calls.append(call)
            self._changed()


def _ts_key(ts: str) -> tuple[int, int]:
    whole, _, frac = ts.partition(".")
    try:
        return int(whole), int((frac + "000000")[:6])
    except ValueError:
        return 0, 0


_METHODS: dict[str, tuple[Callable[[FakeSlack, dict], dict], str | None]] = {
    "auth.test": (FakeSlack._m_auth_test, None),
    "chat.postMessage": (FakeSlack._m_chat_postMessage, "chat:write"),
    "chat.update": (FakeSlack._m_chat_update, "chat:write"),
    "chat.delete": (FakeSlack._m_chat_delete, "chat:write"),
    "chat.postEphemeral": (FakeSlack._m_chat_postEphemeral, "chat:write"),
    "chat.getPermalink": (FakeSlack._m_chat_getPermalink, None),
    "reactions.add": (FakeSlack._m_reactions_add, "reactions:write"),
    "conversations.history": (FakeSlack._m_conversations_history, None),
    "conversations.replies": (FakeSlack._m_conversations_replies, None),
    "files.info": (FakeSlack._m_files_info, "files:read"),
    "files.upload": (FakeSlack._m_files_upload, None),
    "files.getUploadURLExternal": (FakeSlack._m_files_getUploadURLExternal, "files:write"),
    "files.completeUploadExternal": (FakeSlack._m_files_completeUploadExternal, "files:write"),
    "views.open": (FakeSlack._m_views_open, None),
    "views.push": (FakeSlack._m_views_push, None),
    "views.update": (FakeSlack._m_views_update, None),
    "views.publish": (FakeSlack._m_views_publish, None),
    "usergroups.users.list": (FakeSlack._m_usergroups_users_list, "usergroups:read"),
}


# ----------------------------------------------------------------------------------------------
# HTTP


class _Handler(BaseHTTPRequestHandler):
    fake: FakeSlack
    protocol_version = "HTTP/1.1"
    server_version = "FakeSlack/1.0"
    timeout = 30  # idle keep-alive connections are dropped after this many seconds

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    # body helpers ------------------------------------------------------------------------------

    def _body_chunks(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            while True:
                line = self.rfile.readline()
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return
                remaining = size
                while remaining:
                    chunk = self.rfile.read(min(remaining, _CHUNK))
                    if not chunk:
                        return
                    remaining -= len(chunk)
                    yield chunk
                self.rfile.readline()
        else:
            remaining = int(self.headers.get("Content-Length") or 0)
            while remaining > 0:
                chunk = self.rfile.read(min(remaining, _CHUNK))
                if not chunk:
                    return
                remaining -= len(chunk)
                yield chunk

    def _read_body(self) -> bytes:
        return b"".join(self._body_chunks())

    def _send(self, status: int, body: bytes, content_type: str, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _send_json(self, status: int, data: Any, headers: dict | None = None) -> None:
        self._send(status, json.dumps(data).encode(), "application/json; charset=utf-8", headers)

    # routing -----------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._route()

    def do_HEAD(self) -> None:
        self._route()

    def do_POST(self) -> None:
        self._route()

    def _route(self) -> None:
        parsed = urllib.parse.urlsplit(self.path)
        path = parsed.path
        try:
            if path.startswith("/api/"):
                self._api(path[len("/api/") :], parsed.query)
            elif path.startswith("/upload/v1/") and self.command == "POST":
                self._upload(path[len("/upload/v1/") :])
            elif path.startswith("/files-pri/") and self.command in ("GET", "HEAD"):
                self._download(path)
            elif path.startswith(("/commands/", "/actions/")) and self.command == "POST":
                self._response_url(path.lstrip("/"))
            elif path == "/" and self.command in ("GET", "HEAD"):
                self._read_body()
                self._send(200, _SIGNIN_PAGE, "text/html; charset=utf-8")
            else:
                self._read_body()
                self._send(404, b"Not Found", "text/plain")
        except (BrokenPipeError, ConnectionResetError):
            pass

    # Web API -----------------------------------------------------------------------------------

    def _api(self, method: str, query: str) -> None:
        fake = self.fake
        headers = dict(self.headers.items())
        body = self._read_body()
        args: dict = {k: v[-1] for k, v in urllib.parse.parse_qs(query, keep_blank_values=True).items()}
        ctype = self.headers.get("Content-Type", "")
        mime = ctype.split(";")[0].strip().lower()
        warnings: list[str] = []
        token_in_json = False
        status, resp_headers = 200, {}
        try:
            if body:
                if not ctype:
                    raise _Refusal("missing_post_type")
                if "charset" not in ctype.lower() and mime != "multipart/form-data":
                    warnings.append("missing_charset")
                if mime == "application/json":
                    try:
                        decoded = json.loads(body)
                    except ValueError:
                        raise _Refusal("invalid_json") from None
                    if not isinstance(decoded, dict):
                        raise _Refusal("invalid_json")
                    token_in_json = "token" in decoded
                    args.update(decoded)
                elif mime in ("application/x-www-form-urlencoded", "text/plain"):
                    try:
                        form = urllib.parse.parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
                    except UnicodeDecodeError:
                        raise _Refusal("invalid_charset") from None
                    args.update({k: v[-1] for k, v in form.items()})
                elif mime == "multipart/form-data":
                    args.update(_parse_multipart_fields(ctype, body))
                else:
                    raise _Refusal("invalid_post_type")
            token = None
            auth = self.headers.get("Authorization", "")
            if auth.lower().startswith("bearer "):
                token = auth[7:].strip()
            elif "token" in args and mime != "application/json":
                token = str(args["token"])
            if mime != "application/json":
                args.pop("token", None)
            result = {"ok": True, **fake._api(method, args, token, token_in_json)}
        except _Refusal as r:
            status, resp_headers = r.status, r.headers
            result = {"ok": False, "error": r.error, **r.extra}
        if warnings:
            result["warning"] = ",".join(warnings)
            meta = result.setdefault("response_metadata", {})
            meta["warnings"] = warnings
        fake._record(Call(method, args, headers, time.time(), status, result, self.path))
        self._send_json(status, result, resp_headers)

    # uploads -----------------------------------------------------------------------------------

    def _upload(self, token: str) -> None:
        fake = self.fake
        headers = dict(self.headers.items())
        with fake._lock:
            file_id = fake._uploads.get(token)
            rec = fake._files.get(file_id) if file_id else None
        if rec is None or rec.completed:
            self._read_body()
            fake._record(Call("upload", {"token": token}, headers, time.time(), 404, None, self.path))
            self._send(404, b"Not Found", "text/plain")
            return
        tmpdir = fake._tmpdir or tempfile.gettempdir()
        raw_fd, raw_path = tempfile.mkstemp(dir=tmpdir, prefix="upload-")
        with os.fdopen(raw_fd, "wb") as out:
            for chunk in self._body_chunks():
                out.write(chunk)
        ctype = self.headers.get("Content-Type", "")
        final_path = raw_path
        if ctype.split(";")[0].strip().lower() == "multipart/form-data":
            extracted = _extract_multipart_file(ctype, raw_path, tmpdir)
            os.unlink(raw_path)
            if extracted is None:
                fake._record(Call("upload", {"token": token}, headers, time.time(), 400, None, self.path))
                self._send(400, b"invalid multipart body", "text/plain")
                return
            final_path = extracted
        size = os.stat(final_path).st_size
        with fake._cond:
            if rec.path and rec.path.startswith(tmpdir):
                try:
                    os.unlink(rec.path)
                except OSError:
                    pass
            rec.path, rec.data, rec.size, rec.uploaded = final_path, None, size, True
            fake._calls.append(
                Call("upload", {"file_id": rec.id, "size": size}, headers, time.time(), 200, f"OK - {size}", self.path)
            )
            fake._changed()
        self._send(200, f"OK - {size}".encode(), "text/plain; charset=utf-8")

    # downloads ---------------------------------------------------------------------------------

    def _download(self, path: str) -> None:
        fake = self.fake
        self._read_body()
        headers = dict(self.headers.items())
        m = re.match(r"^/files-pri/([^/-]+)-([^/]+)/(?:(download)/)?([^/]+)$", path)
        rec = None
        if m and m.group(1) == fake.team_id:
            with fake._lock:
                rec = fake._files.get(m.group(2))
            if rec is not None and (not rec.completed or urllib.parse.unquote(m.group(4)) != rec.name):
                rec = None
        auth = self.headers.get("Authorization", "")
        authorized = (
            auth.lower().startswith("bearer ") and auth[7:].strip() == fake.bot_token and "files:read" in fake.scopes
        )
        if not authorized:
            location = fake.url + "?redir=" + urllib.parse.quote(path, safe="")
            fake._record(Call("download", {"path": path}, headers, time.time(), 302, None, self.path))
            self._send(302, b"", "text/html; charset=utf-8", {"Location": location})
            return
        if rec is None:
            fake._record(Call("download", {"path": path}, headers, time.time(), 404, None, self.path))
            self._send(404, b"Not Found", "text/plain")
            return
        fake._record(Call("download", {"path": path, "file_id": rec.id}, headers, time.time(), 200, None, self.path))
        self.send_response(200)
        self.send_header("Content-Type", rec.mimetype)
        self.send_header("Content-Length", str(rec.size))
        disposition = "attachment" if m and m.group(3) else "inline"
        self.send_header(
            "Content-Disposition",
            f"{disposition}; filename=\"{rec.name}\"; filename*=UTF-8''{urllib.parse.quote(rec.name)}",
        )
        self.end_headers()
        if self.command == "HEAD":
            return
        with rec.open() as fh:
            rate = fake.download_rate
            if rate is None:
                shutil.copyfileobj(fh, self.wfile, _CHUNK)
                return
            started, sent = time.monotonic(), 0  # a slow link: at most `rate` bytes per second
            while chunk := fh.read(_CHUNK):
                self.wfile.write(chunk)
                sent += len(chunk)
                ahead = sent / rate - (time.monotonic() - started)
                if ahead > 0:
                    time.sleep(ahead)

    # response_url ------------------------------------------------------------------------------

    def _response_url(self, path: str) -> None:
        fake = self.fake
        headers = dict(self.headers.items())
        body = self._read_body()
        try:
            data = json.loads(body or b"{}")
            if not isinstance(data, dict):
                raise ValueError
        except ValueError:
            data = None
        if data is None:
            status, result = 400, {"ok": False, "error": "invalid_payload"}
            args = {"raw": body.decode("utf-8", "replace")}
        else:
            status, result = fake._response_url_post(path, data)
            args = data
        fake._record(Call("response_url", args, headers, time.time(), status, result, self.path))
        self._send_json(status, result)


def _parse_multipart_fields(ctype: str, body: bytes) -> dict:
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + body
    )
    out: dict = {}
    if not msg.is_multipart():
        raise _Refusal("invalid_form_data")
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not name:
            continue
        payload = part.get_payload(decode=True) or b""
        if not isinstance(payload, bytes):  # decode=True gives bytes (or None, made b"" above); typeshed allows more
            continue
        out[name] = payload if part.get_filename() else payload.decode("utf-8", "replace")
    return out


def _extract_multipart_file(ctype: str, raw_path: str, tmpdir: str) -> str | None:
    """Copy the file part of a multipart body on disk to its own file, without loading it."""
    m = re.search(r'boundary="?([^";]+)"?', ctype)
    if not m or os.stat(raw_path).st_size == 0:
        return None
    delim = b"--" + m.group(1).encode()
    parts = []
    with open(raw_path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        start = mm.find(delim)
        while start != -1:
            head = start + len(delim)
            if mm[head : head + 2] == b"--":
                break
            head_end = mm.find(b"\r\n\r\n", head)
            if head_end == -1:
                break
            part_headers = mm[head:head_end].decode("utf-8", "replace")
            data_start = head_end + 4
            end = mm.find(b"\r\n" + delim, data_start)
            if end == -1:
                break
            parts.append((part_headers, data_start, end))
            start = end + 2
        if not parts:
            return None
        chosen = (
            next((p for p in parts if "filename=" in p[0]), None)
            or next((p for p in parts if 'name="file"' in p[0]), None)
            or parts[0]
        )
        fd, out_path = tempfile.mkstemp(dir=tmpdir, prefix="upload-")
        with os.fdopen(fd, "wb") as out:
            pos = chosen[1]
            while pos < chosen[2]:
                nxt = min(pos + _CHUNK, chosen[2])
                out.write(mm[pos:nxt])
                pos = nxt
    return out_path
