"""The bot's pure parts: masking, rendering within Block Kit limits, state, settings, request repair."""

import json
import multiprocessing
import sqlite3

import pytest
from conftest import CORPUS
from slack_bolt import BoltRequest

import signatures
from bot.blockkit import problems
from bot.diagnose import JOB_REF, looks_like_log_file
from bot.redact import redact
from bot.render import MessageState, diagnosis_message, evidence_file, notice_message, progress_message
from bot.server import repair_form_body
from bot.settings import SettingsError, load_settings
from bot.store import MIGRATIONS, Store

SECRETS = [
    ("export SLACK_BOT_TOKEN=xoxb-123456789012-abcdefghijkl", "xoxb-123456789012"),
    ("python train.py --hf-token hf_abcdefghijklmnopqrstuvwxyzABCDEFGH --lr 1e-4", "hf_abcdefghijklmnop"),
    ("WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123"),
    ("git clone https://user:ghp_secret123@github.com/x/y", "ghp_secret123"),
    ("db password: hunter2", "hunter2"),
    ("curl -H 'Authorization: Bearer eyJabc.def.ghi'", "eyJabc"),
    ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "MIIEow"),
]


@pytest.mark.parametrize("text,secret", SECRETS)
def test_secrets_are_masked(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text", ["num_tokens=2048", "max_tokens: 4096 tokens/s 12000", "step 10 loss 0.5", "--tokens 5"]
)
def test_counts_are_not_secrets(text):
    assert redact(text) == text


def _report(path):
    return signatures.diagnose([str(path)])


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("*.log")))
def test_every_corpus_answer_fits_block_kit(name):
    report = _report(CORPUS / name)
    text, blocks = diagnosis_message(report, MessageState(7, name, acknowledged=[("U1", "t")], checked={0, 1}))
    assert problems(blocks, text) == []


def test_an_adversarial_report_still_fits():
    report = _report(CORPUS / "001_python_exception_other.log")
    d = report.top
    evidence = d.evidence[0].model_copy(update={"text": "E" * 100_000, "context": ["c" * 5000] * 50})
    collateral = d.collateral[0].model_copy(update={"title": "X" * 3000, "ranks": list(range(4096))})
    d = d.model_copy(
        update={
            "title": "T" * 500,
            "summary": "S" * 10_000,
            "fix": "F```" * 3000,
            "checklist": ["C" * 400] * 15,
            "verify": "V" * 5000,
            "first_seen": d.first_seen.model_copy(update={"source": "/" + "p" * 4000}),
            "evidence": [evidence] * 30,
            "collateral": [collateral] * 30,
        }
    )
    report = report.model_copy(
        update={"diagnoses": [d] + [d.model_copy(update={"signature": f"s.{i}"}) for i in range(40)]}
    )
    many = [("U" + str(i), "t") for i in range(100)]
    text, blocks = diagnosis_message(
        report, MessageState(1, "x" * 5000, acknowledged=many, not_this=many, notes=["n" * 5000] * 20)
    )
    assert problems(blocks, text) == []
    assert len(blocks) <= 50


def test_unrecognised_and_healthy_answers():
    unrec = signatures.Report.model_validate(
        {
            "diagnoses": [],
            "unrecognised": [{"rank": 1, "lines": [{"source": "a", "line": 3, "text": "Boom"}]}],
            "stats": {
                "bytes": 10,
                "lines": 3,
                "ranks": [1],
                "hosts": [],
                "sources": 1,
                "skipped": [],
                "completed": {},
                "seconds": 0.1,
            },
        }
    )
    text, blocks = diagnosis_message(unrec, MessageState(2, "a.log"))
    assert "Unrecognised" in text and problems(blocks, text) == []
    healthy = unrec.model_copy(update={"unrecognised": []})
    text, blocks = diagnosis_message(healthy, MessageState(3, "a.log"))
    assert "No failure found" in text and problems(blocks, text) == []


def test_secrets_never_reach_a_message(tmp_path):
    log = tmp_path / "train.log"
    log.write_text(
        "[rank0]: launching with --wandb-api-key=abcdef0123456789abcdef0123456789\n"
        "[rank0]: RuntimeError: token xoxb-999999999999-zzzzzzzzzzzz rejected\n"
    )
    report = signatures.diagnose([str(log)])
    text, blocks = diagnosis_message(report, MessageState(1, "train.log"))
    dumped = json.dumps(blocks) + text + evidence_file(report)
    assert "xoxb-999999999999" not in dumped and "abcdef0123456789abcdef" not in dumped


