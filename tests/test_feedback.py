"""A track record people can trust (issue 14.5): the line of what was considered and set aside, feedback kept
per signature in a real SQLite store, its precision, muted threads, the per-signature metrics, and the modals."""

from __future__ import annotations

import sqlite3
from typing import cast

import pytest
import sqlite_utils
from conftest import CORPUS, ROOT, run_denpex
from fake_slack.blockkit import validate_view
from prometheus_client.parser import text_string_to_metric_families
from slack_sdk import WebClient

import signatures
from bot import feedback
from bot.blockkit import OPTION_TEXT, problems
from bot.config import Config, ConfigError, load_config
from bot.followups import FollowUps
from bot.metrics import Metrics
from bot.render import (
    DRAFT,
    DRAFT_OPTIONS,
    MUTE,
    UNMUTE,
    USEFUL,
    MessageState,
    details_message,
    diagnosis_message,
    draft_lines,
    draft_modal,
    draft_posted,
    not_this_modal,
)
from bot.store import MIGRATIONS, Store
from signatures._report import considered_line

EXAMPLE = ROOT / "examples" / "job_812345.tar.gz"
BLIND = CORPUS / "blind_r9" / "runs"


@pytest.fixture(scope="module")
def oom_report() -> signatures.Report:
    return signatures.diagnose([str(EXAMPLE)])


# -- considered and set aside ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "inputs,expected",
    [
        (  # the knock-on timeouts came ten minutes after the OOM; torchrun's summary names rank 0
            [EXAMPLE],
            [
                "Considered and set aside (high confidence): not nccl_timeout: NCCL watchdog on ranks 0-2, 4-7 came "
                "10 min after rank 3's cuda_oom",
                "not rank 0, which the launcher saw fail",
            ],
        ),
        (  # a store timeout on the others 31 s after rank 3's KeyError (a variable missing from its environment)
            [BLIND / "007_env_missing_task"],
            ["not nccl_timeout: c10d key-value store on ranks 1-2 came 31 s after rank 3's python_exception_other"],
        ),
        (  # another failure of the same rank, with no time to order them by
            [CORPUS / "blind_r8" / "runs" / "011_lr_schedule_nan"],
            [
                "(medium confidence): not loss_spike_divergence: Training loss diverged on rank 0 seen too; the "
                "attribution (first_sign) names rank 0's nan_inf_loss as the start"
            ],
        ),
        ([CORPUS / "blind_r6" / "runs" / "001_fifo_stuck_rank"], ["Considered (high confidence): no other signature"]),
    ],
)
def test_the_considered_line_on_real_runs(inputs, expected):
    line = considered_line(signatures.diagnose([str(p) for p in inputs]))
    for part in expected:
        assert part in line


def test_the_considered_line_is_in_the_cli_text_and_the_slack_answer(oom_report):
    text = run_denpex("diagnose", str(EXAMPLE)).stdout.decode()
    assert "Considered and set aside (high confidence): not nccl_timeout: NCCL watchdog on ranks 0-2, 4-7" in text
    body, blocks = diagnosis_message(oom_report, MessageState(1, "job.tar.gz"))
    assert problems(blocks, body) == []
    details = details_message(oom_report, MessageState(1, "job.tar.gz"))  # the reply in the answer's thread
    assert details is not None
    body, blocks = details
    assert problems(blocks, body) == []
    context = " ".join(el["text"] for b in blocks if b["type"] == "context" for el in b["elements"])
    assert ":mag: Considered and set aside (high confidence): not nccl_timeout" in context


def test_a_healthy_or_unrecognised_report_has_no_considered_line():
    healthy = signatures.diagnose([str(CORPUS / "024_healthy.log")])
    assert healthy.top is None and considered_line(healthy) == ""


# -- feedback in the store, and precision ------------------------------------------------------------


def _incident(store: Store, report: signatures.Report, n: int) -> int:
    return store.open_incident("C1", f"{n}.000", None, "x.log", f"fp:{n}", report, "U0")


