"""The bot's watches of jobs (bot/watching/jobs.py) on a real SQLite store and real growing files, with the
scheduler's answer injected: each alert is recorded with the poll's state and posted once, across restarts
and with several processes (threads here, each with its own Store connection) polling one database. The
black-box tests against the real Slurm are in tests/test_slurm.py."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from bot.config import Config
from bot.fetch import JobFacts, UnknownJob, parse_job_ref
from bot.store import STARTING_STALE, Store
from bot.watching.jobs import LOST_AFTER_POLLS, JobWatches
from signatures import default_matcher

CONFIG = Config.model_validate(
    {
        "clusters": {"local": {"kind": "slurm", "allow": ["*"]}},
        "watch": {"interval": "1s", "stall_after": "1h", "idle_exit": "1h"},
    }
)
OOM = (
    "[rank2]: Traceback (most recent call last):\n"
    '[rank2]:   File "/workspace/train.py", line 80, in <module>\n'
    "[rank2]:     loss.backward()\n"
    "[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 2 has a total "
    "capacity of 79.10 GiB of which 1.02 GiB is free.\n"
)


class Clock:
    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class Scheduler:
    """What `scontrol show job` would say: a state and the job's log path, changed by the test."""

    def __init__(self, log: Path):
        self.log, self.state, self.unknown = log, "RUNNING", False

    def __call__(self, ref, config, **_):
        if self.unknown:
            raise UnknownJob(f"Slurm does not know job {ref.job_id}")
        return JobFacts(job_id=ref.job_id, state=self.state, exit_code="0:0"), [self.log]


def outbox_texts(store: Store) -> list[str]:
    return [r["text"] for r in store.db.query("SELECT text FROM outbox ORDER BY id")]


@pytest.fixture
def setup(tmp_path):
    log = tmp_path / "slurm-42.out"
    log.write_text("step 1 loss 2.0\n")
    db = tmp_path / "denpex.db"
    clock, scheduler = Clock(), Scheduler(log)
    return db, log, clock, scheduler


def watches(db: Path, clock: Clock, scheduler: Scheduler) -> tuple[JobWatches, Store]:
    store = Store(db)
    return JobWatches(CONFIG, store, default_matcher(), deliver=lambda _id: None, status=scheduler, clock=clock), store


def start(w: JobWatches, store: Store) -> int:
    ref = parse_job_ref("42", CONFIG)
    assert w.start(ref, "C1", "U1", lambda text: "111.222") == ""
    row = store.active_watch("local", "42", "C1")
    assert row is not None
    return row["id"]


def test_the_same_watch_asked_from_many_threads_at_once_is_one_watch_and_one_confirmation(setup):
    db, log, clock, scheduler = setup
    ref = parse_job_ref("42", CONFIG)
    posted: list[str] = []
    Store(db)  # the schema in place before the threads open their connections
    barrier = threading.Barrier(8, timeout=30)
    answers: list[str] = []

    def ask(i: int) -> None:
        w, _ = watches(db, clock, scheduler)  # a store (connection) per thread, as each request has
        barrier.wait()

        def post(text: str) -> str:
            posted.append(text)
            time.sleep(0.05)  # Slack takes a moment: the others arrive meanwhile
            return f"1.{i}"

        answers.append(w.start(ref, "C1", f"U{i}", post))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    store = Store(db)
    assert len(answers) == 8, "a thread failed"
    assert len(posted) == 1 and answers.count("") == 1
    assert all("already" in a for a in answers if a), answers
    assert len(store.watches_in("C1")) == 1


def test_a_watch_whose_confirmation_could_not_be_posted_leaves_nothing_behind(setup):
    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)

    def down(text: str) -> str:
        raise OSError("Slack is unreachable")

    with pytest.raises(OSError):
        w.start(parse_job_ref("42", CONFIG), "C1", "U1", down)
    assert store.watches_in("C1") == [] and store.db.execute("SELECT count(*) FROM watches").fetchone() == (0,)
    start(w, store)  # and it can be asked again


