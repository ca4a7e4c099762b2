"""Nothing lost, nothing twice: kill -9 and SIGTERM mid-diagnosis, a full disk, a held database lock."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import threading
import time

import httpx
import pytest
import test_slack_e2e
from fake_slack import SlackDriver
from test_slack_e2e import CHANNEL, OOM_LOG, Bot, slow_cluster

# The end-to-end fixtures, by name: pytest finds a module's fixtures among its globals (tests take them as arguments)
fake, bot, driver = test_slack_e2e.fake, test_slack_e2e.bot, test_slack_e2e.driver

FAST_TICKS = "\n[followups]\ntick_seconds = 0.5\n"


def fast_config(tmp_path, seconds: float, bot_keys: str = "") -> str:
    """[bot] keys (short leases), a cluster whose scheduler takes `seconds`, follow-up ticks every 0.5 s."""
    return "request_lease_seconds = 2\n" + bot_keys + slow_cluster(tmp_path, seconds) + FAST_TICKS


def answers(fake) -> list[dict]:
    return [m for m in fake.messages(CHANNEL) if m.get("bot_id") and "denpex_ack" in json.dumps(m.get("blocks", []))]


def announcements(fake) -> list[dict]:
    """What the channel shows of slash diagnoses: one line each naming who asked (the answers are in threads)."""
    return [m for m in fake.messages(CHANNEL, include_replies=False) if m.get("bot_id")]


def progress_of(fake, announcement: dict) -> dict:
    """The bot's first reply under a slash diagnosis's line: the progress message, later updated into the answer."""
    return next(m for m in fake.thread(CHANNEL, announcement["ts"]) if m["ts"] != announcement["ts"])


def in_thread(fake, announcement: dict) -> list[dict]:
    return [m for m in fake.thread(CHANNEL, announcement["ts"]) if m["ts"] != announcement["ts"]]


def answered_once(fake, announcement: dict, progress: dict, title: str = "CUDA out of memory") -> None:
    """The answer replaced the progress message in its thread, the channel's line says what it found, and the
    thread holds the answer and its details once each (no second answer, nothing left saying it is at work)."""
    got = [m for m in answers(fake) if m.get("thread_ts") == announcement["ts"]]
    assert [m["ts"] for m in got] == [progress["ts"]]
    line = fake.message(CHANNEL, announcement["ts"])
    assert title in line["text"] and "follows in the thread" not in line["text"], line["text"]
    replies = in_thread(fake, announcement)
    assert [m["ts"] for m in replies][:1] == [progress["ts"]]
    assert len([m for m in replies if "*Evidence*" in json.dumps(m.get("blocks", []))]) == 1
    text = json.dumps(fake.messages(CHANNEL))
    assert "Diagnosing" not in text and "restarting" not in text


def test_kill_9_mid_fetch_the_next_start_answers_in_the_same_message(fake, tmp_path):
    config = fast_config(tmp_path, 4)
    bot = Bot(fake, tmp_path, config=config).start()
    driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
    assert driver.command("diagnose 4242").status_code == 200
    fake.wait_for(lambda: announcements(fake) and in_thread(fake, announcements(fake)[0]), timeout=10)
    [announcement] = announcements(fake)
    progress = progress_of(fake, announcement)
    assert "Diagnosing" in progress["text"] or "Fetching" in progress["text"], progress["text"]

    def recorded():
        with bot.db() as db:
            return db.execute("SELECT answer_ts FROM requests").fetchone() == (progress["ts"],)

    fake.wait_for(recorded, timeout=5)  # the message is tied to the request (microseconds after posting it)
    assert bot.proc is not None
    bot.proc.send_signal(signal.SIGKILL)  # mid-fetch: the scheduler has not answered yet
    bot.proc.wait(10)
    bot.log.close()
    with bot.db() as db:
        assert db.execute("SELECT state FROM requests").fetchall() == [("accepted",)]
    bot.start()  # same database, a new process
    try:
        fake.wait_for(lambda: len(answers(fake)) == 1, timeout=40)
        time.sleep(2)  # and no second answer comes
        # the same message became the answer, in the same thread under the same line: nothing posted twice
        assert [m["ts"] for m in announcements(fake)] == [announcement["ts"]]
        answered_once(fake, announcement, progress)
        with bot.db() as db:
            assert db.execute("SELECT state FROM requests").fetchall() == [("done",)]
            assert db.execute("SELECT count(*) FROM incidents").fetchone() == (1,)
            assert db.execute("SELECT message_ts, thread_ts FROM incidents").fetchall() == [
                (progress["ts"], announcement["ts"])
            ]
    finally:
        bot.stop()


def test_kill_9_mid_upload_and_slacks_retry_get_one_answer(fake, tmp_path):
    """The event was acked, the bot died; Slack retries the event to the new process: one answer, no more."""
    config = fast_config(tmp_path, 4)
    bot = Bot(fake, tmp_path, config=config).start()
    driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
    text = "<@U0BOT> diagnose\n" + OOM_LOG
    msg = fake.add_message(CHANNEL, text)
    event = {
        "type": "app_mention",
        "user": "U123",
        "channel": CHANNEL,
        "ts": msg["ts"],
        "text": text,
        "event_ts": msg["ts"],
    }
    sent = driver.event(event)
    assert sent.status_code == 200
    assert bot.proc is not None
    bot.proc.send_signal(signal.SIGKILL)  # before (or while) it answers
    bot.proc.wait(10)
    bot.log.close()
    bot.start()
    try:
        assert driver.retry_last_event().status_code == 200  # the same port: Slack's retry reaches the new process
        fake.wait_for(lambda: answers(fake), timeout=40)
        time.sleep(3)
        assert len(answers(fake)) == 1
    finally:
        bot.stop()


def test_sigterm_lets_running_work_finish_and_hands_the_queue_to_the_next_start(fake, tmp_path):
    config = fast_config(tmp_path, 2, "max_concurrent_diagnoses = 1\nshutdown_grace_seconds = 10\n")
    bot = Bot(fake, tmp_path, config=config).start()
    driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
    for n in range(3):
        assert driver.command(f"diagnose {5000 + n}").status_code == 200
    # all three announced in the channel, each with its (queued or progress) message in its thread
    fake.wait_for(lambda: len(announcements(fake)) == 3 and all(in_thread(fake, a) for a in announcements(fake)), 10)
    said = announcements(fake)
    firsts = [progress_of(fake, a) for a in said]
    assert bot.proc is not None
    started = time.monotonic()
    bot.proc.send_signal(signal.SIGTERM)
    assert bot.proc.wait(30) == 0 and time.monotonic() - started < 12
    bot.log.close()
    assert len(answers(fake)) >= 1  # the running one finished within its grace
    assert "restarting" in json.dumps(fake.messages(CHANNEL))  # the others were told
    bot.start()
    try:
        fake.wait_for(lambda: len(answers(fake)) == 3, timeout=40)
        time.sleep(1)
        assert [m["ts"] for m in announcements(fake)] == [a["ts"] for a in said]  # no line posted twice
        for announcement, first in zip(said, firsts, strict=True):
            answered_once(fake, announcement, first)  # each in its own first message, once
    finally:
        bot.stop()


@pytest.fixture
def small_disk(tmp_path):
    """A real 4 MB filesystem (tmpfs), so the database fills up the way a full disk fills it."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield where
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(directory) -> None:
    with open(directory / "filler", "wb") as fh:
        try:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        except OSError:
            pass


