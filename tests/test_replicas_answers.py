"""Two replicas asked about the same job (or the same paste) at the same moment: one incident and one full answer,
every other ask links to it (issue 17: both replicas open one incident, and neither posts a second answer)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import test_slack_e2e
from pg.fixtures import pg_url
from test_replicas import Replicas, answer_messages
from test_slack_e2e import CHANNEL, OOM_LOG, incident_id

__all__ = ["pg_url"]  # fixtures, used by name
fake = test_slack_e2e.fake


def test_the_same_job_asked_of_both_replicas_at_once_is_answered_once(fake, tmp_path, pg_url):
    with Replicas(fake, tmp_path, pg_url, 1) as replicas:
        paste = "diagnose " + OOM_LOG.replace("step 100", "step 9")
        asks = ["diagnose 4242"] * 4 + [paste] * 4
        start = threading.Barrier(len(asks))

        def ask(i: int) -> int:
            start.wait(10)  # all at the same moment, half through each replica
            return replicas.drivers[i % 2].command(asks[i]).status_code

        with ThreadPoolExecutor(max_workers=len(asks)) as pool:
            assert list(pool.map(ask, range(len(asks)))) == [200] * len(asks)
        fake.wait_for(lambda: replicas.db("SELECT count(*) FROM requests WHERE state = 'done'") == [(8,)], timeout=90)
        incidents = replicas.db("SELECT id FROM incidents ORDER BY id")
        assert len(incidents) == 2, incidents  # the job once, the paste once
        answers = answer_messages(fake)
        # one full answer per job (and per paste) across both replicas
        assert sorted(incident_id(m) for m in answers) == sorted(str(i) for (i,) in incidents), [
            m["text"] for m in answers
        ]
        linked = [m for m in fake.messages(CHANNEL) if m.get("bot_id") and "Already diagnosed" in m.get("text", "")]
        told = [e for e in fake.ephemeral_messages(CHANNEL) if "Already diagnosed" in e["message"].get("text", "")]
        assert len(linked) + len(told) == len(asks) - 2  # every other ask points at the one answer
        text = json.dumps(fake.messages(CHANNEL))
        assert "Diagnosing" not in text and "Fetching" not in text  # nothing left saying it is at work
        assert "Traceback" not in replicas.output()