def test_progress_and_notice_messages_fit():
    assert problems(*reversed(progress_message("x" * 10_000, 5 << 20, 150 << 20))) == []
    assert problems(*reversed(notice_message("n" * 50_000))) == []


@pytest.mark.parametrize(
    "ref,is_job",
    [
        ("812345", True),
        ("812345_7", True),
        ("prod/812345", True),
        ("k8s/default/llama-pretrain", True),
        ("ray/raysubmit_AbC123", True),
        ("RuntimeError: CUDA out of memory", False),
        ("[rank0]: x", False),
    ],
)
def test_job_references(ref, is_job):
    assert bool(JOB_REF.match(ref)) == is_job


@pytest.mark.parametrize(
    "info,expected",
    [
        ({"name": "train.log", "mimetype": "text/plain"}, True),
        ({"name": "rank_logs.tar.gz", "mimetype": "application/gzip"}, True),
        ({"name": "job.zip", "filetype": "zip"}, True),
        ({"name": "slurm-812345.out", "filetype": "text"}, True),
        ({"name": "screenshot.png", "mimetype": "image/png"}, False),
        ({"name": "postmortem.pdf", "filetype": "pdf"}, False),
    ],
)
def test_which_files_are_logs(info, expected):
    assert looks_like_log_file(info) == expected


def test_store_migrates_and_dedupes_across_processes(tmp_path):
    db = tmp_path / "denpex.db"
    store = Store(db)
    assert store.schema_version == len(MIGRATIONS)
    assert store.first_time("event:Ev1") is True
    assert store.first_time("event:Ev1") is False
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        results = pool.map(_first_time, [(str(db), "event:Ev2")] * 8)
    assert results.count(True) == 1
    assert Store(db).first_time("event:Ev1") is False  # survives a restart


def _first_time(args):
    path, key = args
    return Store(path).first_time(key)


def test_store_refuses_a_newer_schema(tmp_path):
    db = tmp_path / "denpex.db"
    Store(db)
    sqlite3.connect(db).execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'").connection.commit()
    with pytest.raises(RuntimeError, match="newer than this denpex"):
        Store(db)


def test_incident_actions_and_checklist(tmp_path):
    store = Store(tmp_path / "d.db")
    report = _report(CORPUS / "001_python_exception_other.log")
    iid = store.open_incident("C1", "1.000", None, "x.log", "file:abc", report, "U1")
    store.record_action(iid, "U2", "acknowledge", status="acknowledged")
    store.set_checklist(iid, {0, 2}, 4, "U2")
    incident = store.incident(iid)
    assert incident is not None and incident.status == "acknowledged"
    assert [a["action"] for a in store.actions(iid)] == ["acknowledge"]
    assert store.checklist(iid) == {0, 2}


