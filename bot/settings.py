"""Everything `denpex serve` needs before it starts, checked up front.

Secrets come from the environment, or from files named by the same variable with `_FILE` (Docker and
Kubernetes secrets mounted as files: SLACK_BOT_TOKEN_FILE=/run/secrets/slack_bot_token); everything
else from DENPEX_CONFIG. A missing or invalid setting stops start-up with one line naming it.

DENPEX_DB is a SQLite file's path (default ./denpex.db) or a postgresql:// URL (replicas sharing the work); the URL
may leave its password out for PGPASSWORD or ~/.pgpass, or take it from DENPEX_DB_FILE (a mounted secret).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse, urlsplit

from bot.config import Config, ConfigError, load_config

DEFAULT_API_URL = "https://slack.com/api/"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class SettingsError(Exception):
    """A setting is missing or invalid; the message names it and says what to do."""


@dataclass(frozen=True)
class Settings:
    bot_token: str
    app_token: str | None
    signing_secret: str | None
    api_url: str
    db_path: Path | str  # a SQLite file, or a postgresql:// URL (what Store takes)
    config: Config
    spool: Path | None = None  # DENPEX_SPOOL_DIR: where watched Kubernetes jobs' logs are spooled

    @property
    def postgres(self) -> bool:
        return isinstance(self.db_path, str) and self.db_path.startswith(POSTGRES_SCHEMES)

    @property
    def db_name(self) -> str:
        """The database for messages and logs: the path, or the URL without its password."""
        if not self.postgres:
            return str(self.db_path)
        parts = urlsplit(str(self.db_path))
        if parts.password is None:
            return str(self.db_path)
        return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()

    @property
    def spool_dir(self) -> Path:
        """DENPEX_SPOOL_DIR, else next to the SQLite file (its directory is the bot's own), else ./denpex-spool."""
        if self.spool is not None:
            return self.spool
        if self.postgres:
            return Path("denpex-spool").resolve()
        return Path(self.db_path).resolve().parent / "denpex-spool"

    @property
    def api_host(self) -> str:
        return urlparse(self.api_url).hostname or ""

    @property
    def token_origins(self) -> set[tuple[str, str, int]]:
        """Where the bot token may be sent: the Web API's exact scheme, host and port, and Slack's file hosts
        over https on 443."""
        from bot.slack_files import origin

        return {origin(self.api_url), *(("https", host, 443) for host in self.config.bot.file_hosts)}


def _secret(env: dict, name: str) -> str:
    """NAME from the environment, or the contents of the file NAME_FILE names (one of the two, not both)."""
    value, path = env.get(name, "").strip(), env.get(f"{name}_FILE", "").strip()
    if value and path:
        raise SettingsError(f"both {name} and {name}_FILE are set: keep one")
    if not path:
        return value
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{name}_FILE: cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def _require(env: dict, name: str, prefix: str, what: str) -> str:
    value = _secret(env, name)
    if not value:
        raise SettingsError(f"{name} is not set: {what}")
    if not value.startswith(prefix):
        raise SettingsError(f"{name} does not look like a {prefix}... token: {what}")
    return value


def load_settings(http: bool, env: dict | None = None) -> Settings:
    env = dict(os.environ if env is None else env)
    bot_token = _require(
        env, "SLACK_BOT_TOKEN", "xoxb-", "the Bot User OAuth Token from the app's OAuth & Permissions page"
    )
    app_token = signing_secret = None
    if http:
        signing_secret = _secret(env, "SLACK_SIGNING_SECRET")
        if not signing_secret:
            raise SettingsError(
                "SLACK_SIGNING_SECRET is not set: HTTP mode verifies every request with the app's "
                "Signing Secret (Basic Information page)"
            )
    else:
        app_token = _require(
            env,
            "SLACK_APP_TOKEN",
            "xapp-",
            "Socket Mode needs an app-level token with "
            "connections:write (Basic Information > App-Level Tokens); or use --http",
        )
    api_url = env.get("DENPEX_SLACK_API_URL", "").strip() or DEFAULT_API_URL
    parsed = urlparse(api_url)
    if parsed.scheme not in ("https", "http") or not parsed.hostname:
        raise SettingsError(f"DENPEX_SLACK_API_URL is not an http(s) URL: {api_url!r}")
    if parsed.scheme == "http" and parsed.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise SettingsError(f"DENPEX_SLACK_API_URL must use https outside loopback: {api_url!r}")
    if not api_url.endswith("/"):
        api_url += "/"
    database = _database(env)
    spool = Path(env["DENPEX_SPOOL_DIR"].strip()) if env.get("DENPEX_SPOOL_DIR", "").strip() else None
    if spool is not None and not (spool.is_dir() or spool.parent.is_dir()):
        raise SettingsError(f"DENPEX_SPOOL_DIR: neither {spool} nor its parent directory exists")
    try:
        config = load_config(env.get("DENPEX_CONFIG") or None)
    except ConfigError as exc:
        raise SettingsError(f"DENPEX_CONFIG: {exc}") from None
    return Settings(bot_token, app_token, signing_secret, api_url, database, config, spool)


def _database(env: dict) -> Path | str:
    """DENPEX_DB (or the file DENPEX_DB_FILE names): a postgresql:// URL, checked for its parts, or a SQLite path
    whose directory exists and is writable."""
    value = _secret(env, "DENPEX_DB")
    if value.startswith(POSTGRES_SCHEMES):
        try:
            parts = urlsplit(value)
            _ = parts.port  # reading it checks it
        except ValueError as exc:  # a port that is not a number, an unclosed [
            raise SettingsError(f"DENPEX_DB: not a valid postgresql:// URL: {exc}") from None
        if not parts.hostname and "host=" not in parts.query:
            raise SettingsError("DENPEX_DB: the postgresql:// URL names no host (postgresql://user@host:5432/denpex)")
        if not parts.path.strip("/"):
            raise SettingsError("DENPEX_DB: the postgresql:// URL names no database (postgresql://user@host/denpex)")
        return value
    if "://" in value:
        scheme = value.split("://", 1)[0]
        raise SettingsError(f"DENPEX_DB: {scheme}:// is not a database denpex uses: a file path, or postgresql://")
    db_path = Path(value or "denpex.db")
    if not db_path.parent.exists():
        raise SettingsError(f"DENPEX_DB: the directory {db_path.parent} does not exist")
    if not os.access(db_path.parent, os.W_OK):
        raise SettingsError(f"DENPEX_DB: the directory {db_path.parent} is not writable")
    return db_path
