"""Send the bot what Slack sends: signed Events API callbacks, slash commands and interactions.

::

    driver = SlackDriver("http://127.0.0.1:3000/slack/events", fake.signing_secret, fake)
    r = driver.event({"type": "app_mention", "user": "U123", "text": "<@U0BOT> hi",
                      "channel": "C123", "ts": msg["ts"]})
    assert r.status_code == 200
    fake.wait_for(lambda: fake.calls_to("chat.postMessage"))

Every request is signed like Slack signs it: ``X-Slack-Request-Timestamp: <unix seconds>`` and
``X-Slack-Signature: v0=<hex HMAC-SHA256(signing_secret, "v0:<timestamp>:<raw body>")>``.
Each sender takes ``stale=True`` (timestamp 6 min 1 s old), ``bad_signature=True`` (signed with
a wrong secret), or explicit ``timestamp=`` / ``signature=`` to test refusals.

Slack gives the app 3 seconds to acknowledge; the driver's HTTP timeout is ``ack_timeout``
(default 3.0 s), so a slow ack raises ``httpx.ReadTimeout`` as Slack would count it a failure
(and retry: see :meth:`SlackDriver.retry_last_event`).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import secrets
import string
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

import httpx

from . import blockkit
from .server import FakeSlack

__all__ = ["SentRequest", "SlackDriver", "STALE_SECONDS", "sign"]

STALE_SECONDS = 6 * 60 + 1
LEGACY_VERIFICATION_TOKEN = "fakeLegacyVerificationToken"


def sign(signing_secret: str, timestamp: int | str, body: bytes | str) -> str:
    """``v0=`` + hex HMAC-SHA256 of ``v0:{timestamp}:{body}``, as Slack computes it."""
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    base = f"v0:{timestamp}:{body}".encode()
    return "v0=" + hmac.new(signing_secret.encode("utf-8"), base, hashlib.sha256).hexdigest()


def _event_id() -> str:
    return "Ev" + "".join(secrets.choice(string.ascii_uppercase + string.digits) for _ in range(10))


@dataclass
class SentRequest:
    """What the driver sent (``body`` is the exact bytes signed) and what came back."""

    kind: str
    body: bytes
    headers: dict
    response: httpx.Response | None = None
    payload: Any = None


class SlackDriver:
    """Plays Slack's side towards the bot's HTTP endpoint ``app_url``."""

    def __init__(
        self,
        app_url: str,
        signing_secret: str,
        fake: FakeSlack,
        *,
        api_app_id: str | None = None,
        verification_token: str = LEGACY_VERIFICATION_TOKEN,
        ack_timeout: float = 3.0,
        client: httpx.Client | None = None,
    ):
        self.app_url = app_url
        self.signing_secret = signing_secret
        self.fake = fake
        self.api_app_id = api_app_id or fake.app_id
        self.verification_token = verification_token
        self.ack_timeout = ack_timeout
        self._client = client or httpx.Client(timeout=ack_timeout, trust_env=False)
        self._own_client = client is None
        self.sent: list[SentRequest] = []

    def close(self) -> None:
        if self._own_client:
            self._client.close()

    def __enter__(self) -> SlackDriver:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------
    # transport

    def signed_headers(
        self,
        body: bytes,
        content_type: str,
        *,
        timestamp: int | str | None = None,
        signature: str | None = None,
        stale: bool = False,
        bad_signature: bool = False,
    ) -> dict:
        if timestamp is None:
            timestamp = int(time.time()) - (STALE_SECONDS if stale else 0)
        if signature is None:
            secret = self.signing_secret + "-wrong" if bad_signature else self.signing_secret
            signature = sign(secret, timestamp, body)
        return {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": str(timestamp),
            "X-Slack-Signature": signature,
            "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
            "Accept": "application/json,*/*",
        }

    def send(
        self,
        kind: str,
        body: bytes,
        content_type: str,
        *,
        payload: Any = None,
        extra_headers: dict | None = None,
        **sig: Any,
    ) -> httpx.Response:
        """POST ``body`` to the app, signed; record it in :attr:`sent`; return the response."""
        headers = self.signed_headers(body, content_type, **sig)
        headers.update(extra_headers or {})
        req = SentRequest(kind, body, headers, None, payload)
        self.sent.append(req)
        req.response = self._client.post(self.app_url, content=body, headers=headers)
        return req.response

    @property
    def last(self) -> SentRequest:
        return self.sent[-1]

    # ------------------------------------------------------------------------------------------
    # Events API

    def event_envelope(
        self, event: dict, *, event_id: str | None = None, event_time: int | None = None, team_id: str | None = None
    ) -> dict:
        event = copy.deepcopy(event)
        if "event_ts" not in event:
            event["event_ts"] = event.get("ts") or f"{time.time():.6f}"
        team = team_id or self.fake.team_id
        return {
            "token": self.verification_token,
            "team_id": team,
            "context_team_id": team,
            "context_enterprise_id": None,
            "api_app_id": self.api_app_id,
            "event": event,
            "type": "event_callback",
            "event_id": event_id or _event_id(),
            "event_time": event_time or int(time.time()),
            "authorizations": [
                {
                    "enterprise_id": None,
                    "team_id": team,
                    "user_id": self.fake.bot_user_id,
                    "is_bot": True,
                    "is_enterprise_install": False,
                }
            ],
            "is_ext_shared_channel": False,
            "event_context": "4-" + secrets.token_urlsafe(40),
        }

    def event(
        self,
        event: dict,
        event_id: str | None = None,
        retry_num: int | None = None,
        retry_reason: str | None = None,
        timestamp: int | str | None = None,
        signature: str | None = None,
        *,
        stale: bool = False,
        bad_signature: bool = False,
        event_time: int | None = None,
        team_id: str | None = None,
    ) -> httpx.Response:
        """Deliver ``event`` in an ``event_callback`` envelope (JSON), as Slack does.

        A retry (``retry_num``) carries ``X-Slack-Retry-Num`` and ``X-Slack-Retry-Reason``
        (Slack's reasons: ``http_timeout``, ``too_many_requests``, ``http_error``,
        ``connection_failed``, ``ssl_error``, ``unknown_error``); pass the original ``event_id``.
        """
        envelope = self.event_envelope(event, event_id=event_id, event_time=event_time, team_id=team_id)
        body = json.dumps(envelope).encode("utf-8")
        extra = {}
        if retry_num is not None:
            extra["X-Slack-Retry-Num"] = str(retry_num)
            extra["X-Slack-Retry-Reason"] = retry_reason or "http_timeout"
        return self.send(
            "event",
            body,
            "application/json",
            payload=envelope,
            extra_headers=extra,
            timestamp=timestamp,
            signature=signature,
            stale=stale,
            bad_signature=bad_signature,
        )

    def retry_last_event(self, retry_num: int = 1, retry_reason: str = "http_timeout") -> httpx.Response:
        """Redeliver the last event exactly (same body and event_id), freshly signed, as a retry."""
        last = next((r for r in reversed(self.sent) if r.kind == "event"), None)
        if last is None:
            raise LookupError("no event was sent yet")
        return self.send(
            "event",
            last.body,
            "application/json",
            payload=last.payload,
            extra_headers={"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": retry_reason},
        )

    def url_verification(
        self, challenge: str = "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P", **sig: Any
    ) -> httpx.Response:
        payload = {"token": self.verification_token, "challenge": challenge, "type": "url_verification"}
        return self.send("url_verification", json.dumps(payload).encode(), "application/json", payload=payload, **sig)

    def file_shared(
        self,
        file: dict,
        *,
        channel_id: str | None = None,
        user_id: str | None = None,
        event_id: str | None = None,
        **sig: Any,
    ) -> httpx.Response:
        """The ``file_shared`` event Slack sends for an upload (one of two events per upload)."""
        channel = channel_id or _share_of(file)[0]
        event = {
            "type": "file_shared",
            "channel_id": channel,
            "file_id": file["id"],
            "user_id": user_id or file.get("user"),
            "file": {"id": file["id"]},
            "event_ts": f"{time.time():.6f}",
        }
        return self.event(event, event_id=event_id, **sig)

    def message_file_share(
        self,
        file: dict,
        *,
        channel: str | None = None,
        user: str | None = None,
        text: str | None = None,
        event_id: str | None = None,
        **sig: Any,
    ) -> httpx.Response:
        """The ``message`` event (subtype ``file_share``) Slack sends for the same upload."""
        ch, share = _share_of(file, channel)
        msg = self.fake.message(ch, share["ts"]) if share else None
        ts = share["ts"] if share else f"{time.time():.6f}"
        channel_obj = self.fake._channels.get(ch, {})
        event = {
            "type": "message",
            "subtype": "file_share",
            "text": text if text is not None else (msg or {}).get("text", ""),
            "files": [copy.deepcopy(f) for f in (msg or {}).get("files", [file])],
            "upload": False,
            "user": user or file.get("user"),
            "display_as_bot": False,
            "ts": ts,
            "channel": ch,
            "event_ts": ts,
            "channel_type": "im"
            if channel_obj.get("is_im")
            else "group"
            if channel_obj.get("is_private")
            else "channel",
        }
        if share and share.get("thread_ts"):
            event["thread_ts"] = share["thread_ts"]
            parent = self.fake.message(ch, share["thread_ts"])
            if parent:
                event["parent_user_id"] = parent.get("user")
        return self.event(event, event_id=event_id, **sig)

    def file_upload_events(self, file: dict, **kw: Any) -> tuple[httpx.Response, httpx.Response]:
        """Both events of one upload (different event ids), message first as Slack usually does."""
        return self.message_file_share(file, **kw), self.file_shared(file, **kw)

    # ------------------------------------------------------------------------------------------
    # slash commands

    def command(
        self,
        text: str,
        command: str = "/denpex",
        user_id: str = "U123",
        channel_id: str = "C123",
        *,
        channel_name: str | None = None,
        user_name: str | None = None,
        team_domain: str | None = None,
        trigger_id: str | None = None,
        response_url: str | None = None,
        **sig: Any,
    ) -> httpx.Response:
        """A slash command, form-encoded with every field Slack sends.

        ``response_url`` points at the fake (POSTs there are recorded as ``response_url`` calls)
        and ``trigger_id`` is valid for views.open for ``fake.trigger_ttl`` seconds.
        """
        fake = self.fake
        fields = {
            "token": self.verification_token,
            "team_id": fake.team_id,
            "team_domain": team_domain or fake.team_domain,
            "channel_id": channel_id,
            "channel_name": channel_name or _channel_name(fake, channel_id),
            "user_id": user_id,
            "user_name": user_name or _user_name(fake, user_id),
            "command": command,
            "text": text,
            "api_app_id": self.api_app_id,
            "is_enterprise_install": "false",
            "response_url": response_url or fake.new_response_url("commands", channel_id, user_id),
            "trigger_id": trigger_id or fake.issue_trigger(user_id),
        }
        body = urllib.parse.urlencode(fields).encode()
        return self.send("command", body, "application/x-www-form-urlencoded", payload=fields, **sig)

    # ------------------------------------------------------------------------------------------
    # interactivity

    def _interaction(self, kind: str, payload: dict, **sig: Any) -> httpx.Response:
        body = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
        return self.send(kind, body, "application/x-www-form-urlencoded", payload=payload, **sig)

    def _user(self, user_id: str) -> dict:
        name = _user_name(self.fake, user_id)
        return {"id": user_id, "username": name, "name": name, "team_id": self.fake.team_id}

    def block_action(
        self,
        action_id: str,
        value: str | None = None,
        message_ts: str | None = None,
        channel: str = "C123",
        user_id: str = "U123",
        block_id: str | None = None,
        action_type: str | None = None,
        selected_options: list | None = None,
        message: dict | None = None,
        *,
        selected_option: Any = None,
        strict: bool = True,
        **sig: Any,
    ) -> httpx.Response:
        """A ``block_actions`` interaction on a message: the user clicked ``action_id``.

        The message is the fake's current copy of ``(channel, message_ts)`` unless ``message``
        is given.  With ``strict`` (default) the element must exist in that message, as only
        rendered elements can be clicked; ``block_id``, the button text and (if ``value`` is
        None) the value come from it.  ``selected_options`` (checkboxes/multi-selects) may be
        option dicts or option values.
        """
        fake = self.fake
        if message is None:
            if message_ts is None:
                raise ValueError("block_action needs message_ts (or message)")
            message = fake.message(channel, message_ts)
            if message is None and strict:
                raise LookupError(f"no message {message_ts} in {channel}: Slack only sends actions on real messages")
        message = copy.deepcopy(message or {})
        message_ts = message_ts or message.get("ts")
        found_block, element = _find_element(message.get("blocks", []), action_id, block_id)
        if element is None and strict:
            raise LookupError(f"action_id {action_id!r} is not in the message's blocks")
        element = element or {}
        kind = action_type or element.get("type") or "button"
        action: dict = {
            "action_id": action_id,
            "block_id": block_id or (found_block or {}).get("block_id", _rand_block_id()),
            "type": kind,
            "action_ts": f"{time.time():.6f}",
        }
        if kind == "button":
            action["text"] = element.get("text", {"type": "plain_text", "text": action_id, "emoji": True})
            action["value"] = value if value is not None else element.get("value")
            if action["value"] is None:
                del action["value"]
            if element.get("style"):
                action["style"] = element["style"]
        elif kind in ("checkboxes", "multi_static_select"):
            action["selected_options"] = _resolve_options(element, selected_options or [])
        elif kind in ("static_select", "radio_buttons", "overflow"):
            chosen = (
                selected_option if selected_option is not None else (selected_options[0] if selected_options else value)
            )
            resolved = _resolve_options(element, [chosen] if chosen is not None else [])
            action["selected_option"] = resolved[0] if resolved else None
        elif value is not None:
            action["value"] = value
        container = {"type": "message", "message_ts": message_ts, "channel_id": channel, "is_ephemeral": False}
        if message.get("thread_ts") and message.get("thread_ts") != message_ts:
            container["thread_ts"] = message["thread_ts"]
        payload: dict[str, Any] = {
            "type": "block_actions",
            "user": self._user(user_id),
            "api_app_id": self.api_app_id,
            "token": self.verification_token,
            "container": container,
            "trigger_id": fake.issue_trigger(user_id),
            "team": {"id": fake.team_id, "domain": fake.team_domain},
            "enterprise": None,
            "is_enterprise_install": False,
            "channel": {"id": channel, "name": _channel_name(fake, channel)},
            "message": message,
            "state": {"values": {}},
            "response_url": fake.new_response_url("actions", channel, user_id, message_ts, message.get("thread_ts")),
            "actions": [action],
        }
        return self._interaction("block_actions", payload, **sig)

    def view_submission(
        self,
        callback_id: str,
        values: dict,
        private_metadata: str | None = None,
        user_id: str = "U123",
        *,
        view_id: str | None = None,
        strict: bool = True,
        apply_response: bool = True,
        **sig: Any,
    ) -> httpx.Response:
        """A ``view_submission`` for the modal with ``callback_id`` that the bot opened for the user.

        ``values`` is ``{block_id: {action_id: state}}``; a state may be a plain string (it
        becomes ``{"type": <element type>, "value": ...}``).  With ``strict`` the view must be
        open in the fake (opened by the bot via views.open/push) and the block/action ids must
        exist in it.  With ``apply_response`` the bot's ack is applied like Slack does: empty
        body closes the view, ``response_action`` ``update``/``push``/``clear`` change the
        stack, ``errors`` keeps it open.
        """
        fake = self.fake
        view = fake.view(view_id) if view_id else fake.open_view(user_id, callback_id)
        if view is None:
            if strict:
                raise LookupError(
                    f"no open view with callback_id {callback_id!r} for {user_id}: "
                    "the bot must open it with views.open first"
                )
            view = {
                "id": _rand_block_id("V", 10),
                "team_id": fake.team_id,
                "type": "modal",
                "blocks": [],
                "private_metadata": "",
                "callback_id": callback_id,
                "hash": f"{int(time.time())}.x",
                "title": {"type": "plain_text", "text": "Modal"},
                "close": None,
                "submit": None,
                "clear_on_close": False,
                "notify_on_close": False,
                "previous_view_id": None,
                "root_view_id": None,
                "app_id": fake.app_id,
                "external_id": "",
                "app_installed_team_id": fake.team_id,
                "bot_id": fake.bot_id,
            }
        state = _state_values(view.get("blocks", []), values, strict)
        view = copy.deepcopy(view)
        view["state"] = {"values": state}
        if private_metadata is not None:
            view["private_metadata"] = private_metadata
        payload = {
            "type": "view_submission",
            "team": {"id": fake.team_id, "domain": fake.team_domain},
            "user": self._user(user_id),
            "api_app_id": self.api_app_id,
            "token": self.verification_token,
            "trigger_id": fake.issue_trigger(user_id),
            "view": view,
            "response_urls": [],
            "is_enterprise_install": False,
            "enterprise": None,
        }
        response = self._interaction("view_submission", payload, **sig)
        if apply_response and response.status_code == 200 and view.get("id") in {v["id"] for v in fake.views()}:
            _apply_view_response(fake, user_id, view["id"], response)
        return response

    def view_closed(
        self, callback_id: str, user_id: str = "U123", *, view_id: str | None = None, **sig: Any
    ) -> httpx.Response:
        """The user closed the modal; Slack sends ``view_closed`` only if ``notify_on_close``."""
        fake = self.fake
        view = fake.view(view_id) if view_id else fake.open_view(user_id, callback_id)
        if view is None:
            raise LookupError(f"no open view with callback_id {callback_id!r}")
        fake._close_views(user_id, all_=True)
        payload = {
            "type": "view_closed",
            "team": {"id": fake.team_id, "domain": fake.team_domain},
            "user": self._user(user_id),
            "api_app_id": self.api_app_id,
            "token": self.verification_token,
            "view": view,
            "is_cleared": True,
            "is_enterprise_install": False,
            "enterprise": None,
        }
        return self._interaction("view_closed", payload, **sig)


# ----------------------------------------------------------------------------------------------
# helpers


def _rand_block_id(prefix: str = "", n: int = 5) -> str:
    return prefix + "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(n))


def _channel_name(fake: FakeSlack, channel_id: str) -> str:
    ch = fake._channels.get(channel_id)
    if ch is None:
        return channel_id.lower()
    return "directmessage" if ch["is_im"] else ("privategroup" if ch["is_private"] else ch["name"])


def _user_name(fake: FakeSlack, user_id: str) -> str:
    user = fake._users.get(user_id)
    return user["name"] if user else user_id.lower()


def _share_of(file: dict, channel: str | None = None) -> tuple[str, dict | None]:
    shares = file.get("shares") or {}
    for scope in ("public", "private"):
        for ch, lst in (shares.get(scope) or {}).items():
            if channel is None or ch == channel:
                return ch, (lst[-1] if lst else None)
    chans = file.get("channels") or file.get("groups") or file.get("ims") or []
    if channel is None and not chans:
        raise ValueError("the file is not shared in any channel: pass channel/channel_id")
    return channel or chans[0], None


def _elements_of(block: dict) -> list[dict]:
    if block.get("type") == "actions":
        return [e for e in block.get("elements", []) if isinstance(e, dict)]
    if block.get("type") == "section" and isinstance(block.get("accessory"), dict):
        return [block["accessory"]]
    if block.get("type") == "input" and isinstance(block.get("element"), dict):
        return [block["element"]]
    return []


def _find_element(blocks: list, action_id: str, block_id: str | None) -> tuple[dict | None, dict | None]:
    for b in blocks:
        if not isinstance(b, dict) or (block_id is not None and b.get("block_id") != block_id):
            continue
        for e in _elements_of(b):
            if e.get("action_id") == action_id:
                return b, e
    return None, None


def _all_options(element: dict) -> list[dict]:
    opts = list(element.get("options") or [])
    for g in element.get("option_groups") or []:
        opts += g.get("options") or []
    return opts


def _resolve_options(element: dict, chosen: list) -> list:
    options = _all_options(element)
    out = []
    for c in chosen:
        if isinstance(c, dict):
            out.append(c)
            continue
        match = next((o for o in options if o.get("value") == c), None)
        if match is None:
            if options:
                raise LookupError(f"option {c!r} is not among the element's options")
            match = {"text": {"type": "plain_text", "text": str(c)}, "value": str(c)}
        out.append(copy.deepcopy(match))
    return out


def _state_values(blocks: list, values: dict, strict: bool) -> dict:
    elements: dict[tuple[str | None, str | None], dict] = {}
    for b in blocks:
        if isinstance(b, dict):
            for e in _elements_of(b):
                elements[(b.get("block_id"), e.get("action_id"))] = e
    state: dict = {}
    for block_id, actions in values.items():
        state[block_id] = {}
        for action_id, v in actions.items():
            element = elements.get((block_id, action_id))
            if element is None and strict:
                raise LookupError(f"no element {block_id}/{action_id} in the view")
            etype = (element or {}).get("type", "plain_text_input")
            if isinstance(v, dict):
                state[block_id][action_id] = v
            elif etype in ("checkboxes", "multi_static_select"):
                state[block_id][action_id] = {
                    "type": etype,
                    "selected_options": _resolve_options(element or {}, list(v)),
                }
            elif etype in ("static_select", "radio_buttons"):
                state[block_id][action_id] = {
                    "type": etype,
                    "selected_option": (_resolve_options(element or {}, [v]) or [None])[0],
                }
            else:
                state[block_id][action_id] = {"type": etype, "value": v}
    return state


def _apply_view_response(fake: FakeSlack, user_id: str, view_id: str, response: httpx.Response) -> None:
    body = response.content.strip()
    if not body:
        fake._close_views(user_id, view_id)
        return
    try:
        data = json.loads(body)
    except ValueError:
        return
    action = data.get("response_action") if isinstance(data, dict) else None
    if action in ("update", "push"):
        # Slack refuses an invalid view in the ack; here that fails the test loudly.
        errors = blockkit.validate_view(data.get("view"), expect_type="modal")
        if errors:
            raise blockkit.InvalidBlocks("invalid_arguments", errors)
    if action == "clear":
        fake._close_views(user_id, all_=True)
    elif action == "update" and isinstance(data.get("view"), dict):
        fake._replace_view(view_id, data["view"])
    elif action == "push" and isinstance(data.get("view"), dict):
        fake._push_view(user_id, data["view"])
    elif action is None:
        fake._close_views(user_id, view_id)
