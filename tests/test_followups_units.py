"""Follow-up verdicts and durations, without a scheduler."""

import time
from datetime import datetime
from typing import cast

import pytest
from conftest import RULES_LIBRARY as RULES
from slack_sdk import WebClient

import signatures
from bot.config import Config, seconds
from bot.fetch.base import JobFacts
from bot.followups import BACK, GONE, INCONCLUSIVE, NOT_YET, durations, judge, runtime_seconds
from bot.metrics import Metrics
from signatures._sources import source_from_bytes

LIBRARY = signatures.default_library()

OOM = "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
SAVED = (
    "[2026-11-30 11:00:01,000] [INFO] [engine.py:3500:_save_checkpoint] [Rank 0] Saving checkpoint...\n"
    "[2026-11-30 11:00:09,000] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] Checkpoint global_step500 "
    "is ready now!\n"
)
# a save that starts and never completes, in a log where saves are seen completing
HANG = SAVED + (
    "[2026-11-30 12:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=1000, skipped=0, lr=[0.0001]\n"
    "[2026-11-30 12:00:01,000] [INFO] [engine.py:3500:_save_checkpoint] [Rank 0] Saving checkpoint...\n"
)


def report(text: str, elapsed: str | None = None) -> signatures.Report:
    r = signatures.diagnose_sources([source_from_bytes("x.log", text.encode())])
    if elapsed:
        job = signatures.JobInfo(
            cluster="hpc", kind="slurm", reference="hpc/1", elapsed=elapsed, summary="", logs=[], notes=[]
        )
        r = r.model_copy(update={"job": job})
    return r


@pytest.mark.parametrize(
    "rerun,facts,expected",
    [
        (OOM, JobFacts("2", state="FAILED", exit_code="1:0"), BACK),
        ("step 1 loss 1.0\n", JobFacts("2", state="COMPLETED", exit_code="0:0"), GONE),
        ("step 1 loss 1.0\n", JobFacts("2", state="RUNNING", elapsed="00:01:00"), NOT_YET),
        ("step 900 loss 1.0\n", JobFacts("2", state="RUNNING", elapsed="01:00:00"), GONE),  # ran past the failure point
        ("[rank0]: OSError: [Errno 28] No space left on device\n", JobFacts("2", state="FAILED"), INCONCLUSIVE),
        ("step 1\n", JobFacts("2", state="CANCELLED"), INCONCLUSIVE),
    ],
)
def test_verdicts(rerun, facts, expected):
    assert judge(report(OOM, elapsed="00:10:00"), report(rerun), facts, LIBRARY).verdict == expected


def test_a_hang_is_only_cleared_by_a_completed_save():
    original = report(HANG, elapsed="00:10:00")
    assert original.diagnoses[0].class_ == "checkpoint_writer_hang"
    long_running = report("step 5000 loss 1.0\n")
    assert judge(original, long_running, JobFacts("2", state="RUNNING", elapsed="05:00:00"), LIBRARY).verdict == NOT_YET
    saved = report(
        HANG + "[2026-11-30 12:05:00,000] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] "
        "Checkpoint global_step1000 is ready now!\nstep=1001 loss 1.0\n"
    )
    assert saved.stats.completed == {"checkpoint.save_never_completed": 2}
    assert judge(original, saved, JobFacts("2", state="RUNNING", elapsed="00:06:00"), LIBRARY).verdict == GONE
    assert judge(original, report(HANG), JobFacts("2", state="RUNNING"), LIBRARY).verdict == BACK


def test_durations_precedence():
    sig = signatures.default_library().get("checkpoint.save_never_completed")
    assert durations(Config(), None) == (600, 600, 86400)
    config = Config.model_validate({"followups": {"first_check": "30s", "interval": "1m", "window": "2h"}})
    assert durations(config, sig) == (30, 60, 7200)
    assert seconds("1.5h") == 5400


@pytest.mark.parametrize("value,secs", [("00:12:31", 751), ("1-02:00:00", 93600), ("12:31", 751), ("bad", None)])
def test_slurm_runtimes(value, secs):
    assert runtime_seconds(value) == secs