def test_useful_counts_once_per_person_and_a_rejection_takes_its_class_and_note(tmp_path, oom_report):
    store = Store(tmp_path / "d.db")
    iid = _incident(store, oom_report, 1)
    assert store.record_feedback(iid, "U1", "useful", action="useful") is True
    assert store.record_feedback(iid, "U1", "useful", action="useful") is False
    assert store.record_feedback(iid, "U2", "useful", action="useful") is True
    assert store.record_feedback(iid, "U3", "rejected") is True  # the press
    assert store.record_feedback(iid, "U3", "rejected", "host_oom_killed", "dmesg") is False  # its form
    rows = [(f["kind"], f["user_id"], f["class"], f["note"], f["signature"]) for f in store.feedback_of(iid)]
    assert rows == [
        ("useful", "U1", None, None, "cuda.out_of_memory"),
        ("useful", "U2", None, None, "cuda.out_of_memory"),
        ("rejected", "U3", "host_oom_killed", "dmesg", "cuda.out_of_memory"),
    ]
    assert [a["action"] for a in store.actions(iid)] == ["useful", "useful"]
    with pytest.raises(ValueError, match="unknown feedback kind"):
        store.record_feedback(iid, "U1", "liked")


def _gone(store: Store, iid: int, user: str) -> None:
    """A follow-up whose verdict came back ✅ Gone, recorded as the follow-ups record it."""
    fid = store.schedule_followup(iid, "hpc/2", user, "", 0.0, 60, 10**10)
    assert store.claim_followup(fid, "me", 1.0, 60)
    assert store.record_check(fid, "me", "gone", "fine", None, None) is True


def test_precision_per_signature(tmp_path, oom_report):
    """confirmed: a fix proven gone, or a tick or Useful with nobody saying Not this; rejected: Not this, unless a
    fix was proven gone; precision = confirmed / (confirmed + rejected)."""
    store = Store(tmp_path / "d.db")
    useful, rejected, gone_anyway, contested, ticked, silent = (_incident(store, oom_report, n) for n in range(6))
    store.record_feedback(useful, "U1", "useful")
    store.record_feedback(rejected, "U1", "rejected")
    store.record_feedback(gone_anyway, "U2", "rejected")
    _gone(store, gone_anyway, "U3")
    store.record_feedback(contested, "U1", "useful")
    store.record_feedback(contested, "U2", "rejected")
    store.record_feedback(ticked, "U4", "confirmed_checklist")
    store.record_feedback(ticked, "U5", "confirmed_checklist")
    assert store.withdraw_feedback(ticked, "U5", "confirmed_checklist") is True  # unticked everything again
    other = signatures.diagnose([str(CORPUS / "033_host_oom_killed.log")])
    _incident(store, other, 9)
    found = {r.signature: r for r in feedback.records(store)}
    oom = found["cuda.out_of_memory"]
    assert (oom.fired, oom.confirmed, oom.rejected, oom.votes) == (6, 3, 2, 5)
    assert (oom.useful, oom.confirmed_checklist, oom.fix_gone, oom.rejections) == (2, 1, 1, 3)
    assert oom.precision == pytest.approx(0.6)
    quiet = found[other.diagnoses[0].signature]
    assert (quiet.fired, quiet.votes, quiet.precision) == (1, 0, None)
    assert feedback.below_bar(list(found.values()), 0.7, 5) == [oom]
    assert feedback.below_bar(list(found.values()), 0.7, 6) == []  # judged on too few incidents
    assert feedback.below_bar(list(found.values()), 0.6, 5) == []  # at the bar is not below it
    table = feedback.stats_table(list(found.values()))
    assert "cuda.out_of_memory" in table and "60%" in table and "—" in table
    assert store.feedback_of(silent) == []


def test_feedback_recorded_before_the_migration_is_carried_over(tmp_path, oom_report):
    path = tmp_path / "old.db"
    db = sqlite_utils.Database(sqlite3.connect(path))
    db.table("meta").create({"key": str, "value": str}, pk="key")
    for step in MIGRATIONS[:7]:
        step(db)
    db.table("meta").insert({"key": "schema_version", "value": "7"})
    db.table("incidents").insert(
        {"id": 1, "channel": "C1", "message_ts": "1.0", "signature": "cuda.out_of_memory", "status": "disputed",
         "report": oom_report.model_dump_json(by_alias=True), "opened_at": "2026-01-01T00:00:00Z"}
    )  # fmt: skip
    db.table("checklist").insert({"incident_id": 1, "item": 0, "checked": 1, "user_id": "U1", "at": "t1"})
    db.table("checklist").insert({"incident_id": 1, "item": 1, "checked": 0, "user_id": "U2", "at": "t2"})
    for user in ("U3", "U3"):
        db.table("actions").insert({"incident_id": 1, "user_id": user, "action": "not_this", "at": "t3"})
    db.table("followups").insert(
        {"incident_id": 1, "job": "j", "requested_by": "U4", "status": "done", "verdict": "gone", "updated_at": "t4"}
    )
    db.conn.commit()
    store = Store(path)
    assert store.schema_version == len(MIGRATIONS)
    carried = sorted((f["kind"], f["user_id"]) for f in store.feedback_of(1))
    assert carried == [("confirmed_checklist", "U1"), ("fix_gone", "U4"), ("rejected", "U3")]