def test_an_oom_then_the_end_are_said_once_each(setup):
    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    start(w, store)
    w.tick()
    with log.open("a") as fh:
        fh.write(OOM)
    for _ in range(3):
        clock.now += 2
        w.tick()
    scheduler.state = "FAILED"
    clock.now += 2
    w.tick()
    clock.now += 2
    w.tick()  # ended: nothing more
    texts = outbox_texts(store)
    assert len([t for t in texts if ":rotating_light:" in t and "CUDA out of memory" in t]) == 1, texts
    closing = [t for t in texts if "Stopped watching" in t]
    assert len(closing) == 1 and "ended FAILED" in closing[0] and "rank 2" in closing[0], texts
    assert store.watches_in("C1") == []


def test_a_restarted_bot_resumes_without_saying_anything_twice(setup):
    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    start(w, store)
    w.tick()
    with log.open("a") as fh:
        fh.write(OOM)
    clock.now += 2
    w.tick()
    said = outbox_texts(store)
    w2, store2 = watches(db, clock, scheduler)  # a new process on the same database
    for _ in range(3):
        clock.now += 2
        w2.tick()
    assert outbox_texts(store2) == said  # the OOM was read and said before the restart: not again


def test_processes_polling_one_database_say_each_thing_once(setup):
    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    start(w, store)
    others = [watches(db, clock, scheduler)[0] for _ in range(4)]
    stop = threading.Event()

    def ticking(watch: JobWatches) -> None:
        while not stop.is_set():
            watch.tick()

    threads = [threading.Thread(target=ticking, args=(o,)) for o in [w, *others]]
    for t in threads:
        t.start()
    try:
        for i in range(20):
            with log.open("a") as fh:
                fh.write(f"step {i + 2} loss {1.9 - i / 100:.2f}\n")
                if i == 10:
                    fh.write(OOM)
            clock.now += 1.5
            time.sleep(0.05)
        scheduler.state = "COMPLETED"
        clock.now += 2
        deadline = time.monotonic() + 20
        while store.watches_in("C1") and time.monotonic() < deadline:
            clock.now += 1
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    texts = outbox_texts(store)
    assert len([t for t in texts if "CUDA out of memory" in t and ":rotating_light:" in t]) == 1, texts
    assert len([t for t in texts if "Stopped watching" in t]) == 1, texts
    assert store.watches_in("C1") == []


def test_a_job_the_scheduler_forgets_is_given_up_with_the_reason(setup):
    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    start(w, store)
    scheduler.unknown = True
    for _ in range(LOST_AFTER_POLLS):
        clock.now += 2
        w.tick()
    texts = outbox_texts(store)
    assert texts == [t for t in texts if "Stopped watching `42`: Slurm does not know job 42" in t] and len(texts) == 1


def test_a_job_that_already_ended_or_is_watched_already_is_answered_in_words(setup):
    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    start(w, store)
    assert "already being watched" in w.start(parse_job_ref("42", CONFIG), "C1", "U1", lambda text: "1.2")
    scheduler.state = "FAILED"
    assert "already ended (FAILED)" in w.start(parse_job_ref("42", CONFIG), "C2", "U1", lambda text: "1.2")
    posted = []
    assert w.stop(parse_job_ref("42", CONFIG), "C1", "U9", lambda ts, text: posted.append((ts, text))) == ""
    assert posted == [("111.222", ":no_bell: <@U9> stopped watching `local/42`.")]
    assert "not being watched" in w.stop(parse_job_ref("42", CONFIG), "C1", "U9", lambda ts, text: None)


@pytest.mark.parametrize(
    "entry,expected",
    [
        ({"cluster": "nope", "channel": "C123"}, "no cluster 'nope'"),
        ({"cluster": "local", "channel": "general"}, "channel"),
        ({"cluster": "local", "channel": "C123", "name": "(["}, "not a valid regex"),
        ({"cluster": "local", "channel": "C123", "states": ["COMPLETED"]}, "states must be some of"),
        ({"cluster": "local", "channel": "C123", "poll": "soon"}, "poll"),
    ],
)
def test_bad_auto_entries_are_refused_with_the_key(entry, expected):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=expected):
        Config.model_validate({"clusters": {"local": {"kind": "slurm"}}, "watch": {"auto": [entry]}})


