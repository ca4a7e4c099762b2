"""The bot's state: requests, incidents, every button press, follow-ups, watches, the outbox. In one SQLite file
(WAL) by default; in PostgreSQL when DENPEX_DB is a postgresql:// URL, for replicas that share the work
(bot/store_pg.py: a connection pool shaped like the part of sqlite-utils this module uses).

Schema changes are numbered migrations applied in order at start-up, the same ones on both databases; the
version is kept in `meta`, and a database newer than this code is refused. Every write commits before the
caller announces it. Work that several processes may reach for at once (a request, an event, an incident's
fingerprint, a due follow-up, a watch poll, an outbox row) is taken by a unique key or a row lock with a lease:
`INSERT ... ON CONFLICT DO NOTHING`, and on PostgreSQL `SELECT ... FOR UPDATE SKIP LOCKED`.

On SQLite, two connections, so that nothing on Slack's 3-second path waits behind a slow write:
reads use their own (in WAL mode readers never wait for the writer); writes go through
one, one at a time, and a wait for the write lock longer than LOCK_WARN_SECONDS is
logged with the operation that waited. The small writes made before an ack (a request
accepted, an upload claimed) wait at most QUICK_BUSY_MS and otherwise raise StoreBusy,
so the caller can ack first and write after. On PostgreSQL every thread borrows a pooled connection; the
ack path's writes wait at most QUICK_BUSY_MS for a connection and for a row lock, with the same StoreBusy.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sqlite3
import threading
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from signatures import Report

log = logging.getLogger("denpex.store")

LOCK_WARN_SECONDS = 2.0
QUICK_BUSY_MS = 200


class StoreError(Exception):
    """The database refused a write (full disk, held lock, read-only file); the message says which, in words."""


class StoreBusy(StoreError):
    """A write on the ack path could not get the lock in time: make it after the ack."""


def describe(exc: Exception) -> str:
    if not isinstance(exc, sqlite3.Error):
        from bot import store_pg

        return store_pg.describe(exc)  # type: ignore[arg-type]
    text = str(exc)
    if "full" in text:
        return "the database is full (no space left on its disk)"
    if "locked" in text or "busy" in text:
        return "the database is locked by another process"
    if "readonly" in text:
        return "the database is read-only"
    return f"the database failed: {text}"


def _process_owner() -> str:
    """Who holds a lease: host and pid (so a restarted bot on the same host can tell its predecessor is gone),
    and a random part (in a container the pid is the same at every start)."""
    return f"{socket.gethostname()}:{os.getpid()}:{os.urandom(3).hex()}"


PROCESS_OWNER = _process_owner()


def owner_gone(owner: str | None) -> bool:
    """True when `owner` was a process on this host that no longer runs."""
    host, _, rest = (owner or "").partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return int(pid) == os.getpid() and owner != PROCESS_OWNER  # our pid, an earlier process's lease


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _insert(db: sqlite_utils.Database, table: str, row: dict[str, Any]) -> int:
    """Insert `row` into `table` (whose key is an INTEGER PRIMARY KEY) and return the id SQLite gave it."""
    pk = db.table(table).insert(row).last_pk
    assert isinstance(pk, int), pk
    return pk


def _v1(db: sqlite_utils.Database) -> None:
    db.table("seen").create({"key": str, "at": str}, pk="key")
    db.table("incidents").create(
        {
            "id": int,
            "channel": str,
            "message_ts": str,
            "thread_ts": str,
            "source": str,
            "fingerprint": str,
            "signature": str,
            "class": str,
            "initiating_rank": int,
            "status": str,
            "report": str,
            "opened_by": str,
            "opened_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={"channel", "status", "opened_at"},
    )
    db.table("incidents").create_index(["channel", "message_ts"], unique=True)
    db.table("incidents").create_index(["fingerprint"])
    db.table("actions").create(
        {"id": int, "incident_id": int, "user_id": str, "action": str, "value": str, "at": str},
        pk="id",
        foreign_keys=[("incident_id", "incidents", "id")],
    )
    db.table("checklist").create(
        {"incident_id": int, "item": int, "checked": int, "user_id": str, "at": str},
        pk=("incident_id", "item"),
        foreign_keys=[("incident_id", "incidents", "id")],
    )


def _v2(db: sqlite_utils.Database) -> None:
    """Follow-ups: the job an incident came from, a history of diagnoses, and scheduled re-checks."""
    db.table("incidents").add_column("job", str)
    db.table("incidents").add_column("resolved_at", str)
    db.table("diagnoses").create(
        {"id": int, "incident_id": int, "kind": str, "job": str, "verdict": str, "report": str, "at": str},
        pk="id",
        foreign_keys=[("incident_id", "incidents", "id")],
    )
    db.table("followups").create(
        {
            "id": int,
            "incident_id": int,
            "job": str,
            "requested_by": str,
            "note": str,
            "status": str,
            "verdict": str,
            "detail": str,
            "next_at": float,
            "interval_s": float,
            "window_end": float,
            "checks": int,
            "lease_owner": str,
            "lease_until": float,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        foreign_keys=[("incident_id", "incidents", "id")],
    )
    db.table("followups").create_index(["status", "next_at"])


def _v3(db: sqlite_utils.Database) -> None:
    """Durable work: every request from acceptance to answer, and an outbox for announcements."""
    db.table("requests").create(
        {
            "key": str,
            "kind": str,
            "body": str,
            "state": str,
            "answer_channel": str,
            "answer_ts": str,
            "owner": str,
            "lease_until": float,
            "attempts": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="key",
    )
    db.table("requests").create_index(["state", "lease_until"])
    db.table("outbox").create(
        {
            "id": int,
            "incident_id": int,
            "channel": str,
            "thread_ts": str,
            "text": str,
            "state": str,
            "owner": str,
            "lease_until": float,
            "attempts": int,
            "posted_ts": str,
            "error": str,
            "created_at": str,
            "sent_at": str,
        },
        pk="id",
    )
    db.table("outbox").create_index(["state", "lease_until"])
    db.table("seen").add_column("owner", str)


def _v4(db: sqlite_utils.Database) -> None:
    """Watches of running jobs: one row per watch, its watcher's state (offsets, saves, steps) as JSON."""
    db.table("watches").create(
        {
            "id": int,
            "cluster": str,
            "job": str,
            "channel": str,
            "thread_ts": str,
            "requested_by": str,
            "status": str,  # watching, ended, stopped
            "outcome": str,
            "state": str,
            "polls": int,
            "next_at": float,
            "lease_owner": str,
            "lease_until": float,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
    )
    db.table("watches").create_index(["status", "next_at"])
    db.table("watches").create_index(["channel", "status"])


def _v5(db: sqlite_utils.Database) -> None:
    """[[watch.auto]]: the failed jobs each entry has answered for (or passed over), and when it first ran."""
    db.table("auto_jobs").create(
        {"entry": str, "job_id": str, "state": str, "posted": int, "at": str}, pk=("entry", "job_id")
    )
    db.table("auto_entries").create({"entry": str, "started_at": float}, pk="entry")


def _v6(db: sqlite_utils.Database) -> None:
    """Which host each incident's initiating failure ran on, for the host's history across incidents."""
    db.table("incident_hosts").create({"incident_id": int, "host": str, "class": str, "signature": str, "at": float})
    db.table("incident_hosts").create_index(["host", "at"])
    db.table("incident_hosts").create_index(["at"])


def _v7(db: sqlite_utils.Database) -> None:
    """At most one active watch of a job per channel (two `/denpex watch 42` at once both passed the check
    before): later duplicates stopped, then a unique index over the active ones ('starting': being posted)."""
    db.execute(
        "UPDATE watches SET status = 'stopped', outcome = 'duplicate' WHERE status = 'watching' AND id NOT IN "
        "(SELECT min(id) FROM watches WHERE status = 'watching' GROUP BY cluster, job, channel)"
    )
    db.execute(
        "CREATE UNIQUE INDEX watches_one_active ON watches (cluster, job, channel) "
        "WHERE status IN ('watching', 'starting')"
    )


def _v8(db: sqlite_utils.Database) -> None:
    """Feedback on answers, per signature (issue 14.5): each person's confirmation (a checklist ticked, Useful,
    a fix proven gone) or rejection (Not this, with the class it was and a note), once per person, kind and
    incident; and muted incident threads. What was recorded before is carried over: ticked boxes, Not this
    presses and follow-ups whose verdict was gone."""
    db.table("feedback").create(
        {
            "id": int,
            "incident_id": int,
            "signature": str,
            "kind": str,  # FEEDBACK_KINDS
            "class": str,
            "note": str,
            "user_id": str,
            "at": str,
        },
        pk="id",
        foreign_keys=[("incident_id", "incidents", "id")],
    )
    db.table("feedback").create_index(["incident_id", "kind", "user_id"], unique=True)
    db.table("feedback").create_index(["signature"])
    carried = [  # (kind, rows of incident_id, user_id, at)
        (
            "confirmed_checklist",
            "SELECT incident_id, user_id, max(at) AS at FROM checklist WHERE checked = 1 GROUP BY incident_id, user_id",
        ),
        (
            "rejected",
            "SELECT incident_id, user_id, min(at) AS at FROM actions WHERE action = 'not_this' "
            "GROUP BY incident_id, user_id",
        ),
        (
            "fix_gone",
            "SELECT incident_id, requested_by AS user_id, max(updated_at) AS at FROM followups WHERE status = 'done' "
            "AND verdict = 'gone' GROUP BY incident_id, requested_by",
        ),
    ]
    for kind, rows in carried:
        db.execute(
            "INSERT OR IGNORE INTO feedback (incident_id, signature, kind, user_id, at) "
            f"SELECT r.incident_id, i.signature, ?, r.user_id, r.at FROM ({rows}) AS r "
            "JOIN incidents i ON i.id = r.incident_id",
            [kind],
        )
    db.table("mutes").create(
        {"channel": str, "thread_ts": str, "incident_id": int, "user_id": str, "at": str}, pk=("channel", "thread_ts")
    )


def _flag(*kinds: str) -> str:
    """SQL: 1 for a feedback row of one of `kinds`, else 0."""
    return "CASE WHEN kind IN ({}) THEN 1 ELSE 0 END".format(", ".join(f"'{k}'" for k in kinds))


STARTING_STALE = 300.0  # seconds after which a watch still 'starting' (its process died posting) is cleared
MIGRATIONS = [_v1, _v2, _v3, _v4, _v5, _v6, _v7, _v8]  # index i migrates version i to i + 1
CONFIRMATIONS = ("confirmed_checklist", "useful", "fix_gone")
FEEDBACK_KINDS = (*CONFIRMATIONS, "rejected")


@dataclass
class Incident:
    id: int
    channel: str
    message_ts: str | None
    thread_ts: str | None
    source: str
    status: str
    report: Report
    opened_by: str | None
    job: str | None = None


MIGRATION_LOCK = 0x64656E706578  # PostgreSQL advisory lock: one replica migrates, the others wait for it
HEALTH_PING_SECONDS = 2.0  # how long a PostgreSQL reachability check answers /healthz


class Store:
    """One interface, two databases: SQLite (a path) or PostgreSQL (a postgresql:// URL)."""

    def __init__(self, path: Path | str):
        self.path = str(path)
        self.last_error: tuple[float, str] | None = None  # the newest failed write, until a write succeeds
        self.postgres = self.path.startswith(("postgresql://", "postgres://"))
        self.db: Any
        self.reader: Any
        if self.postgres:
            from bot import store_pg

            self.name = store_pg.masked(self.path)
            self._errors: tuple[type[Exception], ...] = (store_pg.Error,)
            try:
                self.db = self.reader = store_pg.PgDatabase(self.path)
            except store_pg.Error as exc:
                raise StoreError(f"{self.name}: {describe(exc)}") from None
            # a pool serves every thread: no lock of our own around writes or reads
            self._lock: Any = nullcontext()
            self._read_lock: Any = nullcontext()
            self._skip_locked = " FOR UPDATE SKIP LOCKED"  # claims pass over rows another replica is claiming
            self._for_update = " FOR UPDATE"  # a lease checked and released in one transaction, row locked
            self._pinged: tuple[float, str | None] = (0.0, None)
        else:
            self.name = self.path
            self._errors = (sqlite3.Error,)
            self._lock = threading.RLock()  # the main writer
            self._read_lock = threading.Lock()
            self._skip_locked = self._for_update = ""  # BEGIN IMMEDIATE: one writer at a time already
            self.db = self._connect(30000)
            self.reader = self._connect(5000)
        self._migrate()

    def close(self) -> None:
        if self.postgres:
            self.db.close()
        else:
            self.db.conn.close()
            self.reader.conn.close()

    def _connect(self, busy_ms: int) -> sqlite_utils.Database:
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=busy_ms / 1000)
        db = sqlite_utils.Database(conn)
        # switching to WAL needs the file to itself: SQLite answers "database is locked" at once, without its busy
        # handler, while another process (a replica starting too) is migrating it; retried within busy_ms
        deadline = time.monotonic() + busy_ms / 1000
        while True:
            try:
                db.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        # in WAL mode NORMAL survives any crash of the bot (kill -9 included) and skips an fsync per commit;
        # only a power loss may lose the last commits (SQLite's documented trade-off)
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute(f"PRAGMA busy_timeout={busy_ms}")
        return db

    @property
    def schema_version(self) -> int:
        if "meta" not in self.db.table_names():
            return 0
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        with self._transaction("migrate"):
            if self.postgres:  # replicas starting together: one migrates, the others then find it done
                self.db.execute("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK])
            if "meta" not in self.db.table_names():
                self.db.table("meta").create({"key": str, "value": str}, pk="key")
            version = self.schema_version
            if version > len(MIGRATIONS):
                raise RuntimeError(
                    f"{self.name}: schema version {version} is newer than this denpex "
                    f"({len(MIGRATIONS)}); upgrade denpex"
                )
            for step in MIGRATIONS[version:]:
                step(self.db)
            self.db.table("meta").upsert({"key": "schema_version", "value": str(len(MIGRATIONS))}, pk="key")

    @property
    def problem(self) -> str | None:
        """What is wrong with the database now, in words (for /healthz), from the last write's outcome; on
        PostgreSQL also whether the server answers (checked at most every HEALTH_PING_SECONDS)."""
        if self.last_error:
            return self.last_error[1]
        if not self.postgres:
            return None
        at, said = self._pinged
        if time.monotonic() - at > HEALTH_PING_SECONDS:
            try:
                with self.db.pool.connection(timeout=1.0) as conn:
                    conn.execute("SELECT 1")
                said = None
            except self._errors as exc:
                said = describe(exc)
            self._pinged = (time.monotonic(), said)
        return said

    def _failed(self, what: str, exc: Exception) -> StoreError:
        reason = describe(exc)
        self.last_error = (time.time(), reason)
        log.error("%s: %s (%s)", what, reason, exc)
        return StoreError(reason)

    @contextmanager
    def _transaction(self, what: str):
        """One writer at a time across threads and processes; everything inside commits or nothing does.
        A database error becomes a StoreError naming the problem in words."""
        if self.postgres:
            with self._pg_transaction(what):
                yield
            return
        with self._lock:
            started = time.monotonic()
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._failed(what, exc) from None
            changes = self.db.conn.total_changes
            waited = time.monotonic() - started
            if waited > LOCK_WARN_SECONDS:
                log.warning("%s waited %.1f s for the database write lock (another process held it)", what, waited)
            try:
                yield
            except sqlite3.Error as exc:
                self._rollback()
                raise self._failed(what, exc) from None
            except BaseException:
                self._rollback()
                raise
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise self._failed(what, exc) from None
            if self.db.conn.total_changes != changes:  # a write went through: the database has room again
                self.last_error = None

    @contextmanager
    def _pg_transaction(self, what: str):
        """PostgreSQL's transaction on a pooled connection; concurrent ones wait only for the rows they share."""
        changes = self.db.total_changes
        try:
            with self.db.transaction():
                yield
        except self._errors as exc:
            raise self._failed(what, exc) from None
        if self.db.total_changes != changes:  # a write went through: the database has room again
            self.last_error = None

    def _rollback(self) -> None:
        if self.db.conn.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
            self.db.execute("ROLLBACK")

    def _quick_write(self, what: str, sql: str, args: list) -> int:
        """A one-statement write on the ack path: waits at most QUICK_BUSY_MS, for this process's writer and
        for another process's lock together, then gives up with StoreBusy. Returns the rowcount."""
        if self.postgres:
            from bot import store_pg

            try:
                with self.db.transaction(timeout=QUICK_BUSY_MS / 1000, lock_timeout_ms=QUICK_BUSY_MS):
                    return self.db.execute(sql, args).rowcount
            except store_pg.BUSY as exc:
                raise StoreBusy(f"{what}: {describe(exc)}") from None
            except store_pg.Error as exc:
                raise self._failed(what, exc) from None
        if not self._lock.acquire(timeout=QUICK_BUSY_MS / 1000):
            raise StoreBusy(f"{what}: the database writer is busy")
        try:
            self.db.execute(f"PRAGMA busy_timeout={QUICK_BUSY_MS}")
            try:
                return self.db.execute(sql, args).rowcount
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise StoreBusy(f"{what}: {describe(exc)}") from None
                raise self._failed(what, exc) from None
            except sqlite3.Error as exc:
                raise self._failed(what, exc) from None
            finally:
                self.db.execute("PRAGMA busy_timeout=30000")
        finally:
            self._lock.release()

    # -- dedupe ---------------------------------------------------------------

    def first_time(self, key: str, owner: str | None = None) -> bool:
        """Record `key`; True only for the first caller ever (across restarts and processes), or again for
        the same `owner` (a request resumed after a restart claims its upload again)."""
        if (
            self._quick_write(
                "first_time", "INSERT OR IGNORE INTO seen (key, at, owner) VALUES (?, ?, ?)", [key, now(), owner]
            )
            == 1
        ):
            return True
        if owner is None:
            return False
        with self._read_lock:
            row = self.reader.execute("SELECT owner FROM seen WHERE key = ?", [key]).fetchone()
        return row is not None and row[0] == owner

    # -- requests: accepted before the ack, done when answered -----------------

    def accept(self, key: str, kind: str, body: dict, owner: str, lease_s: float) -> bool:
        """Record a request before it is acknowledged. False when it was already accepted (a retry)."""
        return (
            self._quick_write(
                "accept",
                "INSERT OR IGNORE INTO requests (key, kind, body, state, owner, lease_until, "
                "attempts, created_at, updated_at) VALUES (?, ?, ?, 'accepted', ?, ?, 1, ?, ?)",
                [key, kind, json.dumps(body), owner, time.time() + lease_s, now(), now()],
            )
            == 1
        )

    def request(self, key: str) -> dict | None:
        with self._read_lock:
            rows = list(self.reader.table("requests").rows_where("key = ?", [key]))
        return rows[0] if rows else None

    def answering(self, key: str, channel: str, ts: str) -> None:
        """The request's answer will replace this message (its progress message)."""
        with self._transaction("answering"):
            self.db.execute(
                "UPDATE requests SET answer_channel = ?, answer_ts = ?, updated_at = ? WHERE key = ?",
                [channel, ts, now(), key],
            )

    def finish(self, key: str, state: str = "done") -> None:
        with self._transaction("finish"):
            self.db.execute(
                "UPDATE requests SET state = ?, owner = NULL, lease_until = NULL, updated_at = ? WHERE key = ?",
                [state, now(), key],
            )

    def renew(self, keys: list[str], owner: str, lease_s: float) -> None:
        if not keys:
            return
        with self._transaction("renew"):
            for key in keys:
                self.db.execute(
                    "UPDATE requests SET lease_until = ? WHERE key = ? AND owner = ? AND state = 'accepted'",
                    [time.time() + lease_s, key, owner],
                )

    def release(self, keys: list[str], owner: str) -> None:
        """Hand unfinished requests to whichever process looks next (at shutdown)."""
        with self._transaction("release"):
            for key in keys:
                self.db.execute(
                    "UPDATE requests SET lease_until = 0 WHERE key = ? AND owner = ? AND state = 'accepted'",
                    [key, owner],
                )

    def retry_later(self, key: str, owner: str, at: float) -> None:
        """An unfinished request that any process (its owner too) may take over from `at` on."""
        with self._transaction("retry_later"):
            self.db.execute(
                "UPDATE requests SET owner = NULL, lease_until = ? WHERE key = ? AND owner = ? AND state = 'accepted'",
                [at, key, owner],
            )

    def claim_stale_requests(self, owner: str, lease_s: float, limit: int = 20) -> list[dict]:
        """Take over accepted requests whose owner stopped renewing (or is gone from this host). Atomic."""
        at = time.time()

        def stale(r: dict) -> bool:
            return r["owner"] != owner and (r["lease_until"] is None or r["lease_until"] < at or owner_gone(r["owner"]))

        with self._transaction("claim_stale_requests"):
            rows = [
                r
                for r in self.db.query(
                    "SELECT key, owner, lease_until FROM requests WHERE state = 'accepted' ORDER BY created_at LIMIT 200"
                )
                if stale(r)
            ]
            if self.postgres:  # lock only the rows taken, each still stale once locked; pass over another's claims
                locked: list[dict] = []
                for r in rows:
                    if len(locked) == limit:
                        break
                    locked += [
                        again
                        for again in self.db.query(
                            "SELECT key, owner, lease_until FROM requests WHERE key = ? AND state = 'accepted'"
                            + self._skip_locked,
                            [r["key"]],
                        )
                        if stale(again)
                    ]
                rows = locked
            rows = rows[:limit]
            for r in rows:
                self.db.execute(
                    "UPDATE requests SET owner = ?, lease_until = ?, attempts = attempts + 1, "
                    "updated_at = ? WHERE key = ?",
                    [owner, at + lease_s, now(), r["key"]],
                )
            keys = [r["key"] for r in rows]
            return [
                dict(row, body=json.loads(row["body"]))
                for key in keys
                for row in self.db.table("requests").rows_where("key = ?", [key])
            ]

    # -- the outbox: announcements committed with their outcome, posted until Slack confirms -----

    def outbox_add(self, incident_id: int | None, channel: str, thread_ts: str | None, text: str) -> int:
        """Call inside a transaction that records the outcome being announced."""
        return _insert(
            self.db,
            "outbox",
            {
                "incident_id": incident_id,
                "channel": channel,
                "thread_ts": thread_ts,
                "text": text,
                "state": "pending",
                "attempts": 0,
                "created_at": now(),
            },
        )

    def claim_outbox(self, owner: str, lease_s: float, only: int | None = None) -> list[dict]:
        at = time.time()
        with self._transaction("claim_outbox"):
            where = "state = 'pending' AND (lease_until IS NULL OR lease_until < ?)"
            args: list = [at]
            if only is not None:
                where += " AND id = ?"
                args.append(only)
            rows = list(
                self.db.query(f"SELECT * FROM outbox WHERE {where} ORDER BY id LIMIT 50{self._skip_locked}", args)
            )
            for r in rows:
                self.db.execute(
                    "UPDATE outbox SET owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?",
                    [owner, at + lease_s, r["id"]],
                )
            return rows

    def outbox_sent(self, outbox_id: int, posted_ts: str | None, error: str | None = None) -> None:
        with self._transaction("outbox_sent"):
            self.db.execute(
                "UPDATE outbox SET state = ?, posted_ts = ?, error = ?, sent_at = ?, owner = NULL, "
                "lease_until = NULL WHERE id = ?",
                ["failed" if error else "sent", posted_ts, error, now(), outbox_id],
            )

    # -- incidents ------------------------------------------------------------

    def open_incident(
        self,
        channel: str,
        message_ts: str,
        thread_ts: str | None,
        source: str,
        fingerprint: str,
        report: Report,
        opened_by: str | None,
        job: str | None = None,
    ) -> int:
        """Record the incident `report` shows in the message (channel, message_ts); its id. One incident per
        fingerprint (the same job, the same content): when another process opened one for it since the caller
        looked (find_incident), that one's id, and nothing is written."""
        top = report.top
        row = {
            "channel": channel,
            "message_ts": message_ts,
            "thread_ts": thread_ts,
            "source": source,
            "fingerprint": fingerprint,
            "signature": top and top.signature,
            "class": top and top.class_,
            "initiating_rank": top and top.initiating_rank,
            "status": "open" if top else report.outcome,
            "report": json.dumps(report.to_json()),
            "opened_by": opened_by,
            "opened_at": now(),
            "updated_at": now(),
            "job": job,
        }
        with self._transaction("open_incident"):
            if fingerprint:
                held = self._incident_of(fingerprint)
                if held is not None:
                    return held  # another process opened it since this one looked (find_incident)
            incident_id = _insert(self.db, "incidents", row)
            if top is not None and top.host:
                self.db.table("incident_hosts").insert(
                    {
                        "incident_id": incident_id,
                        "host": top.host,
                        "class": top.class_,
                        "signature": top.signature,
                        "at": time.time(),
                    }
                )
            self.db.table("diagnoses").insert(
                {
                    "incident_id": incident_id,
                    "kind": "initial",
                    "job": job,
                    "report": row["report"],
                    "at": row["opened_at"],
                }
            )
        return incident_id

    def _incident_of(self, fingerprint: str) -> int | None:
        """Inside a transaction: the incident of `fingerprint`, the fingerprint held until the transaction ends (on
        SQLite the write lock holds everything; on PostgreSQL an advisory lock on the fingerprint's hash)."""
        if self.postgres:
            self.db.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [fingerprint])
        row = self.db.execute(
            "SELECT id FROM incidents WHERE fingerprint = ? AND message_ts IS NOT NULL ORDER BY id LIMIT 1",
            [fingerprint],
        ).fetchone()
        return row[0] if row else None

    def find_incident(self, fingerprint: str) -> Incident | None:
        """The incident already opened for the same job or the same content, if any."""
        with self._read_lock:
            row = self.reader.execute(
                "SELECT id FROM incidents WHERE fingerprint = ? AND message_ts IS NOT NULL ORDER BY id LIMIT 1",
                [fingerprint],
            ).fetchone()
        return self.incident(row[0]) if row else None

    def host_history(self, host: str, since: float) -> list[dict]:
        """The incidents whose initiating failure ran on `host` since `since`, oldest first."""
        with self._read_lock:
            return list(
                self.reader.query(
                    "SELECT incident_id, class, signature, at FROM incident_hosts WHERE host = ? AND at >= ? "
                    "ORDER BY at",
                    [host, since],
                )
            )

    def hosts_since(self, since: float) -> dict[str, list[dict]]:
        """Every host's incidents since `since`: host -> [{class, signature, at}]."""
        out: dict[str, list[dict]] = {}
        with self._read_lock:
            for row in self.reader.query(
                "SELECT host, incident_id, class, signature, at FROM incident_hosts WHERE at >= ? ORDER BY at", [since]
            ):
                out.setdefault(row.pop("host"), []).append(row)
        return out

    def open_incidents(self, channel: str) -> list[dict]:
        with self._read_lock:
            return list(
                self.reader.query(
                    "SELECT i.id, i.source, i.signature, i.status, i.message_ts, i.thread_ts, i.opened_at, "
                    "(SELECT min(f.next_at) FROM followups f WHERE f.incident_id = i.id AND f.status = 'scheduled') "
                    "AS next_check FROM incidents i WHERE i.channel = ? AND i.status NOT IN ('healthy', 'resolved') "
                    "ORDER BY i.id DESC LIMIT 20",
                    [channel],
                )
            )

    # -- follow-ups -----------------------------------------------------------

    def schedule_followup(
        self, incident_id: int, job: str, user: str, note: str, first_at: float, interval_s: float, window_end: float
    ) -> int:
        with self._transaction("schedule_followup"):
            fid = _insert(
                self.db,
                "followups",
                {
                    "incident_id": incident_id,
                    "job": job,
                    "requested_by": user,
                    "note": note,
                    "status": "scheduled",
                    "verdict": None,
                    "detail": None,
                    "next_at": first_at,
                    "interval_s": interval_s,
                    "window_end": window_end,
                    "checks": 0,
                    "lease_owner": None,
                    "lease_until": None,
                    "created_at": now(),
                    "updated_at": now(),
                },
            )
            self.db.execute(
                "UPDATE incidents SET status = 'fix_applied', updated_at = ? WHERE id = ?", [now(), incident_id]
            )
            return fid

    def due_followups(self, at: float) -> list[int]:
        with self._read_lock:
            return [
                r[0]
                for r in self.reader.execute(
                    "SELECT id FROM followups WHERE status = 'scheduled' AND next_at <= ? "
                    "AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_at",
                    [at, at],
                )
            ]

    def overdue_followups(self, due_before: float) -> int:
        """How many scheduled checks fell due before `due_before` and still have not run."""
        with self._read_lock:
            return self.reader.execute(
                "SELECT count(*) FROM followups WHERE status = 'scheduled' AND next_at < ?", [due_before]
            ).fetchone()[0]

    def claim_followup(self, followup_id: int, owner: str, at: float, lease_s: float) -> bool:
        """Take the check for `lease_s` seconds. Atomic: of several processes, exactly one gets it (on PostgreSQL
        the others pass over the row while it is being claimed instead of waiting for it)."""
        with self._lock:
            cur = self.db.execute(
                "UPDATE followups SET lease_owner = ?, lease_until = ?, updated_at = ? WHERE id = (SELECT id FROM "
                "followups WHERE id = ? AND status = 'scheduled' AND next_at <= ? AND (lease_until IS NULL OR "
                f"lease_until < ?){self._skip_locked})",
                [owner, at + lease_s, now(), followup_id, at, at],
            )
            return cur.rowcount == 1

    def followup(self, followup_id: int) -> dict | None:
        with self._read_lock:
            rows = list(self.reader.table("followups").rows_where("id = ?", [followup_id]))
        return rows[0] if rows else None

    def record_check(
        self,
        followup_id: int,
        owner: str,
        verdict: str,
        detail: str,
        report: Report | None,
        next_at: float | None,
        announce: tuple[str, str | None, str] | None = None,
    ) -> int | bool:
        """Commit a check's outcome (before anyone announces it). `next_at` None ends the follow-up.
        `announce` (channel, thread, text) goes into the outbox in the same transaction: the outcome and its
        announcement are recorded together or not at all. Returns the outbox id (True when nothing is to be
        announced), or False when the lease was lost (another process took over): nothing was written."""
        with self._transaction("record_check"):
            fu = self.db.execute(
                "SELECT incident_id, job, lease_owner, requested_by FROM followups WHERE id = ?" + self._for_update,
                [followup_id],
            ).fetchone()
            if fu is None or fu[2] != owner:
                return False  # the lease was lost: nothing written
            done = next_at is None
            self.db.execute(
                "UPDATE followups SET status = ?, verdict = ?, detail = ?, next_at = coalesce(?, next_at), "
                "checks = checks + 1, lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ?",
                ["done" if done else "scheduled", verdict, detail, next_at, now(), followup_id],
            )
            if report is not None:
                self.db.table("diagnoses").insert(
                    {
                        "incident_id": fu[0],
                        "kind": "followup",
                        "job": fu[1],
                        "verdict": verdict,
                        "report": json.dumps(report.to_json()),
                        "at": now(),
                    }
                )
            if done:
                status = {"gone": "resolved", "back": "recurred"}.get(verdict, "inconclusive")
                self.db.execute(
                    "UPDATE incidents SET status = ?, updated_at = ?, resolved_at = CASE WHEN ? = "
                    "'resolved' THEN ? ELSE resolved_at END WHERE id = ?",
                    [status, now(), status, now(), fu[0]],
                )
                if verdict == "gone":  # the fix for this diagnosis made the failure go: it was right
                    self._add_feedback(fu[0], fu[3], "fix_gone")
            if announce is not None:
                return self.outbox_add(fu[0], *announce)
            return True

    # -- watches of running jobs ----------------------------------------------

    def add_watch(
        self,
        cluster: str,
        job: str,
        channel: str,
        thread_ts: str | None,
        user: str,
        first_at: float,
        status: str = "watching",
    ) -> int | None:
        """A new watch (status 'starting' while its confirmation is being posted: see begin_watch); None when
        the job already has an active one in the channel. A 'starting' row left by a process that died before
        posting is cleared after STARTING_STALE seconds."""
        with self._transaction("add_watch"):
            self.db.execute(
                "DELETE FROM watches WHERE cluster = ? AND job = ? AND channel = ? AND status = 'starting' "
                "AND next_at < ?",
                [cluster, job, channel, first_at - STARTING_STALE],
            )
            if self.db.execute(
                "SELECT 1 FROM watches WHERE cluster = ? AND job = ? AND channel = ? "
                "AND status IN ('watching', 'starting')",
                [cluster, job, channel],
            ).fetchone():
                return None
            # another process may have added it since the look above (PostgreSQL's read committed): the unique
            # index on active watches decides, and the later one writes nothing
            if not self.db.execute(
                "INSERT INTO watches (cluster, job, channel, thread_ts, requested_by, status, polls, next_at, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT DO NOTHING",
                [cluster, job, channel, thread_ts, user, status, first_at, now(), now()],
            ).rowcount:
                return None
            return self.db.execute(
                "SELECT id FROM watches WHERE cluster = ? AND job = ? AND channel = ? "
                "AND status IN ('watching', 'starting')",
                [cluster, job, channel],
            ).fetchone()[0]

    def begin_watch(self, watch_id: int, thread_ts: str) -> tuple[str, str]:
        """The confirmation of a 'starting' watch was posted: its alerts go to that thread from now on.
        Returns ("watching", ""); ("stopped", user) when `user` stopped it while the confirmation was being posted
        (see stop_starting_watch); ("gone", "") when its row was cleared as stale meanwhile (add_watch)."""
        with self._transaction("begin_watch"):
            if self.db.execute(
                "UPDATE watches SET status = 'watching', thread_ts = ?, updated_at = ? WHERE id = ? "
                "AND status = 'starting'",
                [thread_ts, now(), watch_id],
            ).rowcount:
                return "watching", ""
            row = self.db.execute("SELECT status, outcome FROM watches WHERE id = ?", [watch_id]).fetchone()
            if row is None or row[0] != "stopped" or not (row[1] or "").startswith("stopped by "):
                return "gone", ""
            self.db.execute("UPDATE watches SET thread_ts = ? WHERE id = ?", [thread_ts, watch_id])
        return "stopped", row[1].removeprefix("stopped by ")

    def stop_starting_watch(self, cluster: str, job: str, channel: str, user: str) -> bool:
        """Stop the watch of this job in this channel whose confirmation is being posted, if there is one."""
        with self._transaction("stop_starting_watch"):
            return (
                self.db.execute(
                    "UPDATE watches SET status = 'stopped', outcome = ?, updated_at = ? WHERE cluster = ? AND "
                    "job = ? AND channel = ? AND status = 'starting'",
                    [f"stopped by {user}", now(), cluster, job, channel],
                ).rowcount
                > 0
            )

    def drop_watch(self, watch_id: int) -> None:
        """A 'starting' watch whose confirmation could not be posted."""
        with self._transaction("drop_watch"):
            self.db.execute("DELETE FROM watches WHERE id = ? AND status = 'starting'", [watch_id])

    def active_watch(self, cluster: str, job: str, channel: str) -> dict | None:
        """The watch of this job in this channel that is still watching, if any."""
        with self._read_lock:
            rows = list(
                self.reader.table("watches").rows_where(
                    "cluster = ? AND job = ? AND channel = ? AND status = 'watching'", [cluster, job, channel]
                )
            )
        return rows[0] if rows else None

    def watches_in(self, channel: str) -> list[dict]:
        """The channel's watches that are still watching, oldest first."""
        with self._read_lock:
            return list(
                self.reader.table("watches").rows_where("channel = ? AND status = 'watching'", [channel], order_by="id")
            )

    def stop_watch(self, watch_id: int, user: str) -> bool:
        with self._transaction("stop_watch"):
            cur = self.db.execute(
                "UPDATE watches SET status = 'stopped', outcome = ?, updated_at = ? WHERE id = ? AND "
                "status = 'watching'",
                [f"stopped by {user}", now(), watch_id],
            )
            return cur.rowcount == 1

    def due_watches(self, at: float) -> list[int]:
        with self._read_lock:
            return [
                r[0]
                for r in self.reader.execute(
                    "SELECT id FROM watches WHERE status = 'watching' AND next_at <= ? "
                    "AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_at",
                    [at, at],
                )
            ]

    def overdue_watches(self, due_before: float) -> int:
        """How many watches fell due before `due_before` and have not been looked at since."""
        with self._read_lock:
            return self.reader.execute(
                "SELECT count(*) FROM watches WHERE status = 'watching' AND next_at < ?", [due_before]
            ).fetchone()[0]

    def claim_watch(self, watch_id: int, owner: str, at: float, lease_s: float) -> bool:
        """Take the watch's next poll for `lease_s` seconds: of several processes, exactly one gets it."""
        with self._lock:
            cur = self.db.execute(
                "UPDATE watches SET lease_owner = ?, lease_until = ?, updated_at = ? WHERE id = (SELECT id FROM "
                "watches WHERE id = ? AND status = 'watching' AND next_at <= ? AND (lease_until IS NULL OR "
                f"lease_until < ?){self._skip_locked})",
                [owner, at + lease_s, now(), watch_id, at, at],
            )
            return cur.rowcount == 1

    def watch(self, watch_id: int) -> dict | None:
        with self._read_lock:
            rows = list(self.reader.table("watches").rows_where("id = ?", [watch_id]))
        return rows[0] if rows else None

    def record_watch_poll(
        self,
        watch_id: int,
        owner: str,
        state: dict,
        next_at: float | None,
        outcome: str | None,
        announce: list[str],
    ) -> list[int] | bool:
        """Commit a poll: the watcher's state, and what it has to say into the outbox, in one transaction (so
        an alert is neither lost nor said twice across a crash). `next_at` None ends the watch with `outcome`.
        Returns the outbox ids, or False when the lease was lost (another process took over; nothing written)."""
        with self._transaction("record_watch_poll"):
            row = self.db.execute(
                "SELECT channel, thread_ts, lease_owner, status FROM watches WHERE id = ?" + self._for_update,
                [watch_id],
            ).fetchone()
            if row is None or row[2] != owner:
                return False
            if row[3] != "watching":  # unwatched meanwhile: keep its status, say nothing more
                self.db.execute("UPDATE watches SET lease_owner = NULL, lease_until = NULL WHERE id = ?", [watch_id])
                return []
            self.db.execute(
                "UPDATE watches SET state = ?, polls = polls + 1, next_at = coalesce(?, next_at), status = ?, "
                "outcome = coalesce(?, outcome), lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ?",
                [json.dumps(state), next_at, "ended" if next_at is None else "watching", outcome, now(), watch_id],
            )
            return [self.outbox_add(None, row[0], row[1], text) for text in announce]

    def watch_thread_from(self, watch_id: int, outbox_id: int) -> str | None:
        """A watch without a thread ([[watch.auto]]'s watch_running: silent until it has something to say) takes
        the message of its first delivered announcement as its thread; returns the watch's thread."""
        with self._transaction("watch_thread_from"):
            self.db.execute(
                "UPDATE watches SET thread_ts = (SELECT posted_ts FROM outbox WHERE id = ? AND state = 'sent') "
                "WHERE id = ? AND thread_ts IS NULL",
                [outbox_id, watch_id],
            )
            row = self.db.execute("SELECT thread_ts FROM watches WHERE id = ?", [watch_id]).fetchone()
            return row[0] if row else None

    # -- [[watch.auto]]: failed jobs diagnosed unasked, once ------------------------------

    def auto_started(self, entry: str, at: float) -> tuple[float, bool]:
        """When `entry` first ran (on any process, ever), and whether that is now (this call recorded it)."""
        with self._transaction("auto_started"):
            cur = self.db.execute("INSERT OR IGNORE INTO auto_entries (entry, started_at) VALUES (?, ?)", [entry, at])
            started = self.db.execute("SELECT started_at FROM auto_entries WHERE entry = ?", [entry]).fetchone()[0]
            return started, cur.rowcount == 1

    def auto_seen(self, entry: str) -> set[str]:
        with self._read_lock:
            return {r[0] for r in self.reader.execute("SELECT job_id FROM auto_jobs WHERE entry = ?", [entry])}

    def _auto_insert(self, entry: str, job_id: str, state: str, posted: bool) -> bool:
        """Inside a transaction: record `job_id` for `entry`; True for the one caller (of any process) that did."""
        cur = self.db.execute(
            "INSERT OR IGNORE INTO auto_jobs (entry, job_id, state, posted, at) VALUES (?, ?, ?, ?, ?)",
            [entry, job_id, state, int(posted), now()],
        )
        return cur.rowcount == 1

    def auto_claim(self, entry: str, job_id: str, state: str) -> bool:
        """Record that `entry` answers for `job_id`; True for the one caller (of any process) that recorded it."""
        with self._transaction("auto_claim"):
            return self._auto_insert(entry, job_id, state, True)

    def auto_record(self, entry: str, job_id: str, state: str, announce: tuple[str, str] | None) -> int | None:
        """Record that `entry` answered for `job_id` (announce: (channel, text), into the outbox in the same
        transaction). Returns the outbox id, or None when it was recorded already (by another process)."""
        with self._transaction("auto_record"):
            if not self._auto_insert(entry, job_id, state, announce is not None) or announce is None:
                return None
            return self.outbox_add(None, announce[0], None, announce[1])

    def followups_of(self, incident_id: int) -> list[dict]:
        with self._read_lock:
            return list(self.reader.table("followups").rows_where("incident_id = ?", [incident_id], order_by="id"))

    def incident(self, incident_id: int) -> Incident | None:
        with self._read_lock:
            rows = list(self.reader.table("incidents").rows_where("id = ?", [incident_id]))
        if not rows:
            return None
        r = rows[0]
        return Incident(
            r["id"],
            r["channel"],
            r["message_ts"],
            r["thread_ts"],
            r["source"],
            r["status"],
            Report.model_validate_json(r["report"]),
            r["opened_by"],
            r.get("job"),
        )

    def record_action(
        self, incident_id: int, user_id: str, action: str, value: str = "", status: str | None = None
    ) -> None:
        with self._transaction("record_action"):
            self.db.table("actions").insert(
                {"incident_id": incident_id, "user_id": user_id, "action": action, "value": value, "at": now()}
            )
            if status:
                self.db.execute(
                    "UPDATE incidents SET status = ?, updated_at = ? WHERE id = ?", [status, now(), incident_id]
                )

    def actions(self, incident_id: int) -> list[dict]:
        with self._read_lock:
            return list(self.reader.table("actions").rows_where("incident_id = ?", [incident_id], order_by="id"))

    def set_checklist(self, incident_id: int, checked_items: set[int], item_count: int, user_id: str) -> None:
        with self._transaction("set_checklist"):
            for item in range(item_count):
                self.db.table("checklist").upsert(
                    {
                        "incident_id": incident_id,
                        "item": item,
                        "checked": int(item in checked_items),
                        "user_id": user_id,
                        "at": now(),
                    },
                    pk=("incident_id", "item"),
                )

    def checklist(self, incident_id: int) -> set[int]:
        with self._read_lock:
            return {
                r["item"]
                for r in self.reader.table("checklist").rows_where("incident_id = ? AND checked = 1", [incident_id])
            }

    # -- feedback on answers, per signature; muted threads ----------------------------------------

    def _add_feedback(
        self, incident_id: int, user_id: str, kind: str, cls: str | None = None, note: str | None = None
    ) -> bool:
        """Inside a transaction: `user_id`'s feedback of `kind` on the incident, once; True when it is new."""
        if kind not in FEEDBACK_KINDS:
            raise ValueError(f"unknown feedback kind {kind!r}")
        return (
            self.db.execute(
                "INSERT OR IGNORE INTO feedback (incident_id, signature, kind, class, note, user_id, at) "
                "SELECT id, signature, ?, ?, ?, ?, ? FROM incidents WHERE id = ?",
                [kind, cls, note, user_id, now(), incident_id],
            ).rowcount
            == 1
        )

    def record_feedback(
        self,
        incident_id: int,
        user_id: str,
        kind: str,
        cls: str | None = None,
        note: str | None = None,
        action: str | None = None,
    ) -> bool:
        """Record `user_id`'s `kind` of feedback (FEEDBACK_KINDS) on the incident, once per person and kind: a
        second Useful counts once. Given again with a class or a note (Not this, then its form), those are
        updated. A new one is also recorded as the button press `action`. True when it is new."""
        with self._transaction("record_feedback"):
            new = self._add_feedback(incident_id, user_id, kind, cls, note)
            if not new and (cls or note):
                self.db.execute(
                    "UPDATE feedback SET class = coalesce(?, class), note = coalesce(?, note), at = ? "
                    "WHERE incident_id = ? AND kind = ? AND user_id = ?",
                    [cls, note, now(), incident_id, kind, user_id],
                )
            if new and action:
                self.db.table("actions").insert(
                    {"incident_id": incident_id, "user_id": user_id, "action": action, "value": "", "at": now()}
                )
            return new

    def withdraw_feedback(self, incident_id: int, user_id: str, kind: str) -> bool:
        """`user_id` takes back their feedback of `kind` (every box they ticked is unticked again)."""
        with self._transaction("withdraw_feedback"):
            return (
                self.db.execute(
                    "DELETE FROM feedback WHERE incident_id = ? AND user_id = ? AND kind = ?",
                    [incident_id, user_id, kind],
                ).rowcount
                == 1
            )

    def feedback_of(self, incident_id: int) -> list[dict]:
        with self._read_lock:
            return list(self.reader.table("feedback").rows_where("incident_id = ?", [incident_id], order_by="id"))

    def signature_feedback(self) -> list[dict]:
        """Per signature, over the incidents whose top diagnosis it is: `fired` (how many), `confirmed` (those whose
        fix was proven gone, or with a tick or a Useful and no rejection), `rejected` (those someone said Not this
        of, unless a fix was proven gone), and each kind's votes (`useful`, `confirmed_checklist`, `fix_gone`,
        `rejections`)."""
        with self._read_lock:
            return list(
                self.reader.query(  # in SQL both databases read alike: no boolean arithmetic, counts as integers
                    "WITH per AS (SELECT incident_id, "
                    f"max({_flag('fix_gone')}) AS gone, max({_flag('rejected')}) AS nay, "
                    f"max({_flag('useful', 'confirmed_checklist')}) AS yea, sum({_flag('useful')}) AS useful, "
                    f"sum({_flag('confirmed_checklist')}) AS ticked, sum({_flag('fix_gone')}) AS fixed, "
                    f"sum({_flag('rejected')}) AS rejections FROM feedback GROUP BY incident_id) "
                    "SELECT i.signature, count(*) AS fired, "
                    "CAST(coalesce(sum(CASE WHEN p.gone = 1 OR (p.yea = 1 AND p.nay = 0) THEN 1 ELSE 0 END), 0) "
                    "AS INTEGER) AS confirmed, "
                    "CAST(coalesce(sum(CASE WHEN p.nay = 1 AND p.gone = 0 THEN 1 ELSE 0 END), 0) AS INTEGER) "
                    "AS rejected, CAST(coalesce(sum(p.useful), 0) AS INTEGER) AS useful, "
                    "CAST(coalesce(sum(p.ticked), 0) AS INTEGER) AS confirmed_checklist, "
                    "CAST(coalesce(sum(p.fixed), 0) AS INTEGER) AS fix_gone, "
                    "CAST(coalesce(sum(p.rejections), 0) AS INTEGER) AS rejections "
                    "FROM incidents i LEFT JOIN per p ON p.incident_id = i.id WHERE i.signature IS NOT NULL "
                    "GROUP BY i.signature ORDER BY i.signature"
                )
            )

    def set_muted(self, incident_id: int, channel: str, thread_ts: str, user_id: str, muted: bool) -> bool:
        """Mute (or unmute) an incident's thread: while muted, follow-up announcements and watch alerts to it are
        not posted. Recorded as a button press (mute, unmute). True when it changed."""
        with self._transaction("set_muted"):
            if muted:
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO mutes (channel, thread_ts, incident_id, user_id, at) VALUES (?, ?, ?, ?, ?)",
                    [channel, thread_ts, incident_id, user_id, now()],
                )
            else:
                cur = self.db.execute("DELETE FROM mutes WHERE channel = ? AND thread_ts = ?", [channel, thread_ts])
            changed = cur.rowcount == 1
            if changed:
                self.db.table("actions").insert(
                    {
                        "incident_id": incident_id,
                        "user_id": user_id,
                        "action": "mute" if muted else "unmute",
                        "value": thread_ts,
                        "at": now(),
                    }
                )
            return changed

    def muted(self, channel: str, thread_ts: str) -> dict | None:
        """Who muted this thread and when, or None."""
        with self._read_lock:
            rows = list(self.reader.table("mutes").rows_where("channel = ? AND thread_ts = ?", [channel, thread_ts]))
        return rows[0] if rows else None

    def outbox_muted(self, outbox_id: int, reason: str) -> None:
        """An announcement not posted because its thread is muted: done, with why."""
        with self._transaction("outbox_muted"):
            self.db.execute(
                "UPDATE outbox SET state = 'muted', error = ?, sent_at = ?, owner = NULL, lease_until = NULL "
                "WHERE id = ?",
                [reason, now(), outbox_id],
            )
