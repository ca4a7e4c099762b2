"""A failed run against a good run of the same program (issue 14, item 3), on a real pair made by
tests/corpus/pairs/gen/gen.sh: torchrun, 2 ranks, gloo; the failed run's rank 1 reads a corrupt record."""

import gzip
import json
import random

from conftest import CORPUS, run_denpex

from signatures import compare_with_baseline, diagnose, open_sources, render_text
from signatures._baseline import BLOOM_BYTES, Baseline, Bloom, mask

PAIRS = CORPUS / "pairs"


def test_the_failed_run_shows_what_the_good_run_never_printed():
    diff = Baseline(open_sources([str(PAIRS / "good.log")])).compare(open_sources([str(PAIRS / "bad.log")]))
    texts = [n.text for n in diff.new]
    first = diff.new[0]
    assert (first.rank, first.text) == (1, "[rank1]: Traceback (most recent call last):")
    assert "[rank1]: ValueError: invalid literal for int() with base 10: '\\x00\\x00<corrupt>'" in texts
    assert any(n.rank == 0 and "Connection closed by peer" in n.text for n in diff.new)
    # what both runs print, with other numbers, run ids, pids and times, is not news
    assert not [t for t in texts if " loss " in t or "run dir" in t or "saved checkpoint" in t]
    # frames and their code are context, not news; rank 0's traceback header is rank 1's again
    assert not [t for t in texts if 'File "' in t or t.strip(" ^").endswith("^")]
    assert sum(1 for t in texts if "Traceback (most recent call last)" in t and t.startswith("[rank")) == 1
    assert diff.good_lines == 21 and diff.new_total >= len(diff.new)


def test_two_good_runs_of_the_same_program_differ_in_nothing():
    diff = Baseline(open_sources([str(PAIRS / "good.log")])).compare(open_sources([str(PAIRS / "good2.log")]))
    assert (diff.new, diff.new_total) == ([], 0)
    assert (PAIRS / "good.log").read_text() != (PAIRS / "good2.log").read_text()  # other times, ids, ports


def test_the_report_carries_it_and_the_text_shows_it():
    bad = [str(PAIRS / "bad.log")]
    report = compare_with_baseline(diagnose(bad), [str(PAIRS / "good.log")], bad)
    data = report.to_json()
    assert data["baseline"]["good"] == [str(PAIRS / "good.log")]
    assert data["baseline"]["new"][1]["line"] == 26
    text = render_text(report)
    assert "New since the good run" in text and "bad.log:26" in text
    # the diagnosis (corrupt text reaching the script's tokenize(): a data error) comes first, the diff after it
    assert text.index("the input pipeline failed") < text.index("New since the good run")


def test_an_unrecognised_failure_leads_with_the_diff(tmp_path):
    good = tmp_path / "good.log"
    bad = tmp_path / "bad.log"
    lines = [f"2026-11-30 12:00:{i % 60:02d},000 INFO [train] step {i} loss {2 - i / 1000:.3f}" for i in range(200)]
    good.write_text("\n".join(lines) + "\n")
    bad.write_text("\n".join(lines[:120] + ["frobnicator: fatal: gave up after 7 tries"]) + "\n")
    report = compare_with_baseline(diagnose([str(bad)]), [str(good)], [str(bad)])
    assert report.outcome == "unrecognised"
    text = render_text(report)
    assert text.startswith("± New since the good run")
    assert "bad.log:121" in text.splitlines()[1]


def test_masking_takes_off_what_differs_between_runs():
    a = "[rank3]: 2026-11-30 12:00:01,123 INFO saved /ckpt/run_8f3a2b/step_3000.pt on gpu-node-07 (0x7f3a, 41.2 s)"
    b = "[rank5]: 2026-12-01 09:13:44,001 INFO saved /ckpt/run_77aa01/step_3100.pt on gpu-node-12 (0x11, 38 s)"
    assert mask(a) == mask(b)
    assert mask("ValueError: bad record") != mask("KeyError: bad record")


