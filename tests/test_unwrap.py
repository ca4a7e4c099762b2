"""Pastes hard-wrapped at a fixed width are read with their cut lines rejoined (signatures/_unwrap.py); logs that
only look alike (lines cut by a tool, repeated messages of one length, tables) are read as they are."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from signatures import diagnose
from signatures._unwrap import CHUNK, _continues, padded_width, unwrapped, wrap_width

HERE = Path(__file__).resolve().parent
T3 = HERE / "realworld" / "blind_t3" / "logs"
R33 = HERE / "corpus" / "blind_r33" / "runs"


def _hard_wrap(text: str, width: int) -> str:
    """What a terminal's copy does: every line longer than `width` broken into pieces of `width`."""
    out = []
    for line in text.splitlines():
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out) + "\n"


def test_a_watchdog_timeout_pasted_wrapped_at_137_columns(matcher):
    # open-r1: rank 2's watchdog message and its C++ frames, each broken across two or three lines
    report = diagnose([str(T3 / "007_openr1_grpo_broadcast_timeout.log")], matcher)
    d = report.diagnoses[0]
    assert (d.signature, d.class_) == ("nccl.watchdog_collective_timeout", "nccl_timeout")
    assert report.stats.lines == 6  # 12 lines as pasted, 6 rejoined
    assert report.stats.notes and "wrapped at 137 columns" in report.stats.notes[0]


@pytest.mark.parametrize("run", ["001", "004", "010", "016", "038"])
@pytest.mark.parametrize("width", [80, 120])
def test_a_real_run_wrapped_by_a_terminal_reads_as_the_original(matcher, tmp_path, run, width):
    original = R33 / run / "console.log"
    if not original.exists():
        pytest.skip(f"{run} has no console.log")
    want = diagnose([str(original)], matcher).diagnoses
    wrapped = tmp_path / "console.log"
    wrapped.write_text(_hard_wrap(original.read_text(), width))
    report = diagnose([str(wrapped)], matcher)
    assert report.stats.notes, "the wrap was not seen"
    got = report.diagnoses
    assert [(d.class_, d.initiating_rank) for d in got[:1]] == [(d.class_, d.initiating_rank) for d in want[:1]]


T6 = HERE / "realworld" / "blind_t6" / "logs"


def _screen(text: str, width: int) -> str:
    """What a terminal's whole-screen copy (tmux, screen) gives: every line wrapped at `width` and padded to it."""
    return "\n".join(piece.ljust(width) for piece in _hard_wrap(text, width).splitlines()) + "\n"


def test_a_terminal_screen_padded_to_its_width_is_read_stripped_and_rejoined(matcher, tmp_path):
    # ms-swift: two ranks' watchdog messages copied from a 168-column tmux pane, every line padded with spaces
    report = diagnose([str(T6 / "020_msswift_allgather_watchdog_rank2_rank0.log")], matcher)
    assert (report.diagnoses[0].class_, report.stats.lines) == ("nccl_timeout", 4)
    assert "padded with spaces to 168 columns" in report.stats.notes[0] and "wrapped at 168" in report.stats.notes[0]
    # a real run's console copied the same way at 100 columns reads as the original
    original = R33 / "001" / "console.log"
    want = diagnose([str(original)], matcher).diagnoses[0]
    (tmp_path / "screen.log").write_text(_screen(original.read_text(), 100))
    got = diagnose([str(tmp_path / "screen.log")], matcher)
    assert (got.diagnoses[0].class_, got.diagnoses[0].initiating_rank) == (want.class_, want.initiating_rank)
    # padded but never wider than the screen: stripped only
    short = "\n".join(line[:90].ljust(100) for line in original.read_text().splitlines()[:50]) + "\n"
    (tmp_path / "short.log").write_text(short)
    report = diagnose([str(tmp_path / "short.log")], matcher)
    assert len(report.stats.notes) == 1 and report.stats.notes[0].endswith(
        "its lines were padded with spaces to 100 columns (a terminal's screen) and are read with the padding stripped"
    )


def test_lines_that_merely_end_in_a_space_are_not_padding():
    text = b"".join(b"step %d loss 0.%d " % (i, i) + b"x" * (i % 50) + b"\n" for i in range(60))
    assert padded_width(text, whole=True) is None


def test_lines_cut_by_a_tool_are_not_joined(matcher, tmp_path):
    # `cut -c1-100`: every long line loses its end, and the next line is the next record: nothing to rejoin
    text = (R33 / "001" / "console.log").read_text()
    cut = "\n".join(line[:100] for line in text.splitlines()) + "\n"
    assert wrap_width(cut.encode()[:8192], whole=len(cut) < 8192) is None
    (tmp_path / "cut.log").write_text(cut)
    assert not diagnose([str(tmp_path / "cut.log")], matcher).stats.notes


def test_logs_that_only_look_wrapped_are_read_as_they_are():
    # the same warning repeated (one length), JSON records of one format, a table's rows
    warning = "[transformers] Model config: eos_token_id must be `None` or an integer, got 50256. This is fine.\n"
    records = "".join(
        json.dumps({"t": 1796310883.3 + i, "lvl": "info", "rank": 0, "event": "train", "step": i, "loss": 1.1787})
        + "\n"
        for i in range(10, 40)
    )
    table = "".join(f"|  {i}  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |     0 |\n" for i in range(8))
    for text in (warning * 12 + "step 1 loss 2.0\n", records, table):
        head = text.encode()[:8192]
        assert wrap_width(head, whole=len(text) < 8192) is None, text[:60]


def test_the_stream_rejoins_across_its_chunks():
    # a wrapped text larger than one read: rejoined the same wherever a chunk ends, CRLF included
    rng = random.Random(7)
    lines = [
        f"[rank{i % 4}]: step {i} " + " ".join(f"w{rng.randrange(10**9)}" for _ in range(12 + i % 17))
        for i in range(20_000)
    ]
    original = "\n".join(lines) + "\n"
    wrapped = _hard_wrap(original, 97).encode()
    assert len(wrapped) > 2 * CHUNK
    assert wrap_width(wrapped[:8192], whole=False) == 97
    pieces = wrapped.split(b"\n")[:-1]
    one_pass = b"".join(
        piece if len(piece) == 97 and i + 1 < len(pieces) and _continues(piece, pieces[i + 1]) else piece + b"\n"
        for i, piece in enumerate(pieces)
    )
    streamed = unwrapped(io.BytesIO(wrapped), 97).read()
    assert streamed == one_pass
    # nearly every cut found again (a piece that starts with the same 4 characters as the line above, "w123..."
    # under "w123...", reads as a new record of the same format and stays cut)
    assert len(lines) <= streamed.count(b"\n") <= len(lines) * 1.001
    assert streamed.count(b"\n") < len(pieces) / 2
    crlf = wrapped.replace(b"\n", b"\r\n")
    assert unwrapped(io.BytesIO(crlf), 97).read() == streamed.replace(b"\n", b"\r\n")
