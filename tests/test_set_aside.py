"""A healthy verdict says what it went past: the lines a signature matched that did not stop the run (an exception
its rank trained past, a dead loader worker the trainer logged as a warning), each with why, in the JSON
(`set_aside`), the text report and the Slack answer."""

from __future__ import annotations

from pathlib import Path

from bot.render import healthy_message
from signatures import diagnose, diagnose_sources, render_text, source_from_bytes

R39 = Path(__file__).resolve().parent / "corpus" / "blind_r39" / "runs"
R42 = Path(__file__).resolve().parent / "corpus" / "blind_r42" / "runs"


def _text(text: str, matcher):
    return diagnose_sources([source_from_bytes("train.log", text.encode())], matcher)


def _steps(first: int, last: int) -> str:
    return "".join(f"[rank{r}]: step {s} loss 0.{s:03d}\n" for s in range(first, last) for r in (0, 1))


def test_an_exception_a_rank_trained_past_is_named_with_why(matcher):
    log = (
        _steps(1, 20)
        + "[rank1]: ConnectionResetError: [Errno 104] Connection reset by peer\n"
        + _steps(20, 40)
        + "[rank0]: training finished\n[rank1]: training finished\n"
    )
    report = _text(log, matcher)
    assert report.outcome == "healthy"
    (went_past,) = report.set_aside or []
    assert (went_past.rank, went_past.line, went_past.source) == (1, 39, "train.log")
    assert "went on" in went_past.why or "trained past" in went_past.why
    assert report.to_json()["set_aside"][0]["signature"] == went_past.signature
    text = render_text(report)
    assert "Set aside:" in text and "train.log:39" in text
    _, blocks = healthy_message(report, "train.log", [])
    assert went_past.signature in blocks[0]["text"]["text"] and "did not stop the run" in blocks[0]["text"]["text"]


def test_a_loader_warning_trained_past_to_the_end_is_set_aside(matcher):
    report = diagnose([str(p) for p in sorted((R39 / "017").iterdir())], matcher)
    assert report.outcome == "healthy"
    assert [a.signature for a in report.set_aside or []] == ["dataloader.worker_exited_unexpectedly"]


def test_a_caught_exception_is_set_aside_as_caught(matcher):
    report = diagnose([str(R42 / "005" / "console.log")], matcher)
    assert report.outcome == "healthy"
    assert any("caught" in a.why for a in report.set_aside or [])


def test_slack_shows_four_and_says_how_many_more(matcher):
    report = diagnose([str(R42 / "005" / "console.log")], matcher)
    first = (report.set_aside or [])[0]
    many = [first.model_copy(update={"signature": f"test.sig_{i}", "line": i}) for i in range(6)]
    _, blocks = healthy_message(report.model_copy(update={"set_aside": many}), "console.log", [])
    text = blocks[0]["text"]["text"]
    assert "test.sig_3" in text and "test.sig_4" not in text and "and 2 more" in text


def test_nothing_set_aside_without_a_match_and_never_beside_a_diagnosis(matcher):
    quiet = _text(_steps(1, 30) + "[rank0]: training finished\n[rank1]: training finished\n", matcher)
    assert quiet.outcome == "healthy" and quiet.set_aside is None
    assert "no failure signature fired" in render_text(quiet)
    _, blocks = healthy_message(quiet, "train.log", [])
    assert "No signature fired" in blocks[0]["text"]["text"]
    # the same exception with nothing after it stops the run: a diagnosis, and no set-aside list
    failed = _text(_steps(1, 20) + "[rank1]: ConnectionResetError: [Errno 104] Connection reset by peer\n", matcher)
    assert failed.outcome == "diagnosed" and failed.set_aside is None
