"""The one HTTP layer of the fetchers that read a JSON API: Kubernetes, the Ray dashboard, slurmrestd.

`JsonApi` wraps an (injected) `httpx.Client` for one API and one fetch: every request is bounded by
what is left of the fetch's time budget, and every failure becomes the same `FetchError` subclass
whichever API it came from, with a message that names the API, the cluster and what was being read:

    401, 403          PermissionDenied   (the API's advice says which credentials or rights)
    404               NotFound           (an UnknownJob unless the caller catches it: an optional object, a gone pod)
    429               RateLimited        (an Unreachable; says what Retry-After asked for)
    5xx, other codes  Unreachable
    no connection     CannotConnect      (an Unreachable)
    a broken transfer Unreachable
    httpx timeouts    FetchTimeout       (so is a budget that ran out)
    a bad URL scheme  NotConfigured
    not JSON          Unreachable        (a proxy or a login page answered)

Status errors carry `.status` and `.detail` (what the error body said), for callers that treat some
statuses as notes rather than failures.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path

import httpx

from bot.fetch.base import Budget, write_tail_of_stream
from bot.fetch.errors import (
    CannotConnect,
    FetchError,
    FetchTimeout,
    NotConfigured,
    NotFound,
    PermissionDenied,
    RateLimited,
    Unreachable,
)

CONNECT_SECONDS = 10.0  # at most this long to connect, whatever the budget
DETAIL_CHARS = 400  # of an error body, in messages


@dataclass
class Tail:
    kept: int  # bytes written (the newest ones)
    received: int  # bytes the server sent
    lines: int  # newlines the server sent


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def error_detail(resp: httpx.Response) -> str:
    """What an error body says: a JSON error's message (a Kubernetes Status, a FastAPI `detail`, slurmrestd's
    `errors`), else the last line of a text body (a traceback ends with the exception)."""
    try:
        data = resp.json()
    except ValueError:
        data = None
    if isinstance(data, dict):
        for key in ("message", "detail", "msg"):
            if data.get(key):
                return str(data[key])[:DETAIL_CHARS]
        errors = data.get("errors")
        if not isinstance(errors, list):
            errors = []
        said = [e.get("error") or e.get("description") if isinstance(e, dict) else e for e in errors]
        return "; ".join(str(m) for m in said if m)[:DETAIL_CHARS]
    lines = resp.text.strip().splitlines()
    return lines[-1].strip()[:DETAIL_CHARS] if lines else ""


class JsonApi:
    """Requests to one API within one fetch's time budget, failing as FetchError subclasses.

    `advice` adds the API's own hint to a failure, by key: 401, 403, 404, "timeout", "unreachable"."""

    def __init__(
        self,
        client: httpx.Client,
        base: str,
        budget: Budget,
        *,
        service: str,
        cluster: str,
        headers: Mapping[str, str] | None = None,
        advice: Mapping[int | str, str] | None = None,
        location: str | None = None,
    ):
        self.client = client
        self.base = base.rstrip("/")
        self.budget = budget
        self.cluster = cluster
        self.headers = {"Accept": "application/json", **(headers or {})}
        self.advice = dict(advice or {})
        self.where = f"{service} of cluster {cluster!r} at {location or self.base}"

    def url(self, path: str) -> str:
        return self.base + path

    def timeout(self) -> httpx.Timeout:
        left = self.budget.time_left()
        return httpx.Timeout(left, connect=min(CONNECT_SECONDS, left))

    # ------------------------------------------------------------------------------------------ requests

    def request(
        self,
        method: str,
        path: str,
        *,
        what: str,
        params: Mapping | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """One request, whatever its status; transport failures raise."""
        self.budget.check_time(what)
        try:
            return self.client.request(
                method, self.url(path), params=params, headers=self._headers(headers), timeout=self.timeout()
            )
        except httpx.HTTPError as exc:
            raise self.transport_error(exc, what) from None

    def get_json(self, path: str, *, what: str, params: Mapping | None = None) -> dict:
        """A GET whose answer must be a JSON object; any other status raises."""
        resp = self.request("GET", path, what=what, params=params)
        if not resp.is_success:
            raise self.status_error(resp, what)
        return self.json_body(resp, what)

    def json_body(self, resp: httpx.Response, what: str) -> dict:
        try:
            data = resp.json()
        except ValueError:
            raise Unreachable(
                f"{self.where} answered {what} with something that is not JSON "
                f"({resp.headers.get('content-type') or 'no content type'}: a proxy or a login "
                "page?)"
            ) from None
        if not isinstance(data, dict):
            raise Unreachable(
                f"{self.where} answered {what} with unexpected JSON (a {type(data).__name__}, not an object)"
            )
        return data

    def get_tail(
        self,
        path: str,
        dest: Path,
        keep: int,
        *,
        what: str,
        params: Mapping | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Tail:
        """Stream a GET's body into `dest`, keeping its newest `keep` bytes (from a line start) and stopping when
        the time budget runs out. On any failure `dest` is removed and the error raised."""
        self.budget.check_time(what)
        tail = Tail(0, 0, 0)

        def chunks(resp: httpx.Response):
            for chunk in resp.iter_bytes():
                tail.lines += chunk.count(b"\n")
                yield chunk
                if time.monotonic() > self.budget.deadline:
                    raise FetchTimeout(
                        f"the {self.budget.seconds:.0f}s time budget ran out while {what} from {self.where}"
                    )

        try:
            with self.client.stream(
                "GET", self.url(path), params=params, headers=self._headers(headers), timeout=self.timeout()
            ) as resp:
                if not resp.is_success:
                    resp.read()
                    raise self.status_error(resp, what)
                tail.kept, tail.received = write_tail_of_stream(chunks(resp), dest, keep)
        except httpx.HTTPError as exc:
            dest.unlink(missing_ok=True)
            raise self.transport_error(exc, what) from None
        except BaseException:
            dest.unlink(missing_ok=True)
            raise
        return tail

    def _headers(self, extra: Mapping[str, str] | None) -> dict[str, str]:
        return {**self.headers, **(extra or {})}

    # ------------------------------------------------------------------------------------------ errors

    def status_error(self, resp: httpx.Response, what: str) -> FetchError:
        """The FetchError for an answer that is not a success."""
        code, detail = resp.status_code, error_detail(resp)
        said = f": {detail}" if detail and detail.lower() != resp.reason_phrase.lower() else ""
        if code == 401:
            error: FetchError = PermissionDenied(
                f"{self.where} rejected the bot's credentials while {what} (401 Unauthorized{said}): "
                + self.advice.get(401, "they are missing, expired or wrong")
            )
        elif code == 403:
            error = PermissionDenied(
                f"{self.where} refused {what} (403 Forbidden{said}): "
                + self.advice.get(403, "the bot's credentials do not allow it")
            )
        elif code == 404:
            error = NotFound(
                f"{self.where} found nothing while {what} (404 Not Found{said})"
                + (f": {self.advice[404]}" if 404 in self.advice else "")
            )
        elif code == 429:
            wait = retry_after(resp)
            error = RateLimited(
                f"{self.where} is rate-limiting the bot (429 Too Many Requests) while {what}; "
                + (
                    f"its Retry-After asks to wait {wait:.0f}s"
                    if wait is not None
                    else "it sent no Retry-After: try again in a minute"
                )
            )
            error.retry_after = wait
        else:
            status_line = f"{code} {resp.reason_phrase}".strip()
            error = Unreachable(
                f"{self.where} answered {status_line} while {what}{said}"
                + ("; it may be overloaded or restarting, try again" if code >= 500 else "")
            )
        error.status, error.detail = code, detail
        return error

    def transport_error(self, exc: httpx.HTTPError, what: str) -> FetchError:
        """The FetchError for a request that got no answer."""
        if isinstance(exc, httpx.TimeoutException):
            return FetchTimeout(
                f"{self.where} did not answer in time while {what} ({type(exc).__name__}); "
                + self.advice.get("timeout", "it is slow or overloaded.")
                + " Try again, or diagnose the log files directly."
            )
        if isinstance(exc, httpx.UnsupportedProtocol):
            return NotConfigured(f"cluster {self.cluster!r}: {self.base} is not an http(s) URL ({exc})")
        hint = f" ({self.advice['unreachable']})" if "unreachable" in self.advice else ""
        if isinstance(exc, httpx.ConnectError):
            return CannotConnect(f"cannot reach {self.where} while {what}: {str(exc) or type(exc).__name__}{hint}")
        return Unreachable(
            f"the connection to {self.where} failed while {what}: {type(exc).__name__} {exc}".rstrip() + hint
        )


def retry_after(resp: httpx.Response) -> float | None:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP date), or None."""
    value = resp.headers.get("retry-after", "").strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
