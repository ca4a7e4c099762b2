"""The one WebClient every Slack call goes through: nothing leaves unmasked, every call is counted.

Masking here is the last line of defence: reports are masked when they are made (before any
text is clipped), and this client masks again whatever a message, update, modal, ephemeral
reply or uploaded file carries, so no code path can post a secret by forgetting to.
"""

from __future__ import annotations

from urllib.parse import urlparse

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler

from bot.metrics import Metrics
from bot.redact import redact

# arguments that are identifiers, never text a log could have put a secret into
_ID_KEYS = frozenset(
    {
        "channel",
        "channel_id",
        "channels",
        "ts",
        "thread_ts",
        "message_ts",
        "user",
        "users",
        "usergroup",
        "trigger_id",
        "view_id",
        "hash",
        "file",
        "file_id",
        "files",
        "external_id",
        "type",
        "action_id",
        "block_id",
        "callback_id",
        "style",
        "value",
        "url",
        "token",
        "private_metadata",
        "response_action",
        "limit",
        "cursor",
        "length",
        "id",
        "team_id",
    }
)


def mask_arguments(value, key: str | None = None):
    """Every string in a Web API call's arguments, masked; identifiers are left alone."""
    if key in _ID_KEYS:
        return value
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [mask_arguments(v) for v in value]
    if isinstance(value, dict):
        return {k: mask_arguments(v, k) for k, v in value.items()}
    return value


class _CountedRateLimits(RateLimitErrorRetryHandler):
    """Retries 429s after Retry-After, and counts each one."""

    def __init__(self, metrics: Metrics, **kwargs):
        super().__init__(**kwargs)
        self.metrics = metrics

    def _can_retry(self, *, state, request, response=None, error=None) -> bool:
        if response is not None and response.status_code == 429:
            method = urlparse(request.url).path.rsplit("/", 1)[-1]
            self.metrics.slack_calls.labels(method, "ratelimited").inc()
        return super()._can_retry(state=state, request=request, response=response, error=error)


class DenpexWebClient(WebClient):
    def __init__(self, *, metrics: Metrics, **kwargs):
        super().__init__(
            **kwargs,
            retry_handlers=[
                _CountedRateLimits(metrics, max_retry_count=6),
                ConnectionErrorRetryHandler(max_retry_count=3),
            ],
        )
        self.metrics = metrics

    def api_call(
        self,
        api_method: str,
        *,
        http_verb: str = "POST",
        files=None,
        data=None,
        params=None,
        json=None,
        headers=None,
        auth=None,
    ):
        try:
            response = super().api_call(
                api_method,
                http_verb=http_verb,
                files=files,
                data=mask_arguments(data),
                params=mask_arguments(params),
                json=mask_arguments(json),
                headers=headers,
                auth=auth,
            )
        except SlackApiError as exc:
            self.metrics.slack_calls.labels(api_method, str(exc.response.get("error") or "error")).inc()
            raise
        except Exception as exc:
            self.metrics.slack_calls.labels(api_method, type(exc).__name__).inc()
            raise
        self.metrics.slack_calls.labels(api_method, "ok").inc()
        return response

    def files_upload_v2(self, **kwargs):
        """The file's bytes go to an upload URL, not through api_call: mask them (and its names) here."""
        for key in ("content", "title", "filename", "initial_comment", "alt_txt"):
            if isinstance(kwargs.get(key), str):
                kwargs[key] = redact(kwargs[key])
        if isinstance(kwargs.get("content"), bytes):
            kwargs["content"] = redact(kwargs["content"].decode("utf-8", "replace"))
        return super().files_upload_v2(**kwargs)
