"""The store on both databases: the same tests on a SQLite file and on a real PostgreSQL (tests/pg/), and what
several processes sharing one database may and may not do: each event, request, incident, follow-up check, watch
and announcement taken exactly once, whatever the number of threads and processes reaching for it at once."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from conftest import CORPUS
from pg.fixtures import pg_url, store_url

import signatures
from bot.store import MIGRATIONS, QUICK_BUSY_MS, Store, StoreBusy, StoreError, describe

__all__ = ["pg_url", "store_url"]  # fixtures, used by name

REPORT = signatures.diagnose([str(CORPUS / "001_python_exception_other.log")])
HOSTED = signatures.diagnose_sources(  # a failure on a named host (per-node logs name it by their directory)
    [signatures.source_from_bytes("gpu-node-07/node.log", b"[rank3]: torch.OutOfMemoryError: CUDA out of memory.\n")]
)


@pytest.fixture
def stores(store_url):
    """Open stores on the test's database (each one a process's view of it); all closed afterwards."""
    opened: list[Store] = []

    def open_store() -> Store:
        store = Store(store_url)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()


def together(count: int, work) -> list:
    """Run work(i) for i in range(count) in as many threads, started at once."""
    start = threading.Barrier(count)

    def run(i):
        start.wait(timeout=30)
        return work(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


# -- one schema, one migration list ---------------------------------------------------------------------


def _columns_sqlite(path: str) -> dict[str, set[str]]:
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables if not t.startswith("sqlite_")}


def _columns_pg(url: str) -> dict[str, set[str]]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        ).fetchall()
    found: dict[str, set[str]] = {}
    for table, column in rows:
        found.setdefault(table, set()).add(column)
    return found


def test_both_databases_get_the_same_tables_and_columns_from_the_same_migrations(tmp_path, pg_url):
    Store(tmp_path / "d.db").close()
    Store(pg_url).close()
    sqlite_tables, pg_tables = _columns_sqlite(str(tmp_path / "d.db")), _columns_pg(pg_url)
    assert len(sqlite_tables) >= 15
    assert sqlite_tables == pg_tables


def test_migrations_run_once_and_a_newer_schema_is_refused(stores, store_url):
    store = stores()
    assert store.schema_version == len(MIGRATIONS)
    assert store.first_time("event:Ev1") is True
    again = stores()  # a restart: nothing migrated twice, nothing lost
    assert again.schema_version == len(MIGRATIONS) and again.first_time("event:Ev1") is False
    store.db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(RuntimeError, match="schema version 99 is newer than this denpex"):
        stores()


def test_replicas_starting_together_migrate_once(stores):
    opened = together(6, lambda _: stores())
    assert {s.schema_version for s in opened} == {len(MIGRATIONS)}
    assert opened[0].db.execute("SELECT count(*) FROM meta").fetchone()[0] == 1


def test_a_password_never_appears_in_what_the_store_says(pg_url):
    store = Store(pg_url)
    try:
        assert ":***@" in store.name and pg_url.split(":")[2].split("@")[0] not in store.name
        store.db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        with pytest.raises(RuntimeError) as refused:
            Store(pg_url)
        assert ":***@" in str(refused.value) and pg_url not in str(refused.value)
    finally:
        store.close()


def test_an_unreachable_server_is_said_in_words():
    with pytest.raises(StoreError, match="cannot be reached|no database connection came free") as refused:
        Store("postgresql://denpex:hunter2@127.0.0.1:1/denpex")
    assert "hunter2" not in str(refused.value)


@pytest.mark.parametrize(
    "error,words",
    [
        (psycopg.errors.DiskFull("could not extend file: No space left on device"), "database is full"),
        (psycopg.errors.LockNotAvailable("canceling statement due to lock timeout"), "locked by another process"),
        (psycopg.errors.ReadOnlySqlTransaction("cannot execute INSERT in a read-only transaction"), "read-only"),
        (sqlite3.OperationalError("database or disk is full"), "database is full"),
        (sqlite3.OperationalError("database is locked"), "locked by another process"),
    ],
)
def test_database_errors_in_words_on_both(error, words):
    assert words in describe(error)


# -- exactly once, across threads and processes ---------------------------------------------------------------


def _until_free(write):
    """An ack-path write, tried again while it gives up with StoreBusy (it waits 200 ms at most for a connection,
    and 32 threads opening four pools' first connections at once on a loaded machine can take longer): a busy
    write wrote nothing, so trying again is what the bot's durable write after the ack does."""
    for _ in range(100):
        try:
            return write()
        except StoreBusy:
            time.sleep(0.05)
    return write()


def test_an_event_and_a_request_are_accepted_once_by_many_processes_at_once(stores):
    replicas = [stores() for _ in range(4)]  # four processes' stores, 8 threads each

    def deliver(i):
        store = replicas[i % 4]
        return [
            (
                _until_free(lambda k=k: store.first_time(f"event:Ev{k}")),
                _until_free(lambda k=k: store.accept(f"req:{k}", "event", {"k": k}, f"owner{i}", 30)),
            )
            for k in range(25)
        ]

    results = together(32, deliver)
    for k in range(25):
        firsts = [r[k][0] for r in results]
        accepted = [r[k][1] for r in results]
        assert firsts.count(True) == 1 and accepted.count(True) == 1, k
    assert replicas[0].request("req:7")["body"] == '{"k": 7}'


def _first_times(args: tuple[str, list[str]]) -> list[bool]:
    url, keys = args
    store = Store(url)
    try:
        return [store.first_time(key) for key in keys]
    finally:
        store.close()


def test_separate_processes_accept_each_event_once(stores, store_url):
    stores()  # migrated before the processes start
    keys = [f"event:P{k}" for k in range(40)]
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        results = pool.map(_first_times, [(store_url, keys)] * 4)
    for k in range(len(keys)):
        assert [r[k] for r in results].count(True) == 1


def test_the_same_job_or_content_opens_one_incident_whoever_records_it(stores):
    replicas = [stores() for _ in range(4)]
    ids = together(16, lambda i: replicas[i % 4].open_incident("C1", f"{i}.0", None, "x.log", "job:hpc/7", REPORT, "U"))
    assert len(set(ids)) == 1
    incident = replicas[0].find_incident("job:hpc/7")
    assert incident is not None and incident.id == ids[0]
    assert replicas[0].db.execute("SELECT count(*) FROM incidents").fetchone()[0] == 1
    assert replicas[0].db.execute("SELECT count(*) FROM diagnoses").fetchone()[0] == 1
    other = replicas[1].open_incident("C1", "99.0", None, "y.log", "job:hpc/8", REPORT, "U")
    assert other != ids[0]  # another job: its own incident


def test_a_due_follow_up_is_claimed_by_exactly_one_and_taken_over_after_its_lease(stores):
    replicas = [stores() for _ in range(4)]
    iid = replicas[0].open_incident("C1", "1.0", None, "x.log", "job:hpc/1", REPORT, "U1", "hpc/1")
    due = [
        replicas[0].schedule_followup(iid, "hpc/2", "U1", "", time.time() - 1, 60, time.time() + 600) for _ in range(5)
    ]
    at = time.time()
    claims = together(16, lambda i: [replicas[i % 4].claim_followup(f, f"owner{i}", at, 0.5) for f in due])
    for n in range(len(due)):
        assert [c[n] for c in claims].count(True) == 1
    winner = next(i for i, c in enumerate(claims) if c[0])
    assert replicas[1].claim_followup(due[0], "late", time.time(), 60) is False  # leased
    time.sleep(0.6)  # the winner died: its lease runs out
    assert replicas[1].claim_followup(due[0], "taker", time.time(), 60) is True
    assert replicas[0].record_check(due[0], f"owner{winner}", "gone", "late", None, None) is False  # nothing written
    outbox = replicas[1].record_check(due[0], "taker", "gone", "clean", None, None, ("C1", "1.0", "gone"))
    assert isinstance(outbox, int) and outbox is not True
    fu = replicas[2].followup(due[0])
    assert fu is not None and (fu["status"], fu["verdict"], fu["checks"]) == ("done", "gone", 1)
    assert [r["text"] for r in replicas[3].claim_outbox("poster", 30)] == ["gone"]


def test_announcements_are_claimed_once_by_replicas_claiming_together(stores):
    replicas = [stores() for _ in range(4)]
    iid = replicas[0].open_incident("C1", "1.0", None, "x.log", "fp", REPORT, "U1")
    for n in range(120):
        with replicas[0]._transaction("test"):
            replicas[0].outbox_add(iid, "C1", "1.0", f"message {n}")

    def drain(i):
        got = []
        while batch := replicas[i % 4].claim_outbox(f"owner{i}", 60):
            got += [r["id"] for r in batch]
        return got

    claimed = together(8, drain)
    every = [outbox_id for ids in claimed for outbox_id in ids]
    assert len(every) == 120 and len(set(every)) == 120


def test_stale_requests_are_taken_over_once(stores):
    replicas = [stores() for _ in range(4)]
    for k in range(30):
        assert replicas[0].accept(f"req:{k}", "command", {"k": k}, "dead-replica", -1)  # its lease ran out
    taken = together(8, lambda i: [r["key"] for r in replicas[i % 4].claim_stale_requests(f"live{i}", 60, limit=10)])
    every = [key for keys in taken for key in keys]
    assert sorted(every) == sorted(f"req:{k}" for k in range(30))
    assert {r["attempts"] for r in map(replicas[0].request, every)} == {2}


def test_one_active_watch_per_job_and_channel_whoever_asks(stores):
    replicas = [stores() for _ in range(4)]
    ids = together(12, lambda i: replicas[i % 4].add_watch("hpc", "42", "C1", None, f"U{i}", time.time()))
    assert len([i for i in ids if i is not None]) == 1
    watch_id = next(i for i in ids if i is not None)
    at = time.time() + 1
    polls = together(8, lambda i: replicas[i % 4].claim_watch(watch_id, f"owner{i}", at, 30))
    assert polls.count(True) == 1
    owner = f"owner{polls.index(True)}"
    assert replicas[0].record_watch_poll(watch_id, "not-me", {}, at + 60, None, ["x"]) is False
    outbox = replicas[1].record_watch_poll(watch_id, owner, {"offset": 10}, at + 60, None, ["the job slowed down"])
    assert isinstance(outbox, list) and len(outbox) == 1
    assert replicas[2].watch(watch_id)["state"] == '{"offset": 10}'


def test_auto_diagnosis_answers_each_failed_job_once(stores):
    replicas = [stores() for _ in range(4)]
    firsts = together(8, lambda i: replicas[i % 4].auto_started("nightly", 100.0 + i))
    assert [first for _, first in firsts].count(True) == 1 and len({at for at, _ in firsts}) == 1
    claims = together(8, lambda i: replicas[i % 4].auto_claim("nightly", "812345", "FAILED"))
    assert claims.count(True) == 1
    assert replicas[0].auto_seen("nightly") == {"812345"}


# -- the same answers on both -------------------------------------------------------------------------------


def test_feedback_per_signature_counts_alike(stores):
    store = stores()
    first = store.open_incident("C1", "1.0", None, "x.log", "fp:1", REPORT, "U0")
    second = store.open_incident("C1", "2.0", None, "y.log", "fp:2", REPORT, "U0")
    third = store.open_incident("C1", "3.0", None, "z.log", "fp:3", HOSTED, "U0")
    assert store.record_feedback(first, "U1", "useful") and not store.record_feedback(first, "U1", "useful")
    assert store.record_feedback(first, "U2", "confirmed_checklist")
    assert store.record_feedback(second, "U1", "rejected", "data_pipeline", "wrong rank")
    assert store.record_feedback(third, "U3", "useful")
    by_signature = {r["signature"]: r for r in store.signature_feedback()}
    top = REPORT.top
    assert top is not None
    assert by_signature[top.signature] == {
        "signature": top.signature,
        "fired": 2,
        "confirmed": 1,
        "rejected": 1,
        "useful": 1,
        "confirmed_checklist": 1,
        "fix_gone": 0,
        "rejections": 1,
    }
    assert store.withdraw_feedback(first, "U2", "confirmed_checklist")
    assert [f["kind"] for f in store.feedback_of(first)] == ["useful"]


def test_incidents_buttons_checklists_hosts_and_mutes_read_back_alike(stores):
    store = stores()
    iid = store.open_incident("C1", "1.0", None, "x.log", "fp", HOSTED, "U1", "hpc/9")
    store.record_action(iid, "U2", "acknowledge", status="acknowledged")
    store.set_checklist(iid, {0, 2}, 4, "U2")
    store.set_checklist(iid, {1}, 4, "U3")
    incident = store.incident(iid)
    assert incident is not None and (incident.status, incident.job) == ("acknowledged", "hpc/9")
    assert incident.report.to_json() == HOSTED.to_json()
    assert store.checklist(iid) == {1}
    assert [a["action"] for a in store.actions(iid)] == ["acknowledge"]
    assert store.set_muted(iid, "C1", "1.0", "U2", True) and not store.set_muted(iid, "C1", "1.0", "U2", True)
    assert store.muted("C1", "1.0")["user_id"] == "U2"
    host = HOSTED.top.host if HOSTED.top else None
    assert host and [h["incident_id"] for h in store.host_history(host, 0)] == [iid]
    assert list(store.hosts_since(0)) == [host]
    assert [i["id"] for i in store.open_incidents("C1")] == [iid]


# -- the ack path never waits long ---------------------------------------------------------------------------


def _hold_write_lock(store_url: str, locked: threading.Event, release: threading.Event, key: str = "req:held") -> None:
    """Another process's transaction that holds what accept() needs: SQLite's write lock, PostgreSQL's row."""
    if store_url.startswith("postgresql://"):
        with psycopg.connect(store_url) as db:
            db.execute(
                "INSERT INTO requests (key, kind, body, state, attempts, created_at, updated_at) "
                "VALUES (%s, 'event', '{}', 'accepted', 1, 'now', 'now')",
                [key],
            )
            locked.set()
            release.wait(30)
            db.rollback()
        return
    lite = sqlite3.connect(store_url, isolation_level=None)
    lite.execute("BEGIN IMMEDIATE")
    locked.set()
    release.wait(30)
    lite.execute("ROLLBACK")
    lite.close()


def test_a_held_lock_makes_the_ack_path_give_up_quickly_with_store_busy(stores, store_url):
    store = stores()
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_write_lock, args=(store_url, locked, release))
    holder.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        with pytest.raises(StoreBusy):
            store.accept("req:held", "event", {}, "me", 30)
        assert time.monotonic() - started < QUICK_BUSY_MS / 1000 + 1.0
    finally:
        release.set()
        holder.join()
    assert store.accept("req:held", "event", {}, "me", 30) is True  # the holder rolled back: it is ours now
    assert store.problem is None  # busy is not broken


def test_sqlite_is_still_the_default_file(tmp_path):
    store = Store(tmp_path / "d.db")
    try:
        assert not store.postgres and Path(store.name) == tmp_path / "d.db"
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


def test_a_request_answered_before_it_could_be_recorded_is_recorded_done(stores, store_url):
    """The ack path found the database locked, so the request was answered first; once answered it is recorded
    as done (not forgotten), so Slack's retry of it reaching another process is known as answered."""
    from bot.inbox import Inbox

    store, other = stores(), stores()
    inbox = Inbox(store, 30)
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_write_lock, args=(store_url, locked, release, "req:late"))
    holder.start()
    try:
        assert locked.wait(10)
        assert inbox.accept("req:late", "event", {"n": 1}) is True  # answered at once, recorded later
    finally:
        release.set()
        holder.join()
    assert store.request("req:late") is None  # not recorded yet
    inbox.done("req:late")
    assert store.request("req:late")["state"] == "done"
    assert other.accept("req:late", "event", {"n": 1}, "another process", 30) is False  # its retry elsewhere
