"""The answer's first screen fits its budget on every answer the corpus produces, and every message keeps to
Slack's limits and mrkdwn's rules (issue 16 items 1, 3, 7; issue 15 item 9)."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT
from fake_slack.blockkit import validate_blocks

import signatures
from bot.blockkit import FIRST_SCREEN_BLOCKS, FIRST_SCREEN_CHARS, OPTION_TEXT, problems, visible
from bot.render import (
    MessageState,
    Step,
    asked,
    details_message,
    diagnosis_message,
    evidence_lines,
    fix_bullets,
    launcher_only,
    progress_message,
    status_message,
    timeline_steps,
)

sys.path.insert(0, str(ROOT / "bench"))
from accuracy import report_of, row_inputs


def corpus_runs() -> list[tuple[str, Path, list[str]]]:
    """Every answer the corpus gives: its single logs (labels.jsonl) and the blind sets' whole runs, each as (name,
    where, inputs named relative to where), the blind runs as bench/accuracy.py gives them (the names a user's
    upload would have)."""
    runs = [(row["file"], CORPUS, [row["file"]]) for row in _rows(CORPUS / "labels.jsonl")]
    for blind in sorted(CORPUS.glob("blind_r*")):
        runs += [(f"{blind.name}/{row['run']}", *row_inputs(blind, row)) for row in _rows(blind / "labels.jsonl")]
    return runs


def _rows(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


NOW = time.time()
BUSY = [  # a morning's worth of presses: the state line at its longest
    Step(NOW - 3500, "acknowledged", "U0ALICE01"),
    Step(NOW - 3000, "disputed", "U0BOBBY01"),
    Step(NOW - 2000, "fix", "U0ALICE01", "micro-batch 8 -> 4 and expandable segments on"),
    Step(NOW - 1900, "watching", "U0ALICE01", "hpc-cluster/81240012"),
    Step(NOW - 100, "back", None, "hpc-cluster/81240012"),
]
STATES = {
    "fresh": lambda name: MessageState(1, name, opened_at=NOW - 3600),
    "busy": lambda name: MessageState(
        1, name, opened_at=NOW - 3600, useful=["U1", "U2"], muted=("U3", "t"), steps=BUSY, checked={0, 1}
    ),
}
RUNS = corpus_runs()


@pytest.fixture(scope="module")
def reports(matcher, corpus_reports) -> dict[str, signatures.Report]:
    return {name: report_of(where, inputs, matcher, corpus_reports) for name, where, inputs in RUNS}


def test_the_corpus_gives_answers_of_every_kind(reports):
    assert len(reports) >= 200
    outcomes = {r.outcome for r in reports.values()}
    assert {"diagnosed", "healthy"} <= outcomes


@pytest.mark.parametrize("state", sorted(STATES))
def test_every_first_screen_fits_the_budget(reports, state):
    over = []
    for name, report in reports.items():
        text, blocks = diagnosis_message(report, STATES[state](name))
        shown = visible(blocks)
        if len(blocks) > FIRST_SCREEN_BLOCKS or len(shown) > FIRST_SCREEN_CHARS:
            over.append((name, len(blocks), len(shown)))
        assert problems(blocks, text) == [] and validate_blocks(blocks) == [], name
    assert not over, f"over {FIRST_SCREEN_BLOCKS} blocks or {FIRST_SCREEN_CHARS} visible characters: {over}"


def test_the_first_screen_is_enough_to_act(reports):
    """Header with what and where, the state, the cause and why, the fix, the first error line, the buttons."""
    for name, report in reports.items():
        if report.top is None:
            continue
        _, blocks = diagnosis_message(report, STATES["fresh"](name))
        assert blocks[0]["type"] == "header" and report.top.severity not in blocks[0]["text"]["text"], name
        body = json.dumps(blocks)
        assert "*Cause:*" in body and "*Fix:*" in body and "*First error*" in body, name
        assert any(b["type"] == "actions" for b in blocks), name
        if report.top.initiating_rank is not None:
            assert f"on rank {report.top.initiating_rank}" in blocks[0]["text"]["text"], name


def test_every_reply_in_the_thread_keeps_slacks_limits_and_labels_checkboxes_shortly(reports):
    for name, report in reports.items():
        details = details_message(report, STATES["busy"](name))
        if report.top is None:
            continue
        assert details is not None, name
        text, blocks = details
        assert problems(blocks, text) == [] and validate_blocks(blocks) == [], name
        boxes = [el for b in blocks for el in b.get("elements", []) if el.get("type") == "checkboxes"]
        assert len(boxes) == 1, name  # the checklist once, as checkboxes only
        for option in boxes[0]["options"]:
            assert len(option["text"]["text"]) <= OPTION_TEXT
        shown = " ".join(o["text"]["text"] + o.get("description", {}).get("text", "") for o in boxes[0]["options"])
        assert "1." not in shown[:3]  # no numbered copy of the list
        assert "*Confirm it*" in json.dumps(blocks) and "Ticked:" not in json.dumps(blocks)  # nobody ticked


MARKUP = re.compile(r"<(?:@U[A-Z0-9]+|!date\^\d+\^[^|<>]+\|[^<>]+|https?://[^|<>]+\|[^<>]+)>")


def _raw_brackets(blocks: list[dict]) -> list[str]:
    found = []
    for block in blocks:
        for obj in [block.get("text"), *block.get("fields", []), *block.get("elements", [])]:
            if isinstance(obj, dict) and obj.get("type") == "mrkdwn":
                rest = MARKUP.sub("", obj["text"])
                if re.search(r"[<>]|&(?!amp;|lt;|gt;)", rest):
                    found.append(rest)
    return found


def test_text_from_logs_and_signatures_is_escaped_for_mrkdwn(reports):
    """`grep … <log>`, `in <module>` and `a & b` arrive as written, not as broken links (formatting#escaping)."""
    seen = 0
    for name, report in reports.items():
        for state in STATES.values():
            blocks = diagnosis_message(report, state(name))[1]
            details = details_message(report, state(name))
            for found in (blocks, details[1] if details else []):
                assert _raw_brackets(found) == [], name
                seen += "&lt;" in json.dumps(found)
    assert seen  # the corpus has such lines: the check is not vacuous


def test_no_empty_template_field_and_no_raw_byte_counts(reports):
    for name, report in reports.items():
        for blocks in [diagnosis_message(report, STATES["fresh"](name))[1]]:
            prose = " ".join(
                b["text"]["text"].split("```")[0] for b in blocks if b["type"] == "section" and "text" in b
            )
            assert not re.search(r"\bunknown\b", prose), (name, prose)
            assert not re.search(r"\b\d{7,} bytes\b", prose), (name, prose)


def test_evidence_reads_itself():
    report = signatures.diagnose_sources(
        [
            signatures.source_from_bytes(
                "job.log",
                b"[rank3]: Traceback (most recent call last):\n"
                b'[rank3]:   File "/w/train.py", line 10, in <module>\n'
                b"[rank3]:     main()\n"
                b'[rank3]:   File "/w/train.py", line 8, in main\n'
                b"[rank3]:     loss = model(x).sum()\n"
                b"[rank3]:            ^^^^^^^^\n"
                b"[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a "
                b"total capacity of 79.10 GiB of which 1.06 GiB is free.\n",
            )
        ]
    )
    assert report.top is not None
    lines = evidence_lines(report.top)
    assert lines[0].startswith("cause — rank 3")
    assert not any(set(line.strip()) <= {"^", "~"} for line in lines)  # caret lines stripped
    assert sum("Tried to allocate" in line for line in lines) == 1  # the cause once
    assert not any(line.strip().startswith("[rank3]") for line in lines)  # the rank said in words instead


@pytest.mark.parametrize(
    "fix,count",
    [
        ("Lower the batch. Enable checkpointing. Use bf16. Shard the optimizer. Check nvidia-smi.", 4),
        ("Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; lower the micro-batch size", 2),
    ],
)
def test_the_fix_is_two_to_four_bullets(fix, count):
    assert len(fix_bullets(fix)) == count


def test_commands_in_the_fix_are_code(matcher):
    report = signatures.diagnose([str(ROOT / "examples" / "job_812345.tar.gz")], matcher)
    assert report.top is not None and report.top.signature == "cuda.out_of_memory"
    details = details_message(report, STATES["fresh"]("x"))
    assert details is not None
    thread = json.dumps(details[1])
    assert "`PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`" in thread and "`nvidia-smi`" in thread


def test_the_state_line_is_a_timeline_in_order_with_each_press_once():
    actions = [
        {"action": "acknowledge", "user_id": "U1", "value": "", "at": "2026-11-30T03:12:00Z"},
        {"action": "acknowledge", "user_id": "U1", "value": "", "at": "2026-11-30T03:12:05Z"},  # pressed twice
        {"action": "not_this", "user_id": "U2", "value": "", "at": "2026-11-30T03:20:00Z"},
        {"action": "fix_applied", "user_id": "U1", "value": "local/812400", "at": "2026-11-30T04:00:00Z"},
        {"action": "details", "user_id": "denpex", "value": "1.2", "at": "2026-11-30T03:10:01Z"},
    ]
    followups = [
        {
            "job": "local/812400",
            "requested_by": "U1",
            "status": "done",
            "verdict": "back",
            "created_at": "2026-11-30T04:00:00Z",
            "updated_at": "2026-11-30T05:00:00Z",
        }
    ]
    steps = timeline_steps(actions, followups)
    assert [s.kind for s in steps] == ["acknowledged", "disputed", "watching", "back"]
    report = signatures.diagnose([str(CORPUS / "009_checkpoint_disk_full.log")])
    _, blocks = diagnosis_message(report, MessageState(1, "x", opened_at=NOW, steps=steps))
    header, state = blocks[0]["text"]["text"], blocks[1]["elements"][0]["text"]
    assert "Back:" in header
    assert re.fullmatch(
        r"Open <!date\^\d+\^\{time\}\|[^>]+> → :eyes: Acked by <@U1> <!date[^>]+> → :no_entry_sign: Disputed by "
        r"<@U2> <!date[^>]+> → :mag: Watching rerun `local/812400` <!date[^>]+> → :x: Back <!date[^>]+>",
        state,
    ), state
    assert "denpex_ack" not in json.dumps(blocks)  # the Acknowledge button is replaced by its result


def test_progress_says_only_what_it_knows():
    assert "0 MB" not in progress_message("a.log", 0, None)[0] and "read" not in progress_message("a.log", 0, 0)[0]
    assert "1.0 MB of 2.0 MB read (50%)" in progress_message("a.log", 1_000_000, 2_000_000)[0]


def test_launcher_lines_alone_say_where_the_cause_is():
    only = signatures.Report(
        diagnoses=[],
        unrecognised=[
            signatures.RankLines(
                rank=None,
                lines=[signatures.LogLine(source="l", line=3, text="srun: error: node7: task 3: Exited with code 1")],
            )
        ],
        stats=signatures.Stats(bytes=1, lines=3, ranks=[], hosts=[], sources=1, skipped=[], completed={}, seconds=0.0),
    )
    assert launcher_only(only)
    _, blocks = diagnosis_message(only, MessageState(1, "x"))
    assert "Only the launcher" in json.dumps(blocks) and "--log-dir" in json.dumps(blocks)


def test_a_failed_job_with_silent_logs_says_the_scheduler_failed_it():
    from bot.fetch import JobFacts, JobRef
    from bot.jobs import scheduler_failure

    facts = JobFacts(job_id="812", name="train", state="OUT_OF_MEMORY", exit_code="0:125", nodes=["node3"])
    found = scheduler_failure(JobRef(cluster="c", kind="slurm", job_id="812", raw="812"), facts)
    stats = signatures.Stats(bytes=9, lines=1, ranks=[], hosts=[], sources=1, skipped=[], completed={}, seconds=0.0)
    report = signatures.Report(diagnoses=[], stats=stats, **found)
    assert report.outcome == "unrecognised" and signatures.scheduler_only(report)
    text, blocks = diagnosis_message(report, MessageState(1, "job 812"))
    shown = json.dumps(blocks)
    assert "Failed, says the scheduler" in shown and "OUT_OF_MEMORY" in shown and "`host_oom_killed`" in shown
    assert "sacct -j" in shown and "Draft a signature" not in shown and "No failure found" not in text
    assert not problems(blocks)


def test_status_groups_by_state_links_threads_and_forgets_old_unrecognised_answers():
    day = 86400
    rows = [
        {
            "id": 1,
            "source": "a.log",
            "signature": "cuda.out_of_memory",
            "status": "open",
            "message_ts": "1.2",
            "thread_ts": "1.1",
            "opened_at": "2026-11-30T03:00:00Z",
            "next_check": None,
        },
        {
            "id": 2,
            "source": "b.log",
            "signature": None,
            "status": "unrecognised",
            "message_ts": "2.2",
            "thread_ts": None,
            "opened_at": "2026-11-20T03:00:00Z",
            "next_check": None,
        },
        {
            "id": 3,
            "source": "c.log",
            "signature": "nccl.x",
            "status": "recurred",
            "message_ts": "3.2",
            "thread_ts": None,
            "opened_at": "2026-11-30T02:00:00Z",
            "next_check": None,
        },
        {
            "id": 4,
            "source": "d.log",
            "signature": None,
            "status": "disputed",
            "message_ts": "4.2",
            "thread_ts": None,
            "opened_at": "2026-11-30T02:00:00Z",
            "next_check": None,
        },
    ]
    now = 1796011200.0  # 2026-11-30T04:00Z
    text = status_message(rows, "C1", "https://acme.slack.com/", now, 3 * day)
    assert "#2" not in text and "#4" not in text  # an old unrecognised answer, one someone said is not one
    assert text.index(":x: Back after a fix (1)") < text.index("Open, nobody on it yet (1)")
    assert "<https://acme.slack.com/archives/C1/p12?thread_ts=1.1&amp;cid=C1|#1 cuda.out_of_memory>" in text
    assert "opened <!date^1796007600^{ago}|2026-11-30 03:00 UTC>" in text  # each reader's "1 hour ago"


def test_the_html_renderer_draws_every_answer_as_a_reader_sees_it(reports):
    """tests/blockkit_html.py (bench/screenshots.py photographs its pages): every corpus answer and reply is
    drawn, escaped text shows as written, and no markup is left raw."""
    from blockkit_html import message_html, page

    for name, report in list(reports.items())[:60]:
        parts = [message_html(*diagnosis_message(report, STATES["busy"](name)))]
        details = details_message(report, STATES["busy"](name))
        if details:
            parts.append(message_html(*details, reply=True))
        drawn = page(*parts)
        assert "<!date" not in drawn and "&amp;lt;" not in drawn and "*Cause:*" not in drawn, name
    unrecognised = signatures.diagnose_sources(
        [signatures.source_from_bytes("p.log", b"[rank1]: ERROR grep -c x <log> & more\n")]
    )
    assert "grep -c x &lt;log&gt; &amp; more" in message_html(*diagnosis_message(unrecognised, STATES["fresh"]("p")))


@pytest.mark.parametrize("clusters,job", [(["hpc"], "hpc/812345"), (["a", "b"], None), ([], None)])
def test_the_fix_form_fits_every_incident(clusters, job):
    from fake_slack.blockkit import validate_view

    from bot.render import fix_modal

    view = fix_modal(7, job, clusters)
    assert validate_view(view, expect_type="modal") == []
    inputs = {b["block_id"]: b for b in view["blocks"] if b["type"] == "input"}
    assert inputs["note"]["optional"] is bool(clusters)  # the note is required only when it is all there is
    assert ("rerun" in inputs) is bool(clusters) and inputs.get("rerun", {"optional": True})["optional"]
    assert ("same" in inputs) is bool(job and clusters)


def test_an_unrecognised_answer_with_a_baseline_and_many_ranks_still_fits():
    lines = b"".join(
        b"[rank%d]: ERROR widget %d jammed at station 7 after a very long explanation of what the widget was doing "
        b"when it jammed, with <brackets> & ampersands, repeated for good measure %d\n" % (r, r, i)
        for r in range(8)
        for i in range(3)
    )
    good = b"[rank0]: step 1 loss 2.0\n"
    report = signatures.compare_sources_with_baseline(
        signatures.diagnose_sources([signatures.source_from_bytes("bad.log", lines)]),
        [signatures.source_from_bytes("good.log", good)],
        [signatures.source_from_bytes("bad.log", lines)],
    )
    assert report.outcome == "unrecognised" and report.baseline is not None
    text, blocks = diagnosis_message(report, STATES["busy"]("bad.log"))
    assert len(blocks) <= FIRST_SCREEN_BLOCKS and len(visible(blocks)) <= FIRST_SCREEN_CHARS
    assert "*New since the good run*" in json.dumps(blocks) and problems(blocks, text) == []
    assert details_message(report, STATES["busy"]("bad.log")) is not None  # every rank's lines in the thread


@pytest.mark.parametrize("path", ["/etc/passwd", str(ROOT / "docs" / "architecture.md")])
def test_not_a_training_log_is_said_as_such_with_what_to_send_and_nothing_to_press(matcher, path):
    report = signatures.diagnose([path], matcher)
    assert report.outcome == "not_a_log"
    for state in STATES.values():
        text, blocks = diagnosis_message(report, state("input.txt"))  # a shared file: the answer in its thread
        assert problems(blocks, text) == [] and validate_blocks(blocks) == []
        assert len(blocks) <= FIRST_SCREEN_BLOCKS and len(visible(blocks)) <= FIRST_SCREEN_CHARS
        body = json.dumps(blocks)
        assert "does not look like a training log" in text and "No failure found" not in text + body
        assert "stdout/stderr" in body and "job id" in body
        assert not any(b["type"] == "actions" for b in blocks)  # no Acknowledge, Useful or Not this: nothing claimed
    assert "not a training log" in asked("U1", "a pasted log", report)