# -- muted threads ------------------------------------------------------------------------------------


class _Slack:
    def __init__(self) -> None:
        self.posted: list[dict] = []

    def chat_postMessage(self, **kw):
        self.posted.append(kw)
        return {"ts": f"{100 + len(self.posted)}.000000"}

    def client(self) -> WebClient:
        return cast(WebClient, self)


def _alerts(store: Store, watch: int, texts: list[str]) -> list[int]:
    """A watch's alerts, committed into the outbox as a poll commits them."""
    assert store.claim_watch(watch, "me", 1e12, 60)
    outbox = store.record_watch_poll(watch, "me", {}, 1e12, None, texts)
    assert isinstance(outbox, list)
    return outbox


def test_a_muted_thread_gets_no_follow_up_or_watch_posts_until_unmuted(tmp_path, oom_report):
    store = Store(tmp_path / "d.db")
    iid = _incident(store, oom_report, 1)
    watch = store.add_watch("hpc", "42", "C1", "1.000", "U1", 0.0)
    assert watch is not None
    slack = _Slack()
    followups = FollowUps(Config(), store, slack.client(), signatures.default_matcher(), Metrics())
    assert store.set_muted(iid, "C1", "1.000", "U1", True) is True
    assert store.set_muted(iid, "C1", "1.000", "U1", True) is False  # already muted: not recorded twice
    fid = store.schedule_followup(iid, "hpc/2", "U1", "", 0.0, 60, 10**10)
    assert store.claim_followup(fid, "me", 1.0, 60)
    store.record_check(fid, "me", "back", "again", None, None, ("C1", "1.000", ":x: Back"))
    _alerts(store, watch, [":turtle: slower steps"])
    other_thread = store.add_watch("hpc", "43", "C1", "2.000", "U1", 0.0)
    assert other_thread is not None
    _alerts(store, other_thread, [":turtle: elsewhere"])
    followups.deliver()
    assert [m["text"] for m in slack.posted] == [":turtle: elsewhere"]
    muted = [(r["state"], r["error"]) for r in store.db.query("SELECT * FROM outbox WHERE state = 'muted'")]
    assert len(muted) == 2 and all(error.startswith("thread muted by U1") for _, error in muted)
    followups.deliver()
    assert len(slack.posted) == 1  # recorded as not posted: not tried again
    assert store.set_muted(iid, "C1", "1.000", "U2", False) is True
    _alerts(store, watch, [":turtle: slower again"])
    followups.deliver()
    assert [m["text"] for m in slack.posted] == [":turtle: elsewhere", ":turtle: slower again"]
    assert [(a["action"], a["user_id"]) for a in store.actions(iid)] == [("mute", "U1"), ("unmute", "U2")]


# -- /metrics ---------------------------------------------------------------------------------------------


def test_per_signature_counters_come_from_the_database_with_bounded_labels(tmp_path, oom_report):
    store = Store(tmp_path / "d.db")
    iid = _incident(store, oom_report, 1)
    store.record_feedback(iid, "U1", "useful")
    _incident(store, oom_report, 2)
    store.db.execute("UPDATE incidents SET signature = 'site.gone_since' WHERE id = 2")  # no longer in the library
    metrics = Metrics()
    metrics.track_signatures(lambda: feedback.records(store), signatures.default_library().by_id())
    samples = {
        (s.name, s.labels.get("signature")): s.value
        for f in text_string_to_metric_families(metrics.render().decode())
        for s in f.samples
    }
    assert samples[("denpex_signature_fired_total", "cuda.out_of_memory")] == 1
    assert samples[("denpex_signature_confirmed_total", "cuda.out_of_memory")] == 1
    assert samples[("denpex_signature_rejected_total", "cuda.out_of_memory")] == 0
    assert samples[("denpex_signature_fired_total", "other")] == 1
    assert not [k for k in samples if k[1] == "site.gone_since"]