@pytest.mark.parametrize(
    "env,message",
    [
        ({}, "SLACK_BOT_TOKEN is not set"),
        ({"SLACK_BOT_TOKEN": "xoxp-1"}, "SLACK_BOT_TOKEN does not look like a xoxb-"),
        ({"SLACK_BOT_TOKEN": "xoxb-1"}, "SLACK_SIGNING_SECRET is not set"),
        (
            {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DENPEX_SLACK_API_URL": "ftp://x"},
            "DENPEX_SLACK_API_URL",
        ),
        (
            {
                "SLACK_BOT_TOKEN": "xoxb-1",
                "SLACK_SIGNING_SECRET": "s",
                "DENPEX_SLACK_API_URL": "http://slack.example.com/api/",
            },
            "must use https",
        ),
        ({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DENPEX_DB": "/nonexistent/dir/d.db"}, "DENPEX_DB"),
        (
            {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DENPEX_CONFIG": "/nonexistent.toml"},
            "DENPEX_CONFIG",
        ),
    ],
)
def test_bad_settings_name_the_setting(env, message):
    with pytest.raises(SettingsError, match=message):
        load_settings(http=True, env=env)


def test_socket_mode_needs_the_app_token():
    with pytest.raises(SettingsError, match="SLACK_APP_TOKEN"):
        load_settings(http=False, env={"SLACK_BOT_TOKEN": "xoxb-1"})


def test_form_body_with_the_word_payload_is_kept():
    raw = "token=t&command=%2Fdenpex&text=diagnose+RuntimeError%3A+bad+payload+size&channel_id=C1&user_id=U1"
    request = BoltRequest(body=raw, headers={"content-type": ["application/x-www-form-urlencoded"]})
    assert request.body == {}  # what Bolt alone does with it
    repaired = repair_form_body(request)
    assert repaired.body["command"] == "/denpex" and "payload" in repaired.body["text"]
    action = BoltRequest(
        body="payload=" + '{"type":"block_actions"}', headers={"content-type": ["application/x-www-form-urlencoded"]}
    )
    assert repair_form_body(action).body["type"] == "block_actions"


def test_a_lost_lease_writes_nothing_and_says_so(tmp_path):
    import time as _time

    store = Store(tmp_path / "d.db")
    report = _report(CORPUS / "001_python_exception_other.log")
    iid = store.open_incident("C1", "1.000", None, "x.log", "job:local/1", report, "U1", job="local/1")
    fid = store.schedule_followup(iid, "local/2", "U1", "", _time.time() - 1, 60, _time.time() + 600)
    assert store.claim_followup(fid, "a", _time.time(), 0.01)
    _time.sleep(0.05)  # a's lease runs out; b takes the check over
    assert store.claim_followup(fid, "b", _time.time(), 60)
    assert store.record_check(fid, "a", "gone", "late", None, None) is False
    followup = store.followup(fid)
    assert followup is not None and followup["status"] == "scheduled"
    assert store.record_check(fid, "b", "gone", "ok", None, None) is True
    followup, incident = store.followup(fid), store.incident(iid)
    assert followup is not None and followup["status"] == "done"
    assert incident is not None and incident.status == "resolved"


SERVE_ON_TWO_ADDRESSES = """
import os, signal, socket, sys, threading, urllib.request

real = socket.getaddrinfo


def two(host, port, *args, **kwargs):  # a name that stands for two addresses, as localhost for 127.0.0.1 and ::1
    if host == "twohost":
        return real("127.0.0.1", port, *args, **kwargs) + real("127.0.0.2", port, *args, **kwargs)
    return real(host, port, *args, **kwargs)


socket.getaddrinfo = two
from bot.server import serve_http


class Store:
    problem = None


def ask_then_stop(port):
    for host in ("127.0.0.1", "127.0.0.2"):
        print(host, urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=10).status, flush=True)
    os.kill(os.getpid(), signal.SIGTERM)


port = int(sys.argv[1])
threading.Timer(0.5, ask_then_stop, [port]).start()
serve_http(lambda: object(), Store(), "twohost", port, on_stop=lambda: print("stopping", flush=True))
print("stopped", flush=True)
"""


def test_http_mode_serves_a_host_that_stands_for_several_addresses():
    """waitress gives such a host one listener per address (and no socket or port of its own): each answers, and
    SIGTERM still stops them all."""
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = subprocess.run(
        [sys.executable, "-c", SERVE_ON_TWO_ADDRESSES, str(port)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"denpex: serving Slack events on http://twohost:{port}/slack/events",
        "127.0.0.1 200",
        "127.0.0.2 200",
        "stopping",
        "stopped",
    ]


def test_a_refresh_renders_again_when_a_press_was_recorded_while_it_updated(tmp_path):
    # two presses handled at once: each refresh renders what was recorded when it read, and Slack keeps the update
    # that reaches it last. Here a second person's press is recorded while the first refresh's update is on its way
    # (as a press on another thread or replica does): the refresh must end by showing both
    from bot.responder import Responder

    store = Store(tmp_path / "db.sqlite")
    report = _report(CORPUS / "001_python_exception_other.log")
    iid = store.open_incident("C1", "1.0", None, "x.log", "fp", report, "U1")
    store.record_feedback(iid, "U1", "useful", action="useful")
    responder = object.__new__(Responder)  # refresh needs only the store
    responder.store = store

    class Client:
        def __init__(self):
            self.shown: list[str] = []

        def chat_update(self, **kw):
            self.shown.append(json.dumps(kw["blocks"]))
            if len(self.shown) == 1:  # the other press lands while this update is on its way
                store.record_feedback(iid, "U2", "useful", action="useful")

    client = Client()
    responder.refresh(client, iid)  # type: ignore[arg-type]  # chat_update is all refresh calls
    assert "<@U1>" in client.shown[-1] and "<@U2>" in client.shown[-1]
    assert len(client.shown) == 2  # rendered again once, and no more when nothing changed