def test_the_good_run_costs_fixed_memory_whatever_its_size(tmp_path):
    """A good run of 300,000 distinct messages: the filter stays BLOOM_BYTES, and none of them is news."""
    rng = random.Random(1)
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa"]
    msgs = [" ".join(rng.choice(words) for _ in range(7)) for _ in range(300_000)]
    good = tmp_path / "good.log.gz"
    with gzip.open(good, "wt") as fh:
        fh.write("\n".join(msgs) + "\n")
    base = Baseline(open_sources([str(good)]))
    assert len(base.seen.bits) == BLOOM_BYTES and base.lines == 300_000
    failed = tmp_path / "failed.log"
    failed.write_text("\n".join(msgs[:5000] + ["iota kappa the one new line"]) + "\n")
    diff = base.compare(open_sources([str(failed)]))
    assert [n.text for n in diff.new] == ["iota kappa the one new line"]


def test_a_bloom_filter_never_forgets():
    bloom = Bloom(1 << 12)
    seen = [f"line {i} {i * 7}" for i in range(2000)]
    for s in seen:
        bloom.add(s)
    assert all(s in bloom for s in seen)
    false = sum(1 for i in range(2000) if f"other {i}" in bloom)
    assert false < 400  # 32k bits, 2000 entries, 4 hashes: about 1.5% expected


def test_the_cli_takes_a_baseline(tmp_path):
    good, bad = str(PAIRS / "good.log"), str(PAIRS / "bad.log")
    run = run_denpex("diagnose", "--json", "--baseline", good, bad)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["baseline"]["good"] == [good] and data["baseline"]["new"][1]["rank"] == 1
    text = run_denpex("diagnose", "--baseline", good, bad).stdout.decode()
    assert "New since the good run" in text
    missing = run_denpex("diagnose", "--baseline", str(tmp_path / "nope.log"), bad)
    assert missing.returncode == 2 and b"--baseline" in missing.stderr and b"nope.log" in missing.stderr
    piped = run_denpex("diagnose", "--baseline", good, "-", stdin=(PAIRS / "bad.log").read_bytes())
    assert piped.returncode == 2 and b"stdin" in piped.stderr


def test_the_slack_answer_shows_it_after_the_evidence_and_first_when_nothing_explains_the_failure(tmp_path):
    from fake_slack.blockkit import validate_blocks

    from bot.blockkit import problems
    from bot.render import MessageState, details_message, diagnosis_message

    bad = [str(PAIRS / "bad.log")]
    report = compare_with_baseline(diagnose(bad), [str(PAIRS / "good.log")], bad)
    assert report.top is not None and report.baseline is not None
    details = details_message(report, MessageState(1, "bad.log"))  # a diagnosis's evidence is in its thread
    assert details is not None
    _, blocks = details
    texts = [b.get("text", {}).get("text", "") for b in blocks]
    shown = next(i for i, t in enumerate(texts) if t.startswith("*New since the good run*"))
    assert shown > next(i for i, t in enumerate(texts) if t.startswith("*Evidence*"))
    assert report.baseline.new[0].text[:40] in texts[shown]
    assert problems(blocks) == [] and validate_blocks(blocks) == []

    log = tmp_path / "odd.log"  # an error no signature knows, next to the good run's lines
    log.write_text(
        (PAIRS / "good.log").read_text() + "ERROR quota-service: write refused for bucket team-ckpt (code 17)\n"
    )
    report = compare_with_baseline(diagnose([str(log)]), [str(PAIRS / "good.log")], [str(log)])
    assert report.outcome == "unrecognised"
    _, blocks = diagnosis_message(report, MessageState(2, "odd.log"))
    assert (
        blocks[2]["text"]["text"].startswith("*New since the good run*")  # under the header and the state line
        and "quota-service" in blocks[2]["text"]["text"]
    )
