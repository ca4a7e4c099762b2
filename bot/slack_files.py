"""Downloading a file someone shared in Slack: streamed to disk, bounded, token kept to Slack's hosts."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlparse

import httpx

CHUNK = 1 << 20
MAX_REDIRECTS = 5


def human_size(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000
    return f"{n:,.1f} GB"


class DownloadError(Exception):
    """The file cannot be fetched; the message is fit to post in the thread."""


@dataclass
class Downloaded:
    path: Path
    size: int

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


def origin(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) with the scheme's default port filled in: what the token may be sent to."""
    parsed = urlparse(url)
    try:
        port = parsed.port
    except ValueError:
        port = -1  # not a port: matches no origin
    return parsed.scheme, parsed.hostname or "", port or {"https": 443, "http": 80}.get(parsed.scheme, -1)


def check_url(url: str, token_origins: set[tuple[str, str, int]]) -> None:
    scheme, host, port = origin(url)
    if (scheme, host, port) not in token_origins:
        raise DownloadError(
            f"I won't fetch that file: its address is on `{host or url}` (port {port}), not one of "
            "Slack's file hosts, and I only send my token to Slack."
        )
    if scheme == "http" and host not in ("127.0.0.1", "localhost", "::1"):
        raise DownloadError(f"I won't fetch that file over plain http from `{host}`.")


def download(
    client: httpx.Client,
    url: str,
    token: str,
    token_origins: set[tuple[str, str, int]],
    max_bytes: int,
    directory: str | None = None,
    on_bytes=None,
) -> Downloaded:
    """Stream `url` to a temporary file. Redirects are followed only to `token_origins` (scheme, host and port)."""
    fd, name = tempfile.mkstemp(prefix="denpex-upload-", dir=directory)
    path = Path(name)
    try:
        with os.fdopen(fd, "wb") as out:
            size = _fetch(client, url, token, token_origins, max_bytes, out, on_bytes)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return Downloaded(path, size)


def _fetch(
    client: httpx.Client, url: str, token: str, token_origins: set[tuple[str, str, int]], max_bytes: int, out, on_bytes
) -> int:
    for _ in range(MAX_REDIRECTS + 1):
        check_url(url, token_origins)
        try:
            with client.stream(
                "GET", url, headers={"Authorization": f"Bearer {token}"}, follow_redirects=False
            ) as resp:
                if resp.is_redirect:
                    url = urljoin(url, resp.headers.get("location", ""))
                    continue
                if resp.status_code in (401, 403, 404):
                    raise DownloadError(
                        f"Slack refused the download (HTTP {resp.status_code}): make sure the app "
                        "has the `files:read` scope and is in this channel."
                    )
                if resp.status_code != 200:
                    raise DownloadError(f"The download failed with HTTP {resp.status_code}; try again in a minute.")
                if "text/html" in resp.headers.get("content-type", "") and "login" in str(resp.url):
                    raise DownloadError(
                        "Slack answered with a sign-in page instead of the file: the token lacks "
                        "the `files:read` scope."
                    )
                declared = int(resp.headers.get("content-length") or 0)
                if declared > max_bytes:
                    raise DownloadError(
                        f"That file is {human_size(declared)}; I diagnose files up to "
                        f"{human_size(max_bytes)}. Run `denpex diagnose` on it where it lives."
                    )
                size = 0
                for chunk in resp.iter_bytes(CHUNK):
                    size += len(chunk)
                    if size > max_bytes:
                        raise DownloadError(
                            f"That file is over {human_size(max_bytes)}, the most I diagnose. "
                            "Run `denpex diagnose` on it where it lives."
                        )
                    out.write(chunk)
                    if on_bytes:
                        on_bytes(size)
                return size
        except httpx.TimeoutException:
            raise DownloadError(
                "The download from Slack timed out; try again, or run `denpex diagnose` on the file directly."
            ) from None
        except httpx.TransportError as exc:
            raise DownloadError(f"The download from Slack failed ({type(exc).__name__}); try again.") from None
    raise DownloadError("Slack redirected the download too many times.")


def shared_file(client, file_id: str, channel: str) -> tuple[dict, str | None]:
    """A shared file's info (files.info) and the thread it was shared into in `channel` (None: the channel)."""
    info = client.files_info(file=file_id)["file"]
    shares = {**info.get("shares", {}).get("public", {}), **info.get("shares", {}).get("private", {})}
    share = (shares.get(channel) or [{}])[0]
    return info, share.get("thread_ts") or share.get("ts")


def thread_files(client, channel: str, thread_ts: str) -> list[dict]:
    """The files attached to a thread's first message (a mention in the thread of a dropped log means that log)."""
    parent = client.conversations_replies(channel=channel, ts=thread_ts, limit=1)["messages"][0]
    return list(parent.get("files", []))