def test_auto_takes_the_jobs_in_scope_that_ended_after_it_first_looked(tmp_path):
    from bot.watching.jobs import AutoDiagnosis

    config = Config.model_validate(
        {
            "clusters": {"local": {"kind": "slurm", "allow": ["*"]}},
            "watch": {"auto": [{"cluster": "local", "channel": "C123", "partitions": ["gpu"], "name": "^pre"}]},
        }
    )
    clock = Clock()
    jobs = [
        {"JobId": "1", "JobName": "pretrain", "Partition": "gpu", "JobState": "FAILED", "end": clock.now - 60},
        {"JobId": "2", "JobName": "pretrain", "Partition": "gpu", "JobState": "FAILED", "end": clock.now + 5},
        {"JobId": "3", "JobName": "pretrain", "Partition": "cpu", "JobState": "FAILED", "end": clock.now + 5},
        {"JobId": "4", "JobName": "eval", "Partition": "gpu", "JobState": "TIMEOUT", "end": clock.now + 5},
    ]
    store = Store(tmp_path / "denpex.db")
    auto = AutoDiagnosis(
        config, store, default_matcher(), deliver=lambda _id: None, ended=lambda *a, **k: jobs, clock=clock
    )
    auto._diagnose = lambda entry, job_id: (None, "no logs here")  # type: ignore[method-assign]
    entry = config.watch.auto[0]
    assert auto.look(entry) == []  # the first look passes over what had ended (the controller's clock is its own)
    jobs.append({"JobId": "5", "JobName": "pretrain", "Partition": "gpu", "JobState": "FAILED", "end": None})
    jobs.append({"JobId": "6", "JobName": "pretrain", "Partition": "cpu", "JobState": "FAILED", "end": None})
    clock.now += 60
    assert auto.look(entry) == ["5"]  # 6 is out of scope
    assert auto.look(entry) == []  # never twice
    again = AutoDiagnosis(
        config, Store(tmp_path / "denpex.db"), default_matcher(), lambda _id: None, lambda *a, **k: jobs
    )
    again._diagnose = auto._diagnose  # type: ignore[method-assign]
    assert again.look(entry) == []  # nor after a restart
    assert outbox_texts(store) == [":x: `5` (pretrain, ?) ended FAILED; its logs could not be read: no logs here"]


def test_healthz_says_when_watches_fall_behind(setup):
    from types import SimpleNamespace
    from typing import cast

    from bot.app import DenpexApp
    from bot.metrics import Metrics
    from bot.server import health_state

    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    app = cast(  # a stand-in with only what health_state reads
        DenpexApp,
        SimpleNamespace(
            followups=SimpleNamespace(scheduler=object(), config=CONFIG, last_tick=time.time(), started_at=time.time()),
            watches=w,
            metrics=Metrics(),
        ),
    )
    store.add_watch("local", "42", "C1", "1.2", "U1", time.time())
    assert health_state(app, store)["watches"] == "ok"  # due now: not late
    store.add_watch("local", "43", "C1", "1.3", "U1", time.time() - 600)  # due ten minutes ago, never looked at
    state = health_state(app, store)
    assert state["ok"] is False and state["watches"] == "behind: 1 watch(es) not looked at in time"
    assert app.metrics.watches_overdue._value.get() == 1


@pytest.mark.parametrize(
    "state,expected",
    [
        ("RUNNING", "RUNNING"),
        ("COMPLETED/RUNNING", "RUNNING"),  # an array still running tasks
        ("PENDING/RUNNING", "RUNNING"),
        ("COMPLETED/PENDING", "PENDING"),  # a throttled array waits for its next task
        ("COMPLETED/FAILED", "COMPLETED"),
        ("FAILED", "FAILED"),
        ("REQUEUE_HOLD", "PENDING"),
        ("STOPPED", "RUNNING"),
        (None, "UNKNOWN"),
    ],
)
def test_the_state_of_arrays_and_het_jobs(state, expected):
    from bot.watching.jobs import state_of

    assert state_of(JobFacts(job_id="1", state=state)) == expected