def test_signatures_bring_their_own_defaults():
    hang = signatures.default_library().get("checkpoint.save_never_completed")
    oom = signatures.default_library().get("cuda.out_of_memory")
    assert durations(Config(), hang) == (1800, 1800, 172800)  # a hang is watched for two days
    assert durations(Config(), oom) == (300, 300, 21600)


def test_a_site_signatures_incident_is_rechecked_with_that_signature(tmp_path):
    """Follow-ups use the bot's matcher (bundled library plus [signatures] extra_dirs) and that signature's
    own durations; they used to fall back to the bundled library and its defaults."""
    from bot.followups import FollowUps
    from bot.store import Store

    site = tmp_path / "site"
    site.mkdir()
    text = (RULES / "test.boom.toml").read_text().replace('id = "test.boom"', 'id = "site.boom"')
    (site / "site.boom.toml").write_text(
        text.replace("priority = 50", 'priority = 50\nfollowup_interval = "7m"\nfollowup_window = "3h"')
    )
    matcher = signatures.Matcher(signatures.load_library([signatures.LIBRARY_DIR, site]))
    report = signatures.diagnose_sources([source_from_bytes("x.log", b"BoomError: bang\n")], matcher)
    assert report.diagnoses[0].signature == "site.boom"
    store = Store(tmp_path / "d.db")
    incident = store.open_incident("C1", "1.0", None, "x.log", "fp", report, "U1", "hpc/1")
    # schedule() posts nothing: no Slack client
    followups = FollowUps(Config(), store, None, matcher, Metrics())  # type: ignore[arg-type]
    _, first, interval, window = followups.schedule(incident, "hpc/2", "U1", "")
    assert (interval, window) == (7 * 60, 3 * 3600)
    assert "site.boom" not in signatures.default_library().by_id()  # the bundled library alone does not know it


