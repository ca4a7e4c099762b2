"""The timeline picture: its data from real multi-rank runs, its caption, bands for 1,000 ranks, the PNG, the CLI
flag and the upload into the incident's thread (its speed is bench/timeline.py's)."""

from __future__ import annotations

import dataclasses
import io
import logging
import random

import pytest
import test_slack_e2e
from conftest import CORPUS, ROOT, run_denpex
from PIL import Image, PngImagePlugin
from slack_sdk.errors import SlackApiError
from test_slack_e2e import CHANNEL, EXAMPLE, diagnosed

import signatures
from bot import timeline
from bot.responder import post_timeline

# The end-to-end fixtures, by name: pytest finds a module's fixtures among its globals (tests take them as arguments)
fake, bot, driver = test_slack_e2e.fake, test_slack_e2e.bot, test_slack_e2e.driver

RUNS = CORPUS / "blind_r9" / "runs"
CAPTIONS = {  # real runs of two to eight ranks, and what their picture says
    EXAMPLE: "rank 3: CUDA out of memory at 12:10:05 → 7 ranks: NCCL watchdog 10 min later",
    RUNS / "008_cgroup_oom_rank1": "rank 1: Linux OOM killer killed a process at 16:18:18 → 2 ranks stopped by the "
    "launcher 1s later",
    RUNS / "003_warmup_nan": "all ranks alike: Training loss diverged at 16:03:39 → 3 ranks exited 2s later",
    RUNS / "017_slurm_timelimit": "the job: Slurm cancelled the job at its time limit at 16:26:02 → 2 ranks: A "
    "training process reports that it received SIGTERM right after",
    CORPUS / "blind_r7" / "runs" / "005_twonode_straggler": "rank 3 went silent → 3 ranks: Gloo timed out waiting "
    "for a send or receive to complete at 15:06:33",
}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def timeline_of(path, matcher) -> signatures.Timeline:
    tl = signatures.diagnose([str(path)], matcher=matcher).timeline
    assert tl is not None
    return tl


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which a PNG must open with."""
    assert png[:8] == PNG_SIGNATURE and png[12:16] == b"IHDR"
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def png_title(png: bytes) -> str:
    """The caption the picture carries as its PNG title."""
    image = Image.open(io.BytesIO(png))
    assert isinstance(image, PngImagePlugin.PngImageFile)
    return image.text["Title"]


@pytest.mark.parametrize("path", list(CAPTIONS), ids=lambda p: p.name)
def test_the_caption_says_who_started_it_and_who_followed(path, matcher):
    assert signatures.timeline_caption(timeline_of(path, matcher)) == CAPTIONS[path]


def test_every_rank_of_the_example_in_time(matcher):
    tl = timeline_of(EXAMPLE, matcher)
    assert [r.rank for r in tl.rows] == list(range(8))
    assert {r.host for r in tl.rows} == {"gpu-node-00", "gpu-node-01"}
    oom = tl.rows[3]
    assert [(m.kind, m.signature) for m in oom.marks] == [("initiating", "cuda.out_of_memory")]
    assert oom.step == 1800 and tl.initiating == oom.marks[0] and tl.initiating_rank == 3
    for row in tl.rows[:3] + tl.rows[4:]:
        assert row.step == 1795 and {m.kind for m in row.marks} == {"collateral"}
        assert row.marks[0].time - tl.initiating.time == pytest.approx(600, abs=1)
    assert tl.rows[0].exit and (tl.rows[0].exit.code, tl.rows[0].exit.signal) == ("-6", "SIGABRT")
    assert tl.knock_on[0] == "nccl.watchdog_collective_timeout"


def test_the_timeline_stays_out_of_the_json(matcher):
    report = signatures.diagnose([str(EXAMPLE)], matcher=matcher)
    assert report.timeline is not None and "timeline" not in report.to_json()
    assert report.model_copy(update={"notes": ["n"]}).timeline == report.timeline  # the bot's copies keep it


@pytest.mark.parametrize(
    "path",
    [
        RUNS / "005_ckpt_read_early",  # the line where it started has no time
        RUNS / "016_emfile_rank1",  # one rank with times
        CORPUS / "024_healthy.log",  # nothing diagnosed
    ],
    ids=lambda p: p.name,
)
def test_no_picture_without_two_ranks_in_time(path, matcher):
    assert signatures.diagnose([str(path)], matcher=matcher).timeline is None


@pytest.mark.parametrize("path", list(CAPTIONS), ids=lambda p: p.name)
def test_the_picture_is_a_png_of_the_size_with_the_caption(path, matcher):
    tl = timeline_of(path, matcher)
    png = timeline.render(tl)
    assert png_size(png) == (timeline.WIDTH, timeline.HEIGHT) == (1200, 600)
    assert len(png) < 150_000
    Image.open(io.BytesIO(png)).verify()  # every chunk's CRC
    assert png_title(png) == signatures.timeline_caption(tl)


def thousand_ranks(matcher) -> signatures.Timeline:
    """The example's 8 ranks as 1,000 on 125 hosts: every rank as the one it stands for (ranks 0-7 repeating, each
    second one a second apart), rank 3 the one OOM; rank 700 never timed out, ranks 600 and 601 four minutes late."""
    tl = timeline_of(EXAMPLE, matcher)
    rng = random.Random(7)
    rows = []
    for rank in range(1000):
        like = tl.rows[rank % 8 if rank % 8 != 3 or rank == 3 else 1]
        late = 240 if rank in (600, 601) else rng.uniform(-0.5, 0.5)
        marks = () if rank == 700 else tuple(dataclasses.replace(m, time=m.time + late) for m in like.marks)
        if rank == 3:
            marks = like.marks
        rows.append(
            dataclasses.replace(
                like, rank=rank, host=f"gpu-node-{rank // 8:03d}", marks=marks, exit=like.exit if rank == 0 else None
            )
        )
    return dataclasses.replace(tl, rows=tuple(rows))


def test_a_thousand_ranks_collapse_into_bands_the_odd_ranks_keep_their_rows(matcher):
    tl = thousand_ranks(matcher)
    bands = timeline.layout(tl)
    assert len(bands) <= timeline.MAX_ROWS
    assert [b.label for b in bands] == ["rank 0", "995 ranks in 1-999", "rank 3", "ranks 600-601 (2)", "rank 700"]
    everyone = sorted(r for b in bands for r in b.ranks)
    assert everyone == list(range(1000))  # every rank is in exactly one row
    assert bands[1].hosts[:2] == ["gpu-node-000", "gpu-node-001"] and len(bands[1].hosts) == 125
    assert signatures.timeline_caption(tl).endswith("→ 998 ranks: NCCL watchdog 10 min later")
    assert png_size(timeline.render(tl)) == (1200, 600)


def test_few_ranks_each_have_a_row_grouped_by_host(matcher):
    tl = timeline_of(CORPUS / "blind_r7" / "runs" / "005_twonode_straggler", matcher)
    assert [(b.label, b.hosts) for b in timeline.layout(tl)] == [
        ("rank 2", ["node0"]),
        ("rank 3", ["node0"]),
        ("rank 0", ["node1"]),
        ("rank 1", ["node1"]),
    ]


def test_denpex_diagnose_timeline_writes_the_png(tmp_path):
    out = tmp_path / "failure.png"
    done = run_denpex("diagnose", "--json", "--timeline", str(out), str(EXAMPLE))
    assert done.returncode == 0 and done.stdout.startswith(b"{")  # stdout is still only the JSON
    assert f"timeline written to {out}".encode() in done.stderr
    assert png_size(out.read_bytes()) == (1200, 600)


def test_denpex_diagnose_says_why_there_is_no_picture(tmp_path):
    out = tmp_path / "none.png"
    done = run_denpex("diagnose", "--exit-code", "--timeline", str(out), str(RUNS / "016_emfile_rank1"))
    assert done.returncode == 1  # the diagnosis's, as without --timeline
    assert b"no timeline drawn: it needs at least two ranks that reported something with a time" in done.stderr
    assert not out.exists()
    nowhere = run_denpex("diagnose", "--timeline", str(tmp_path / "no" / "such" / "dir.png"), str(EXAMPLE))
    assert nowhere.returncode == 2 and b"there is no directory" in nowhere.stderr


class Uploads:
    """A WebClient that records uploads, or refuses them."""

    def __init__(self, refuse: bool = False):
        self.refuse = refuse
        self.calls: list[dict] = []

    def files_upload_v2(self, **kwargs):
        if self.refuse:
            raise SlackApiError("refused", {"ok": False, "error": "not_in_channel"})
        self.calls.append(kwargs)


def test_an_upload_that_fails_is_logged_and_nothing_else(matcher, caplog):
    with caplog.at_level(logging.ERROR, logger="denpex.bot"):
        post_timeline(Uploads(refuse=True), timeline_of(EXAMPLE, matcher), "C1", "1.2", 7, "job.tar.gz")  # type: ignore[arg-type]
    assert "the timeline of incident 7 was not posted" in caplog.text


def test_the_file_title_is_masked(matcher):
    client = Uploads()
    post_timeline(client, timeline_of(EXAMPLE, matcher), "C1", "1.2", 7, "logs-xoxb-123456789012-abcdefabcdef.tar.gz")  # type: ignore[arg-type]
    (upload,) = client.calls
    assert "xoxb-123456789012" not in upload["title"] and upload["title"].startswith("Timeline of logs-")
    assert upload["filename"] == "denpex-timeline-7.png" and upload["thread_ts"] == "1.2"
    assert upload["alt_txt"].startswith("rank 3: CUDA out of memory")


def test_the_picture_is_posted_in_the_incident_thread_under_the_diagnosis(fake, driver):
    file = fake.add_file(CHANNEL, "job_812345.tar.gz", EXAMPLE.read_bytes())
    share_ts = file["shares"]["public"][CHANNEL][0]["ts"]
    driver.file_upload_events(file)
    answer = diagnosed(fake)
    assert answer["thread_ts"] == share_ts
    (complete,) = fake.wait_for_call("files.completeUploadExternal", timeout=30)
    assert complete.args["channel_id"] == CHANNEL and complete.args["thread_ts"] == share_ts
    (picture,) = [f for f in fake.files() if f["name"].startswith("denpex-timeline-")]
    assert picture["title"] == "Timeline of job_812345.tar.gz"
    png = fake.file_content(picture["id"])
    assert png_size(png) == (1200, 600)
    assert png_title(png).startswith("rank 3: CUDA out of memory at 12:10:05")
    shared = [m for m in fake.thread(CHANNEL, share_ts) if m.get("upload") and m.get("bot_id")]
    assert len(shared) == 1 and float(shared[0]["ts"]) > float(answer["ts"])  # under the diagnosis


def test_the_readme_shows_the_picture():
    readme = (ROOT / "README.md").read_text()
    pictures = [p for p in (ROOT / "docs").glob("timeline*.png") if p.name in readme]
    assert pictures and all(png_size(p.read_bytes()) == (1200, 600) and p.stat().st_size < 150_000 for p in pictures)
