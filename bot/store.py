"""The bot's state in one SQLite file (WAL): seen Slack events, incidents, every button press.

Schema changes are numbered migrations applied in order at start-up; the
version is kept in `meta`. Every write commits before the caller announces it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import sqlite_utils


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def _v1(db: sqlite_utils.Database) -> None:
    db["seen"].create({"key": str, "at": str}, pk="key")
    db["incidents"].create({
        "id": int, "channel": str, "message_ts": str, "thread_ts": str, "source": str, "fingerprint": str,
        "signature": str, "class": str, "initiating_rank": int, "status": str, "report": str,
        "opened_by": str, "opened_at": str, "updated_at": str,
    }, pk="id", not_null={"channel", "status", "opened_at"})
    db["incidents"].create_index(["channel", "message_ts"], unique=True)
    db["incidents"].create_index(["fingerprint"])
    db["actions"].create({"id": int, "incident_id": int, "user_id": str, "action": str, "value": str, "at": str},
                         pk="id", foreign_keys=[("incident_id", "incidents", "id")])
    db["checklist"].create({"incident_id": int, "item": int, "checked": int, "user_id": str, "at": str},
                           pk=("incident_id", "item"), foreign_keys=[("incident_id", "incidents", "id")])


MIGRATIONS = [_v1]  # index i migrates version i to i + 1


@dataclass
class Incident:
    id: int
    channel: str
    message_ts: str | None
    thread_ts: str | None
    source: str
    status: str
    report: dict
    opened_by: str | None


class Store:
    def __init__(self, path: Path | str):
        self.path = str(path)
        self._lock = threading.RLock()
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db = sqlite_utils.Database(conn)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=30000")
        self._migrate()

    @property
    def schema_version(self) -> int:
        if "meta" not in self.db.table_names():
            return 0
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                if "meta" not in self.db.table_names():
                    self.db["meta"].create({"key": str, "value": str}, pk="key")
                version = self.schema_version
                if version > len(MIGRATIONS):
                    raise RuntimeError(f"{self.path}: schema version {version} is newer than this denpex "
                                       f"({len(MIGRATIONS)}); upgrade denpex")
                for step in MIGRATIONS[version:]:
                    step(self.db)
                self.db["meta"].upsert({"key": "schema_version", "value": str(len(MIGRATIONS))}, pk="key")
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def ping(self) -> bool:
        with self._lock:
            return self.db.execute("SELECT 1").fetchone() == (1,)

    # -- dedupe ---------------------------------------------------------------

    def first_time(self, key: str) -> bool:
        """Record `key`; True only for the first caller ever (across restarts and processes)."""
        with self._lock:
            cur = self.db.execute("INSERT OR IGNORE INTO seen (key, at) VALUES (?, ?)", [key, now()])
            return cur.rowcount == 1

    # -- incidents ------------------------------------------------------------

    def open_incident(self, channel: str, message_ts: str, thread_ts: str | None, source: str, fingerprint: str,
                      report: dict, opened_by: str | None) -> int:
        top = report["diagnoses"][0] if report.get("diagnoses") else {}
        status = "open" if top else ("unrecognised" if report.get("unrecognised") else "healthy")
        with self._lock:
            row = {"channel": channel, "message_ts": message_ts, "thread_ts": thread_ts, "source": source,
                   "fingerprint": fingerprint, "signature": top.get("signature"), "class": top.get("class"),
                   "initiating_rank": top.get("initiating_rank"), "status": status,
                   "report": json.dumps(report), "opened_by": opened_by, "opened_at": now(), "updated_at": now()}
            return self.db["incidents"].insert(row).last_pk

    def incident(self, incident_id: int) -> Incident | None:
        with self._lock:
            rows = list(self.db["incidents"].rows_where("id = ?", [incident_id]))
        if not rows:
            return None
        r = rows[0]
        return Incident(r["id"], r["channel"], r["message_ts"], r["thread_ts"], r["source"], r["status"],
                        json.loads(r["report"]), r["opened_by"])

    def record_action(self, incident_id: int, user_id: str, action: str, value: str = "",
                      status: str | None = None) -> None:
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db["actions"].insert({"incident_id": incident_id, "user_id": user_id, "action": action,
                                           "value": value, "at": now()})
                if status:
                    self.db.execute("UPDATE incidents SET status = ?, updated_at = ? WHERE id = ?",
                                    [status, now(), incident_id])
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def actions(self, incident_id: int) -> list[dict]:
        with self._lock:
            return list(self.db["actions"].rows_where("incident_id = ?", [incident_id], order_by="id"))

    def set_checklist(self, incident_id: int, checked_items: set[int], item_count: int, user_id: str) -> None:
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for item in range(item_count):
                    self.db["checklist"].upsert({"incident_id": incident_id, "item": item,
                                                 "checked": int(item in checked_items), "user_id": user_id,
                                                 "at": now()}, pk=("incident_id", "item"))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def checklist(self, incident_id: int) -> set[int]:
        with self._lock:
            return {r["item"] for r in self.db["checklist"].rows_where("incident_id = ? AND checked = 1", [incident_id])}
