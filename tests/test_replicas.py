"""Two real `denpex serve --http` processes on one PostgreSQL (issue 17), behind the strict fake Slack: events and
Slack's retries spread over both get one answer each; the same job or paste diagnosed through both opens one
incident; a follow-up check whose replica is SIGKILLed mid-check is taken over by the other when its lease
runs out, and one verdict is posted."""

from __future__ import annotations

import json
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
import test_slack_e2e
from fake_slack import SlackDriver
from pg.fixtures import pg_url
from test_slack_e2e import CHANNEL, OOM_LOG, Bot, diagnosed, incident_id, slow_cluster

__all__ = ["pg_url"]  # fixtures, used by name
fake = test_slack_e2e.fake

LEASE_SECONDS = 4
FOLLOWUPS = (
    f'\n[followups]\nfirst_check = "1s"\ninterval = "2s"\nwindow = "120s"\ntick_seconds = 0.5\n'
    f"lease_seconds = {LEASE_SECONDS}\n"
)


class Replicas:
    """Two bots on one database, each with its own driver (Slack may deliver any request to either)."""

    def __init__(self, fake, tmp_path, url: str, seconds: float) -> None:
        config = "request_lease_seconds = 3\n" + slow_cluster(tmp_path, seconds) + FOLLOWUPS
        self.bots = []
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            bot = Bot(fake, tmp_path / name, config=config)
            bot.env["DENPEX_DB"] = url
            self.bots.append(bot)
        self.url = url
        self.drivers = [SlackDriver(b.events_url, fake.signing_secret, fake) for b in self.bots]

    def __enter__(self) -> Replicas:
        for bot in self.bots:
            bot.start()
        return self

    def __exit__(self, *exc) -> None:
        for bot in self.bots:
            bot.stop()
        for driver in self.drivers:
            driver.close()

    def db(self, sql: str, args: list | None = None) -> list[tuple]:
        with psycopg.connect(self.url) as db:
            return db.execute(sql, args).fetchall()

    def output(self) -> str:
        return "\n".join(b.output() for b in self.bots)


def bot_messages(fake, ts: str) -> list[dict]:
    return [m for m in fake.thread(CHANNEL, ts) if m.get("bot_id")]


def answer_messages(fake) -> list[dict]:
    return [m for m in fake.messages(CHANNEL) if m.get("bot_id") and "denpex_ack" in json.dumps(m.get("blocks", []))]


def test_events_and_their_retries_spread_over_two_replicas_get_one_answer_each(fake, tmp_path, pg_url):
    """30 mentions, each delivered to both replicas at the same moment (the second as Slack's retry), half of
    them first to one, half first to the other."""
    with Replicas(fake, tmp_path, pg_url, 0) as replicas:
        mentions = []
        for n in range(30):
            text = "<@U0BOT> " + OOM_LOG.replace("step 100", f"step {n}")
            msg = fake.add_message(CHANNEL, text, user="U123")
            event = {"type": "app_mention", "user": "U123", "channel": CHANNEL, "ts": msg["ts"], "text": text}
            mentions.append((n, msg["ts"], replicas.drivers[0].event_envelope(event)))

        def deliver(mention) -> list[int]:
            n, _, envelope = mention
            body = json.dumps(envelope).encode()
            first, second = replicas.drivers[n % 2], replicas.drivers[1 - n % 2]
            retry = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
            start = threading.Barrier(2)

            def send(driver, extra):
                start.wait(10)
                return driver.send("event", body, "application/json", payload=envelope, extra_headers=extra)

            with ThreadPoolExecutor(2) as both:
                sent = [both.submit(send, first, {}), both.submit(send, second, retry)]
                return [f.result().status_code for f in sent]

        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=10) as pool:
            codes = list(pool.map(deliver, mentions))
        assert all(c == [200, 200] for c in codes), codes
        assert time.monotonic() - started < 30
        fake.wait_for(lambda: len(answer_messages(fake)) == 30, timeout=120)
        time.sleep(3)  # and no second answer comes from either replica
        for n, ts, _ in mentions:
            got = bot_messages(fake, ts)  # the answer, and its evidence in the thread: each once
            texts = [m.get("text") for m in got]
            assert len(texts) == len(set(texts)) == 2, (n, texts)
            (answer,) = [m for m in got if "denpex_ack" in json.dumps(m.get("blocks", []))]
            assert "CUDA out of memory" in json.dumps(answer["blocks"])
        assert len(fake.calls_to("chat.postMessage")) == 60
        assert replicas.db("SELECT count(*), count(DISTINCT key) FROM requests WHERE kind = 'event'") == [(30, 30)]
        assert replicas.db("SELECT count(*) FROM incidents") == [(30,)]
        logs = replicas.output()
        assert logs.count("already accepted: acknowledging the retry") == 30 and "Traceback" not in logs
        # both replicas did some of the work
        assert all("already accepted" in bot.output() for bot in replicas.bots)