def test_a_look_that_keeps_failing_ends_the_watch_saying_why(setup):
    from bot.watching import jobs as watching_jobs

    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    start(w, store)

    def broken(watch_id: int) -> list[str]:
        raise OSError("Permission denied: the log")

    w.poll = broken  # type: ignore[method-assign]
    for _ in range(watching_jobs.FAILURES_KEPT):
        clock.now += 2
        w.tick()
    texts = outbox_texts(store)
    assert len(texts) == 1 and "5 looks in a row failed; the last: Permission denied" in texts[0], texts
    assert store.watches_in("C1") == []


def test_watch_running_watches_each_running_job_in_scope_silently_until_it_has_something_to_say(tmp_path):
    from bot.watching.jobs import AutoDiagnosis

    config = Config.model_validate(
        {
            "clusters": {"local": {"kind": "slurm", "allow": ["*"]}},
            "watch": {
                "interval": "1s",
                "stall_after": "1h",
                "idle_exit": "1h",
                "auto": [{"cluster": "local", "channel": "C123", "partitions": ["gpu"], "watch_running": True}],
            },
        }
    )
    clock = Clock()
    logs = {job: tmp_path / f"slurm-{job}.out" for job in ("7", "8")}
    for log in logs.values():
        log.write_text("".join(f"[rank0]: step {s} | loss 2.0\n" for s in range(1, 6)))
    jobs = [
        {"JobId": "7", "JobName": "pretrain", "Partition": "gpu", "JobState": "RUNNING"},
        {"JobId": "8", "JobName": "pretrain", "Partition": "gpu", "JobState": "RUNNING"},
        {"JobId": "9", "JobName": "pretrain", "Partition": "cpu", "JobState": "RUNNING"},  # out of scope
    ]
    states = {"7": "RUNNING", "8": "RUNNING"}
    store = Store(tmp_path / "denpex.db")
    posted: list[tuple[str, str | None, str]] = []

    def deliver(outbox_id: int) -> None:  # Slack takes each post: its ts is the outbox row's id
        row = store.db.execute("SELECT channel, thread_ts, text FROM outbox WHERE id = ?", [outbox_id]).fetchone()
        posted.append(row)
        store.outbox_sent(outbox_id, f"{outbox_id}.0")

    def status(ref, _config, **_):
        return JobFacts(job_id=ref.job_id, state=states[ref.job_id]), [logs[ref.job_id]]

    auto = AutoDiagnosis(config, store, default_matcher(), deliver, ended=lambda *a, **k: jobs, clock=clock)
    watches = JobWatches(config, store, default_matcher(), deliver, status=status, clock=clock)
    (entry,) = config.watch.auto
    auto.look(entry)
    auto.look(entry)  # once per job
    rows = store.watches_in("C123")
    assert sorted(r["job"] for r in rows) == ["7", "8"] and all(r["thread_ts"] is None for r in rows)
    assert all(r["requested_by"] == "auto:local>C123" for r in rows)

    def tick() -> None:
        clock.now += 2
        watches.tick()

    tick()
    assert posted == []  # running and stepping: nothing to say
    with logs["7"].open("a") as fh:
        fh.write(OOM)
    tick()
    assert len(posted) == 1 and posted[0][:2] == ("C123", None) and "CUDA out of memory" in posted[0][2]
    with logs["7"].open("a") as fh:
        fh.write(OOM.replace("rank2", "rank5").replace("GPU 2", "GPU 5"))
    tick()
    (first_ts,) = store.db.execute("SELECT posted_ts FROM outbox ORDER BY id LIMIT 1").fetchone()
    assert len(posted) == 2 and posted[1][1] == first_ts  # in the first post's thread
    states.update({"7": "FAILED", "8": "COMPLETED"})
    tick()
    closing = posted[2:]
    assert len(closing) == 1 and "Stopped watching" in closing[0][2] and closing[0][1] == first_ts  # 8: silent
    assert store.watches_in("C123") == []


