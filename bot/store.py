"""The bot's state in one SQLite file (WAL): seen Slack events, incidents, every button press.

Schema changes are numbered migrations applied in order at start-up; the
version is kept in `meta`. Every write commits before the caller announces it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
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


def _v2(db: sqlite_utils.Database) -> None:
    """Follow-ups: the job an incident came from, a history of diagnoses, and scheduled re-checks."""
    db["incidents"].add_column("job", str)
    db["incidents"].add_column("resolved_at", str)
    db["diagnoses"].create({"id": int, "incident_id": int, "kind": str, "job": str, "verdict": str, "report": str,
                            "at": str}, pk="id", foreign_keys=[("incident_id", "incidents", "id")])
    db["followups"].create({
        "id": int, "incident_id": int, "job": str, "requested_by": str, "note": str, "status": str, "verdict": str,
        "detail": str, "next_at": float, "interval_s": float, "window_end": float, "checks": int,
        "lease_owner": str, "lease_until": float, "created_at": str, "updated_at": str,
    }, pk="id", foreign_keys=[("incident_id", "incidents", "id")])
    db["followups"].create_index(["status", "next_at"])


MIGRATIONS = [_v1, _v2]  # index i migrates version i to i + 1


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
    job: str | None = None


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
        with self._transaction():
            if "meta" not in self.db.table_names():
                self.db["meta"].create({"key": str, "value": str}, pk="key")
            version = self.schema_version
            if version > len(MIGRATIONS):
                raise RuntimeError(f"{self.path}: schema version {version} is newer than this denpex "
                                   f"({len(MIGRATIONS)}); upgrade denpex")
            for step in MIGRATIONS[version:]:
                step(self.db)
            self.db["meta"].upsert({"key": "schema_version", "value": str(len(MIGRATIONS))}, pk="key")

    def ping(self) -> bool:
        with self._lock:
            return self.db.execute("SELECT 1").fetchone() == (1,)

    @contextmanager
    def _transaction(self):
        """One writer at a time across threads and processes; everything inside commits or nothing does."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    # -- dedupe ---------------------------------------------------------------

    def first_time(self, key: str) -> bool:
        """Record `key`; True only for the first caller ever (across restarts and processes)."""
        with self._lock:
            cur = self.db.execute("INSERT OR IGNORE INTO seen (key, at) VALUES (?, ?)", [key, now()])
            return cur.rowcount == 1

    # -- incidents ------------------------------------------------------------

    def open_incident(self, channel: str, message_ts: str, thread_ts: str | None, source: str, fingerprint: str,
                      report: dict, opened_by: str | None, job: str | None = None) -> int:
        top = report["diagnoses"][0] if report.get("diagnoses") else {}
        status = "open" if top else ("unrecognised" if report.get("unrecognised") else "healthy")
        row = {"channel": channel, "message_ts": message_ts, "thread_ts": thread_ts, "source": source,
               "fingerprint": fingerprint, "signature": top.get("signature"), "class": top.get("class"),
               "initiating_rank": top.get("initiating_rank"), "status": status, "report": json.dumps(report),
               "opened_by": opened_by, "opened_at": now(), "updated_at": now(), "job": job}
        with self._transaction():
            incident_id = self.db["incidents"].insert(row).last_pk
            self.db["diagnoses"].insert({"incident_id": incident_id, "kind": "initial", "job": job,
                                         "report": row["report"], "at": row["opened_at"]})
        return incident_id

    def find_incident(self, fingerprint: str) -> Incident | None:
        """The incident already opened for the same job or the same content, if any."""
        with self._lock:
            row = self.db.execute("SELECT id FROM incidents WHERE fingerprint = ? AND message_ts IS NOT NULL "
                                  "ORDER BY id LIMIT 1", [fingerprint]).fetchone()
        return self.incident(row[0]) if row else None

    def open_incidents(self, channel: str) -> list[dict]:
        with self._lock:
            return list(self.db.query(
                "SELECT i.id, i.source, i.signature, i.status, i.message_ts, i.thread_ts, i.opened_at, "
                "(SELECT min(f.next_at) FROM followups f WHERE f.incident_id = i.id AND f.status = 'scheduled') "
                "AS next_check FROM incidents i WHERE i.channel = ? AND i.status NOT IN ('healthy', 'resolved') "
                "ORDER BY i.id DESC LIMIT 20", [channel]))

    # -- follow-ups -----------------------------------------------------------

    def schedule_followup(self, incident_id: int, job: str, user: str, note: str, first_at: float,
                          interval_s: float, window_end: float) -> int:
        with self._transaction():
            fid = self.db["followups"].insert({
                "incident_id": incident_id, "job": job, "requested_by": user, "note": note,
                "status": "scheduled", "verdict": None, "detail": None, "next_at": first_at,
                "interval_s": interval_s, "window_end": window_end, "checks": 0, "lease_owner": None,
                "lease_until": None, "created_at": now(), "updated_at": now()}).last_pk
            self.db.execute("UPDATE incidents SET status = 'fix_applied', updated_at = ? WHERE id = ?",
                            [now(), incident_id])
            return fid

    def due_followups(self, at: float) -> list[int]:
        with self._lock:
            return [r[0] for r in self.db.execute(
                "SELECT id FROM followups WHERE status = 'scheduled' AND next_at <= ? "
                "AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_at", [at, at])]

    def overdue_followups(self, due_before: float) -> int:
        """How many scheduled checks fell due before `due_before` and still have not run."""
        with self._lock:
            return self.db.execute("SELECT count(*) FROM followups WHERE status = 'scheduled' AND next_at < ?",
                                   [due_before]).fetchone()[0]

    def claim_followup(self, followup_id: int, owner: str, at: float, lease_s: float) -> bool:
        """Take the check for `lease_s` seconds. Atomic: of several processes, exactly one gets it."""
        with self._lock:
            cur = self.db.execute(
                "UPDATE followups SET lease_owner = ?, lease_until = ?, updated_at = ? WHERE id = ? AND "
                "status = 'scheduled' AND next_at <= ? AND (lease_until IS NULL OR lease_until < ?)",
                [owner, at + lease_s, now(), followup_id, at, at])
            return cur.rowcount == 1

    def followup(self, followup_id: int) -> dict | None:
        with self._lock:
            rows = list(self.db["followups"].rows_where("id = ?", [followup_id]))
        return rows[0] if rows else None

    def record_check(self, followup_id: int, owner: str, verdict: str, detail: str, report: dict | None,
                     next_at: float | None) -> bool:
        """Commit a check's outcome (before anyone announces it). `next_at` None ends the follow-up.
        Returns False when the lease was lost (another process took over): the caller must not announce."""
        with self._transaction():
            fu = self.db.execute("SELECT incident_id, job, lease_owner FROM followups WHERE id = ?",
                                 [followup_id]).fetchone()
            if fu is None or fu[2] != owner:
                return False  # the lease was lost: nothing written
            done = next_at is None
            self.db.execute(
                "UPDATE followups SET status = ?, verdict = ?, detail = ?, next_at = coalesce(?, next_at), "
                "checks = checks + 1, lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ?",
                ["done" if done else "scheduled", verdict, detail, next_at, now(), followup_id])
            if report is not None:
                self.db["diagnoses"].insert({"incident_id": fu[0], "kind": "followup", "job": fu[1],
                                             "verdict": verdict, "report": json.dumps(report), "at": now()})
            if done:
                status = {"gone": "resolved", "back": "recurred"}.get(verdict, "inconclusive")
                self.db.execute("UPDATE incidents SET status = ?, updated_at = ?, resolved_at = CASE WHEN ? = "
                                "'resolved' THEN ? ELSE resolved_at END WHERE id = ?",
                                [status, now(), status, now(), fu[0]])
            return True

    def incident(self, incident_id: int) -> Incident | None:
        with self._lock:
            rows = list(self.db["incidents"].rows_where("id = ?", [incident_id]))
        if not rows:
            return None
        r = rows[0]
        return Incident(r["id"], r["channel"], r["message_ts"], r["thread_ts"], r["source"], r["status"],
                        json.loads(r["report"]), r["opened_by"], r.get("job"))

    def record_action(self, incident_id: int, user_id: str, action: str, value: str = "",
                      status: str | None = None) -> None:
        with self._transaction():
            self.db["actions"].insert({"incident_id": incident_id, "user_id": user_id, "action": action,
                                       "value": value, "at": now()})
            if status:
                self.db.execute("UPDATE incidents SET status = ?, updated_at = ? WHERE id = ?",
                                [status, now(), incident_id])

    def actions(self, incident_id: int) -> list[dict]:
        with self._lock:
            return list(self.db["actions"].rows_where("incident_id = ?", [incident_id], order_by="id"))

    def set_checklist(self, incident_id: int, checked_items: set[int], item_count: int, user_id: str) -> None:
        with self._transaction():
            for item in range(item_count):
                self.db["checklist"].upsert({"incident_id": incident_id, "item": item,
                                             "checked": int(item in checked_items), "user_id": user_id,
                                             "at": now()}, pk=("incident_id", "item"))

    def checklist(self, incident_id: int) -> set[int]:
        with self._lock:
            return {r["item"] for r in self.db["checklist"].rows_where("incident_id = ? AND checked = 1", [incident_id])}