def test_a_full_disk_is_said_in_the_thread_and_on_healthz(fake, tmp_path, small_disk):
    bot = Bot(fake, tmp_path)
    bot.env["DENPEX_DB"] = str(small_disk / "denpex.db")
    bot.start()
    try:
        driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
        fill(small_disk)
        started = time.monotonic()
        assert driver.command("diagnose " + OOM_LOG).status_code == 200  # acked all the same
        assert time.monotonic() - started < 3
        fake.wait_for(lambda: "could not record this incident" in json.dumps(fake.messages(CHANNEL)), timeout=20)
        text = json.dumps(fake.messages(CHANNEL))
        assert "database is full" in text and "CUDA out of memory" in text
        health = httpx.get(f"http://127.0.0.1:{bot.port}/healthz")
        assert health.status_code == 503 and "full" in health.json()["database"]
        assert "Hourglass" not in text and "Diagnosing" not in text  # no progress message left stuck
        (small_disk / "filler").unlink()
        assert driver.command("diagnose " + OOM_LOG.replace("step 100", "step 7")).status_code == 200
        fake.wait_for(lambda: answers(fake), timeout=20)  # room again: answered and recorded
        assert httpx.get(f"http://127.0.0.1:{bot.port}/healthz").status_code == 200
    finally:
        bot.stop()