def test_unwatch_while_the_confirmation_is_being_posted_stops_the_watch_at_once(setup):
    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    ref = parse_job_ref("42", CONFIG)
    posting = threading.Event()

    def slow_post(text: str) -> str:
        posting.set()
        time.sleep(0.5)  # Slack takes its time: the unwatch arrives meanwhile
        return "111.222"

    replies: list[tuple[str, str]] = []
    starter = threading.Thread(target=lambda: w.start(ref, "C1", "U1", slow_post, lambda *a: replies.append(a)))
    starter.start()
    assert posting.wait(5)
    stopped: list[tuple[str, str]] = []
    w2, _ = watches(db, clock, scheduler)  # another replica, say
    began = time.monotonic()
    assert "Stopped watching" in w2.stop(ref, "C1", "U2", lambda ts, text: stopped.append((ts, text)))
    assert time.monotonic() - began < 0.4  # it did not wait for the confirmation
    starter.join(5)
    # the start that posted the confirmation says it in the new thread, once; nothing is left watching or starting
    assert stopped == [] and len(replies) == 1
    assert replies[0][0] == "111.222" and "<@U2> stopped watching" in replies[0][1]
    assert store.watches_in("C1") == [] and store.active_watch("local", "42", "C1") is None
    assert w.stop(ref, "C1", "U1", lambda ts, text: stopped.append((ts, text))) != ""  # not watched any more
    assert stopped == []
    # without a way to reply in the thread, the start answers the command with it instead
    posting.clear()
    starter_answer: list[str] = []
    starter = threading.Thread(target=lambda: starter_answer.append(w.start(ref, "C1", "U1", slow_post)))
    starter.start()
    assert posting.wait(5)
    assert "Stopped watching" in w2.stop(ref, "C1", "U3", lambda ts, text: stopped.append((ts, text)))
    starter.join(5)
    assert len(starter_answer) == 1 and "<@U3> stopped watching" in starter_answer[0]


def test_unwatch_of_a_start_that_never_posts_is_answered_and_a_taken_over_start_says_so(setup):
    """The one who unwatches hears it even when the start posting the confirmation dies or fails; a start whose
    post hung until another watch of the job replaced it says that in its thread, naming no one."""
    db, log, clock, scheduler = setup
    w, store = watches(db, clock, scheduler)
    ref = parse_job_ref("42", CONFIG)
    # a 'starting' row left by a process that died while posting
    assert store.add_watch("local", "42", "C1", None, "U1", clock(), "starting") is not None
    posted: list[tuple[str, str]] = []
    answer = w.stop(ref, "C1", "U2", lambda ts, text: posted.append((ts, text)))
    assert "Stopped watching `local/42`" in answer and posted == []
    assert w.stop(ref, "C1", "U2", lambda ts, text: posted.append((ts, text))) != answer  # once: not watched now

    # the confirmation post fails after the unwatch: the start's own error stands, the unwatcher had its answer
    posting, release = threading.Event(), threading.Event()

    def failing_post(text: str) -> str:
        posting.set()
        release.wait(5)
        raise RuntimeError("not_in_channel")

    errors: list[BaseException] = []

    def start() -> None:
        try:
            w.start(ref, "C2", "U1", failing_post, lambda *a: posted.append(a))
        except RuntimeError as exc:
            errors.append(exc)

    starter = threading.Thread(target=start)
    starter.start()
    assert posting.wait(5)
    assert "Stopped watching" in w.stop(ref, "C2", "U2", lambda ts, text: posted.append((ts, text)))
    release.set()
    starter.join(5)
    assert [str(e) for e in errors] == ["not_in_channel"] and posted == []
    assert store.active_watch("local", "42", "C2") is None

    # a post that hangs past STARTING_STALE: another watch of the job takes over; the first start names no one
    posting.clear()
    release.clear()
    replies: list[tuple[str, str]] = []

    def hanging_post(text: str) -> str:
        posting.set()
        release.wait(5)
        return "111.222"

    starter = threading.Thread(target=lambda: w.start(ref, "C3", "U1", hanging_post, lambda *a: replies.append(a)))
    starter.start()
    assert posting.wait(5)
    clock.now += STARTING_STALE + 1
    assert w.start(ref, "C3", "U3", lambda text: "333.444") == ""
    release.set()
    starter.join(5)
    assert len(replies) == 1 and replies[0][0] == "111.222" and "another watch" in replies[0][1]
    assert "<@" not in replies[0][1]
    taken = store.active_watch("local", "42", "C3")
    assert taken is not None and taken["thread_ts"] == "333.444"