def test_a_scrape_answers_when_the_database_does_not():
    def broken() -> list[feedback.SignatureRecord]:
        raise sqlite3.OperationalError("database is locked")

    metrics = Metrics()
    metrics.track_signatures(broken, ["cuda.out_of_memory"])
    text = metrics.render().decode()
    assert "denpex_signature_fired" in text and "cuda.out_of_memory" not in text


# -- buttons and modals ----------------------------------------------------------------------------------


def _button_ids(blocks: list[dict]) -> list[str]:
    return [el["action_id"] for b in blocks if b["type"] == "actions" for el in b["elements"] if el["type"] == "button"]


def test_which_buttons_an_answer_carries(oom_report):
    plain = _button_ids(diagnosis_message(oom_report, MessageState(1, "x"))[1])
    assert USEFUL in plain and MUTE in plain and DRAFT not in plain and UNMUTE not in plain
    disputed = MessageState(1, "x", not_this=[("U1", "t")], muted=("U2", "t"))
    buttons = _button_ids(diagnosis_message(oom_report, disputed)[1])
    assert DRAFT in buttons and UNMUTE in buttons and MUTE not in buttons
    unrecognised = signatures.diagnose_sources(
        [signatures.source_from_bytes("x.log", b"[rank2]: step 3 loss 2.0\n[rank2]: ERROR frobnicator jammed\n")],
        signatures.default_matcher(),
    )
    assert unrecognised.outcome == "unrecognised"
    text, blocks = diagnosis_message(unrecognised, MessageState(1, "x"))
    assert problems(blocks, text) == [] and "Draft a signature" in text + str(blocks)
    assert DRAFT in _button_ids(blocks) and USEFUL not in _button_ids(blocks)


def test_the_modals_are_valid_block_kit_and_keep_lines_server_side(oom_report):
    classes = [(key, c.family) for key, c in signatures.default_library().taxonomy.items()]
    assert validate_view(not_this_modal(7, classes), expect_type="modal") == []
    lines = [f"[rank{i}]: ValueError: record {i} " + "x" * 200 for i in range(150)]
    view = draft_modal(7, lines[:DRAFT_OPTIONS], classes, "cuda_oom")
    assert validate_view(view, expect_type="modal") == []
    select = view["blocks"][1]["element"]
    assert len(select["options"]) == 100 and all(len(o["text"]["text"]) <= OPTION_TEXT for o in select["options"])
    assert select["initial_option"]["value"] == "0"
    assert view["blocks"][2]["element"]["initial_option"]["value"] == "cuda_oom"
    found = draft_lines(oom_report)
    assert found[0] == oom_report.diagnoses[0].first_seen.text and len(found) == len(set(found))


def test_a_draft_that_fails_the_checks_says_so():
    text = draft_posted("U1", "site.draft.x", "site.draft.x.toml", [], ["case 0 (match): did not match"])
    assert "fails the library's checks" in text and "did not match" in text
    ok = draft_posted("U1", "site.draft.x", "site.draft.x.toml", ["/srv/sigs"], [])
    assert "cp site.draft.x.toml /srv/sigs/" in ok and "denpex signatures test site.draft.x" in ok


# -- the CLI and the config ------------------------------------------------------------------------------


def test_stats_and_lint_need_a_database(tmp_path):
    missing = run_denpex("signatures", "stats", "--db", str(tmp_path / "absent.db"))
    assert missing.returncode == 2 and b"no such database" in missing.stderr
    lint = run_denpex("signatures", "lint", "--feedback", str(tmp_path / "absent.db"))
    assert lint.returncode == 2
    Store(tmp_path / "empty.db")
    empty = run_denpex("signatures", "stats", "--db", str(tmp_path / "empty.db"))
    assert empty.returncode == 0 and b"No incident" in empty.stdout


@pytest.mark.parametrize("body", ["min_precision = 1.5", "min_votes = 0"])
def test_the_bar_is_validated(tmp_path, body):
    path = tmp_path / "denpex.toml"
    path.write_text(f"[signatures]\n{body}\n")
    with pytest.raises(ConfigError, match=body.split()[0]):
        load_config(path)


def test_the_example_documents_the_bar():
    example = (ROOT / "config" / "denpex.example.toml").read_text()
    assert "min_precision = 0.5" in example and "min_votes = 5" in example
    assert load_config(ROOT / "config" / "denpex.example.toml").signatures.min_precision == 0.5