def test_the_same_job_or_paste_diagnosed_through_both_opens_one_incident(fake, tmp_path, pg_url):
    with Replicas(fake, tmp_path, pg_url, 1) as replicas:
        paste = "diagnose " + OOM_LOG.replace("step 100", "step 8")

        def ask(i: int) -> int:
            return replicas.drivers[i % 2].command("diagnose 4242" if i < 4 else paste).status_code

        with ThreadPoolExecutor(max_workers=8) as pool:
            assert list(pool.map(ask, range(8))) == [200] * 8
        fake.wait_for(lambda: replicas.db("SELECT count(*) FROM requests WHERE state = 'done'") == [(8,)], timeout=90)
        incidents = replicas.db("SELECT source, id FROM incidents ORDER BY id")
        assert len(incidents) == 2, incidents  # the job once, the paste once
        ids = {str(i) for _, i in incidents}
        shown = {incident_id(m) for m in answer_messages(fake)}
        assert shown <= ids and len(shown) == 2  # every answer shows one of the two incidents
        links = lambda: [c for c in fake.calls_to("chat.postEphemeral") if "Already diagnosed" in c.arg("text")]  # noqa: E731
        before = len(links())
        for driver in replicas.drivers:  # once it is known, either replica links to it
            assert driver.command("diagnose 4242").status_code == 200
        fake.wait_for(lambda: len(links()) == before + 2, timeout=30)
        assert replicas.db("SELECT count(*) FROM incidents") == [(2,)]


def _pid(owner: str | None) -> int | None:
    parts = (owner or "").split(":")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def test_a_follow_up_whose_replica_is_killed_mid_check_is_taken_over_and_said_once(fake, tmp_path, pg_url):
    with Replicas(fake, tmp_path, pg_url, 3) as replicas:
        driver = replicas.drivers[0]
        assert driver.command("diagnose 4242").status_code == 200
        message = diagnosed(fake, timeout=60)
        driver.block_action("denpex_fix_applied", value=incident_id(message), message_ts=message["ts"], user_id="U123")
        fake.wait_for(lambda: fake.open_view("U123", "denpex_fix_applied"))
        resp = replicas.drivers[1].view_submission(  # the modal's submission reaches the other replica
            "denpex_fix_applied",
            {"rerun": {"rerun_job": {"type": "plain_text_input", "value": "4243"}}},
            user_id="U123",
        )
        assert resp.status_code == 200 and not resp.content.strip(), resp.text

        def leased() -> str | None:
            rows = replicas.db("SELECT lease_owner FROM followups WHERE status = 'scheduled'")
            return rows[0][0] if rows and rows[0][0] else None

        owner = fake.wait_for(leased, timeout=30)  # a replica claimed the check and is fetching (3 s)
        victim = next(b for b in replicas.bots if b.proc is not None and b.proc.pid == _pid(owner))
        survivor = next(b for b in replicas.bots if b is not victim)
        assert victim.proc is not None
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait(10)
        killed_at = time.monotonic()

        def verdicts() -> list[str]:
            return [
                m.get("text", "")
                for m in fake.thread(CHANNEL, message["ts"])
                if any(w in m.get("text", "") for w in ("*Gone*", "*Back*", "*Inconclusive*"))
            ]

        assert verdicts() == []
        fake.wait_for(verdicts, timeout=60)
        assert time.monotonic() - killed_at >= LEASE_SECONDS - 1.5  # not before the dead replica's lease ran out
        time.sleep(LEASE_SECONDS + 1)  # and no second verdict, from anyone
        (said,) = verdicts()
        assert "*Back*" in said and "4243" in said and "<@U123>" in said
        rows = replicas.db("SELECT status, verdict, checks, lease_owner FROM followups")
        assert rows == [("done", "back", 1, None)]
        assert replicas.db("SELECT status FROM incidents") == [("recurred",)]
        assert survivor.proc is not None and survivor.proc.poll() is None


@pytest.mark.parametrize("bad", ["postgresql://denpex@127.0.0.1:1/denpex", "postgresql://denpex:pw@127.0.0.1/"])
def test_a_database_url_that_cannot_serve_stops_start_up_with_one_line(fake, tmp_path, bad):
    import subprocess

    from conftest import denpex_cmd

    bot = Bot(fake, tmp_path)
    done = subprocess.run(
        denpex_cmd() + ["serve", "--http", "--port", str(bot.port)],
        env={**bot.env, "DENPEX_DB": bad},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    said = done.stderr.strip()
    assert said.startswith("denpex: DENPEX_DB") and "Traceback" not in said and ":pw@" not in said, said