class _Slack:
    """Records posts; answers conversations.replies from what was posted as Slack would: text with &, < and >
    escaped, oldest first, `oldest` honoured, `limit` per page with a cursor."""

    def __init__(self, start: float | None = None):
        self.posted: list[dict] = []
        self.start = time.time() if start is None else start  # the first post's ts

    def chat_postMessage(self, **kw):
        text = kw["text"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        ts = f"{self.start + len(self.posted) + 1:.6f}"
        self.posted.append({**kw, "text": text, "ts": ts, "bot_id": "B1"})
        return {"ts": ts}

    def conversations_replies(self, channel, ts, limit, oldest=None, cursor=None):
        found = [m for m in self.posted if m.get("thread_ts") == ts and float(m["ts"]) >= float(oldest or 0)]
        at = int(cursor or 0)
        more = at + limit < len(found)
        return {
            "messages": found[at : at + limit],
            "response_metadata": {"next_cursor": str(at + limit) if more else ""},
        }

    def client(self) -> WebClient:
        """This fake where FollowUps takes a WebClient: it calls only the two methods above."""
        return cast(WebClient, self)


def _outbox_row(tmp_path):
    from bot.store import Store

    store = Store(tmp_path / "d.db")
    incident = store.open_incident("C1", "1.0", None, "x.log", "fp", report("step 1\n"), "U1", "hpc/1")
    fid = store.schedule_followup(incident, "hpc/2", "U1", "", 0.0, 60, 10**10)
    assert store.claim_followup(fid, "me", 1.0, 60)
    outbox = store.record_check(fid, "me", "gone", "fine", None, None, ("C1", "1.0", ":white_check_mark: Gone"))
    return store, outbox


def test_an_outcome_recorded_but_never_posted_is_posted_once_by_the_next_process(tmp_path):
    from bot.followups import FollowUps

    store, outbox = _outbox_row(tmp_path)  # the process died here: committed, not posted
    slack = _Slack()
    later = FollowUps(Config(), store, slack.client(), signatures.default_matcher(), Metrics())
    later.deliver()
    later.deliver()
    assert [m["text"] for m in slack.posted] == [":white_check_mark: Gone"]


def test_a_delivery_that_reached_slack_before_its_process_died_is_not_posted_again(tmp_path):
    from bot.followups import FollowUps

    store, outbox = _outbox_row(tmp_path)
    slack = _Slack()
    first = FollowUps(Config(), store, slack.client(), signatures.default_matcher(), Metrics())
    assert store.claim_outbox(first.owner, -1, outbox)  # claimed with a lease that is already over...
    slack.chat_postMessage(channel="C1", thread_ts="1.0", text=":white_check_mark: Gone")  # ...and posted: then died
    FollowUps(Config(), store, slack.client(), signatures.default_matcher(), Metrics()).deliver()
    assert len(slack.posted) == 1


def test_an_earlier_attempt_is_found_past_the_first_page_and_with_slacks_escaping(tmp_path):
    from bot.followups import FollowUps

    store, outbox = _outbox_row(tmp_path)
    row = store.db.execute("SELECT created_at FROM outbox WHERE id = ?", [outbox]).fetchone()
    created = datetime.fromisoformat(row[0].replace("Z", "+00:00")).timestamp()
    text = ":white_check_mark: Gone: `grep -c OOM <log>` & co"
    store.db.execute("UPDATE outbox SET text = ? WHERE id = ?", [text, outbox])
    slack = _Slack(start=created - 500)  # a busy thread: 450 replies, the last 250 of them after the row was written
    for i in range(450):
        slack.chat_postMessage(channel="C1", thread_ts="1.0", text=f"reply {i}")
    first = FollowUps(Config(), store, slack.client(), signatures.default_matcher(), Metrics())
    assert store.claim_outbox(first.owner, -1, outbox)
    slack.chat_postMessage(channel="C1", thread_ts="1.0", text=text)  # posted, stored escaped; then the process died
    FollowUps(Config(), store, slack.client(), signatures.default_matcher(), Metrics()).deliver()
    assert len(slack.posted) == 451  # found on the second page of what came after the row, and not posted again


def steps(first: int, last: int, tail: str = "") -> str:
    return "".join(f"step {s} loss {3 - s / 1000:.3f}\n" for s in range(first, last + 1)) + tail


@pytest.mark.parametrize(
    "rerun,facts,expected,detail",
    [
        # still running, not yet past the step where the original failed: not yet, whatever the time it ran
        (steps(1, 150), JobFacts("2", state="RUNNING", elapsed="09:00:00"), NOT_YET, "at step 150"),
        # past it, still running, and the OOM did not come back: gone
        (steps(1, 250), JobFacts("2", state="RUNNING", elapsed="00:01:00"), GONE, "reached step 250, past step 200"),
        # past it, and the OOM came back later: back
        (steps(1, 250, OOM), JobFacts("2", state="FAILED", exit_code="1:0"), BACK, "fired again"),
        # ended before the point, another way: proves nothing
        (steps(1, 50), JobFacts("2", state="CANCELLED"), INCONCLUSIVE, "before the point"),
        # ended short of the step after running longer than the original: still proves nothing
        (steps(1, 150), JobFacts("2", state="TIMEOUT", elapsed="05:00:00"), INCONCLUSIVE, "before the point"),
    ],
)
def test_verdicts_judge_the_reruns_progress_not_its_state(rerun, facts, expected, detail):
    original = report(steps(1, 200, OOM), elapsed="00:10:00")
    assert original.stats.last_step == 200
    verdict = judge(original, report(rerun), facts, LIBRARY)
    assert verdict.verdict == expected and detail in verdict.detail, verdict.detail


@pytest.mark.parametrize(
    "rerun,finished,expected,detail",
    [
        # a `paths` cluster has no scheduler state: the log says it finished
        (steps(1, 50, "training complete\n"), "training complete", GONE, "says training finished"),
        # or it trained past the step where the original failed
        (steps(1, 250), None, GONE, "past step 200"),
        # short of it, and no state to say it ended: still being written, not inconclusive
        (steps(1, 150), None, NOT_YET, "at step 150"),
        # the signature fired again
        (steps(1, 50, OOM), None, BACK, "fired again"),
    ],
)
def test_a_rerun_with_no_scheduler_state_is_judged_by_its_log(rerun, finished, expected, detail):
    original = report(steps(1, 200, OOM))
    verdict = judge(original, report(rerun), JobFacts("2"), LIBRARY, finished)
    assert verdict.verdict == expected and detail in verdict.detail, verdict.detail


def test_a_log_with_nothing_to_compare_is_not_yet_judged():
    verdict = judge(report(OOM), report("all good here\n"), JobFacts("2"), LIBRARY)
    assert verdict.verdict == NOT_YET and "no scheduler state" in verdict.detail
