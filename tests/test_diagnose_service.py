"""The diagnosis service (bot/diagnose.py) with no Slack at all: requests read, access decided, logs scanned,
incidents opened."""

from pathlib import Path

import httpx
import pytest

import signatures
from bot import render
from bot.config import Config
from bot.diagnose import Diagnoser, JobAsked, NotAllowed, Paste, Refused, read_diagnose_command
from bot.fetch import FetchError
from bot.metrics import Metrics
from bot.settings import Settings
from bot.store import Store

OOM = "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"


class Progress:
    def __init__(self):
        self.phases, self.read = [], 0

    def phase(self, verb):
        self.phases.append(verb)

    def at(self, done):
        self.read = done

    def __call__(self, n):
        self.read += n


def service(tmp_path: Path, config: dict | None = None, http: httpx.Client | None = None) -> Diagnoser:
    settings = Settings(
        "xoxb-test", None, None, "https://slack.com/api/", tmp_path / "d.db", Config.model_validate(config or {})
    )
    return Diagnoser(settings, Store(settings.db_path), http or httpx.Client(), signatures.default_matcher(), Metrics())


def cluster(tmp_path: Path, allow: list[str]) -> dict:
    (tmp_path / "812345.log").write_text(OOM)
    return {"clusters": {"hpc": {"kind": "paths", "templates": [str(tmp_path / "{job_id}.log")], "allow": allow}}}


@pytest.mark.parametrize(
    "text,expected",
    [
        ("diagnose", Refused(render.NOTHING_TO_DIAGNOSE)),
        ("diagnose   ", Refused(render.NOTHING_TO_DIAGNOSE)),
        ("diagnose 812345", JobAsked("812345")),
        ("diagnose hpc/812345_7", JobAsked("hpc/812345_7")),
        ("diagnose ; rm -rf /", Refused(render.not_a_paste("; rm -rf /"))),
        ("diagnose ```" + OOM + "```", Paste(OOM.strip("\n"), [])),
        ("diagnose " + "x" * 3990, Paste("x" * 3990, [render.PASTE_TRUNCATED])),
    ],
)
def test_a_diagnose_command_is_read_without_slack(text, expected):
    if isinstance(expected, Refused):
        with pytest.raises(Refused) as refused:
            read_diagnose_command(text)
        assert str(refused.value) == str(expected)
    else:
        assert read_diagnose_command(text) == expected


@pytest.mark.parametrize(
    "allow,user,groups,allowed",
    [
        (["*"], "U1", {}, True),
        (["U1"], "U1", {}, True),
        (["U2"], "U1", {}, False),
        (["S9"], "U1", {"S9": ["U1"]}, True),
        (["S9"], "U1", {"S9": ["U2"]}, False),
        ([], "U1", {}, False),
    ],
)
def test_who_may_fetch_a_cluster(tmp_path, allow, user, groups, allowed):
    svc = service(tmp_path, cluster(tmp_path, allow))
    asked = []

    def members_of(group):
        asked.append(group)
        return groups.get(group, [])

    if allowed:
        assert svc.job_for("812345", user, members_of).job_id == "812345"
    else:
        with pytest.raises(NotAllowed) as denied:
            svc.job_for("812345", user, members_of)
        assert denied.value.ref.cluster == "hpc"
    assert set(asked) <= {g for g in allow if g.startswith("S")}  # only user groups are looked up


def test_a_reference_that_names_no_job_is_a_fetch_error(tmp_path):
    with pytest.raises(FetchError):
        service(tmp_path).job_for("812345", "U1", lambda group: [])  # no [clusters] configured


def test_a_paste_is_scanned_recorded_and_masked(tmp_path):
    svc = service(tmp_path)
    secret = "xoxb-1234567890-abcdefghijkl"
    scanned = svc.scan_paste(OOM.replace("GiB.", f"GiB. token={secret}").encode(), Progress())
    assert secret in repr(scanned.to_json())
    report = svc.finished(scanned, ["a note"], 0.1)
    assert report.top is not None and report.top.signature == "cuda.out_of_memory" and report.notes == ["a note"]
    assert secret not in repr(report.to_json())  # masked before anything stores or posts it
    incident_id = svc.open_incident(report, ("C1", "1.0"), None, "pasted log", "text:fp", "U1", None, 0.1)
    incident = svc.store.find_incident("text:fp")
    assert incident is not None and incident.id == incident_id


def test_a_job_is_fetched_and_scanned_with_its_facts(tmp_path):
    svc = service(tmp_path, cluster(tmp_path, ["*"]))
    progress = Progress()
    report = svc.scan_job(svc.job_for("812345", "U1", lambda group: []), progress)
    assert progress.phases == ["Fetching logs of", "Diagnosing"]
    assert report.top is not None and report.top.signature == "cuda.out_of_memory"
    assert report.job is not None and report.job.cluster == "hpc"


def test_a_download_is_scanned_and_fingerprinted_by_its_content(tmp_path):
    def slack_files(request: httpx.Request) -> httpx.Response:
        assert request.headers["authorization"] == "Bearer xoxb-test"
        return httpx.Response(200, content=OOM.encode())

    svc = service(tmp_path, http=httpx.Client(transport=httpx.MockTransport(slack_files)))
    progress = Progress()
    got = svc.scan_download("https://slack.com/files/x.log", "x.log", progress)
    again = svc.scan_download("https://slack.com/files/x.log", "x.log", progress)
    assert progress.phases[:2] == ["Downloading", "Diagnosing"]
    assert got.report.top is not None and got.report.top.signature == "cuda.out_of_memory"
    assert got.fingerprint == again.fingerprint and got.fingerprint.startswith("file:")