def test_a_held_write_lock_does_not_block_acks_or_healthz(fake, bot, driver, tmp_path):
    locked, release = threading.Event(), threading.Event()

    def hold():
        db = sqlite3.connect(tmp_path / "denpex.db", isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        locked.set()
        release.wait(30)
        db.execute("ROLLBACK")
        db.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(5)
        for call in (
            lambda: driver.command("help"),
            lambda: driver.command("diagnose " + OOM_LOG),
            lambda: httpx.get(f"http://127.0.0.1:{bot.port}/healthz"),
        ):
            started = time.monotonic()
            assert call().status_code in (200, 503)
            assert time.monotonic() - started < 2.5
        text = OOM_LOG.replace("step 100", "step 101")
        msg = fake.add_message(CHANNEL, "<@U0BOT> " + text)
        started = time.monotonic()
        assert (
            driver.event(
                {
                    "type": "app_mention",
                    "user": "U123",
                    "channel": CHANNEL,
                    "ts": msg["ts"],
                    "text": "<@U0BOT> " + text,
                    "event_ts": msg["ts"],
                }
            ).status_code
            == 200
        )
        assert time.monotonic() - started < 2.5
        time.sleep(4)  # a lock held this long is named in the log by whoever waited for it
    finally:
        release.set()
        holder.join()
    fake.wait_for(lambda: len(answers(fake)) == 2, timeout=60)  # both answered once the lock is gone
    assert "waited" in bot.output() and "write lock" in bot.output()


def test_an_answer_slack_did_not_take_is_retried_in_the_same_message_once(fake, tmp_path):
    """Slack down when the answer is posted: the request is not done; a lease later the bot answers, once."""
    bot = Bot(fake, tmp_path, config=fast_config(tmp_path, 0)).start()
    try:
        driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
        fake.outage("chat.update", times=1)  # the update that would have carried the answer
        assert driver.command("diagnose " + OOM_LOG).status_code == 200
        fake.wait_for(lambda: len(answers(fake)) == 1, timeout=30)
        time.sleep(2.5)  # and no second answer comes
        [announcement] = announcements(fake)
        progress = progress_of(fake, announcement)
        updates = fake.calls_to("chat.update")
        assert not updates[0].ok and updates[0].error == "service_unavailable"
        assert updates[0].arg("ts") == progress["ts"] and "denpex_ack" in json.dumps(updates[0].arg("blocks"))
        answered_once(fake, announcement, progress)  # retried in the same message, once
        with bot.db() as db:
            assert db.execute("SELECT state, attempts FROM requests").fetchall() == [("done", 2)]  # taken over once
            assert db.execute("SELECT count(*) FROM incidents").fetchone() == (1,)
        assert "Slack did not take the answer" in bot.output()
    finally:
        bot.stop()
