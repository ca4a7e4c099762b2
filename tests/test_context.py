"""The context of an event line, asked of signatures._context directly: frames above, time, lines before, continuation."""

import pytest

from signatures._context import Surroundings, prefix_of, rank_and_host
from signatures._flood import digit_blind
from signatures._lines import parse_prefix

YEAR = 2026


def block(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


def at(data: bytes, line_no: int) -> int:
    """The offset where line `line_no` (1-based) of data starts."""
    pos = 0
    for _ in range(line_no - 1):
        pos = data.index(b"\n", pos) + 1
    return pos


def context(*blocks: bytes, tail: int = 64 << 10) -> Surroundings:
    """Surroundings moved through `blocks` as the scan moves through a source's blocks (lines are numbered
    across them, from 1)."""
    s = Surroundings()
    previous = b""
    for data in blocks:
        s.new_block(data, len(data), previous[-tail:] if previous else b"")
        previous = data
    return s


TRACEBACK = [
    "[rank1]: Traceback (most recent call last):",
    "[rank0]: Traceback (most recent call last):",
    '[rank1]:   File "/workspace/train.py", line 10, in <module>',
    '[rank0]:   File "/workspace/train.py", line 10, in <module>',
    "[rank1]:     main()",
    '[rank0]:   File "/workspace/train.py", line 7, in main',
    '[rank1]:   File "/workspace/train.py", line 7, in main',
    "[rank0]:     step()",
    "[rank1]:     step()",
    "[rank0]: RuntimeError: boom on rank 0",
    "[rank1]: RuntimeError: boom on rank 1",
]


def test_frames_come_from_the_exception_rank_with_other_ranks_interleaved():
    data = block(TRACEBACK)
    s = context(data)
    assert s.traceback(10, at(data, 10), 0) == [
        '[rank0]:   File "/workspace/train.py", line 10, in <module>',
        '[rank0]:   File "/workspace/train.py", line 7, in main',
        "[rank0]:     step()",
    ]
    assert s.traceback(11, at(data, 11), 1) == [
        '[rank1]:   File "/workspace/train.py", line 10, in <module>',
        "[rank1]:     main()",
        '[rank1]:   File "/workspace/train.py", line 7, in main',
        "[rank1]:     step()",
    ]


def test_frames_stop_at_the_traceback_header_of_the_same_rank():
    earlier = ['[rank0]:   File "/old.py", line 1, in f', "[rank0]:     old()", "[rank0]: ValueError: old"]
    data = block(earlier + TRACEBACK)
    s = context(data)
    frames = s.traceback(13, at(data, 13), 0)
    assert frames and all("/old.py" not in f and "old()" not in f for f in frames)
    # the header itself is the nearest line: nothing between
    data = block(["[rank0]: Traceback (most recent call last):", "[rank0]: KeyError: 'x'"])
    assert context(data).traceback(2, at(data, 2), 0) == []


def test_frames_keep_the_last_three_file_frames_and_twelve_lines():
    lines = ["Traceback (most recent call last):"]
    for i in range(6):
        lines += [f'  File "/m{i}.py", line {i}, in f{i}', f"    call{i}()"]
    lines.append("RuntimeError: deep")
    data = block(lines)
    frames = context(data).traceback(len(lines), at(data, len(lines)), None)
    assert frames[0] == '  File "/m3.py", line 3, in f3' and frames[-1] == "    call5()" and len(frames) == 6


def test_frames_are_found_above_a_block_boundary_in_the_kept_tail():
    first = block(TRACEBACK[:-2])
    second = block(TRACEBACK[-2:])
    s = context(first, second)
    assert s.traceback(len(TRACEBACK) - 1, 0, 0) == [
        '[rank0]:   File "/workspace/train.py", line 10, in <module>',
        '[rank0]:   File "/workspace/train.py", line 7, in main',
        "[rank0]:     step()",
    ]


def test_time_comes_from_the_last_stamped_line_above():
    data = block(
        [
            "[rank0]: 2026-11-30 12:00:01,000 INFO step 1",
            "[rank0]: 2026-11-30 12:00:05,000 INFO step 2",
            "[rank0]: Traceback (most recent call last):",
            "[rank0]: RuntimeError: boom",
        ]
    )
    s = context(data)
    t = s.time_above(4, at(data, 4), YEAR)
    assert t == parse_prefix("2026-11-30 12:00:05,000").time


def test_time_is_found_across_a_block_boundary_via_the_kept_tail():
    first = block(
        ["2026-11-30 12:00:00,000 INFO start"]
        + [f"filler {i}" for i in range(10)]
        + ["E1130 12:34:56.000000 4242 train.py:1] stamped last"]
    )
    second = block(['  File "train.py", line 3', "RuntimeError: no stamp here"])
    s = context(first, second)
    assert s.time_above(14, at(second, 2), YEAR) == parse_prefix("E1130 12:34:56.000000 4242 x.py:1] y", YEAR).time


def test_time_is_none_beyond_the_lookback_and_lines_are_not_read_again(monkeypatch):
    from signatures import _context

    decoded = []
    decode, text_and_rank = _context._decode, _context._text_and_rank

    def recorded_decode(raw):
        decoded.append(raw)
        return decode(raw)

    def recorded_text_and_rank(raw):
        decoded.append(raw)
        return text_and_rank(raw)

    monkeypatch.setattr(_context, "_decode", recorded_decode)
    monkeypatch.setattr(_context, "_text_and_rank", recorded_text_and_rank)
    data = block(
        ["2026-11-30 12:00:00,000 INFO start"]
        + [f"line {i}" for i in range(100)]
        + ["RuntimeError: x"]
        + [f"more {i}" for i in range(3)]
        + ["RuntimeError: y"]
    )
    s = context(data)
    assert s.time_above(102, at(data, 102), YEAR) is None
    first = len(decoded)
    assert s.time_above(106, at(data, 106), YEAR) is None
    assert len(decoded) - first == 4  # the lines between the two requests, no more


def test_lines_before_reach_across_a_block_boundary():
    first = block(["a1", "a2", "a3"])
    second = block(["b1", "exitcode  : 1"])
    s = context(first, second)
    assert s.lines_before(5, at(second, 2), 3) == ["a2", "a3", "b1"]
    assert s.lines_before(4, 0, 2) == ["a2", "a3"]


def test_lines_before_stop_at_the_start_of_the_source():
    data = block(["first", "second"])
    assert context(data).lines_before(2, at(data, 2), 5) == ["first"]


def test_a_carriage_return_segment_sees_the_earlier_segments_first():
    data = (
        b"[rank0]: Traceback (most recent call last):\n"
        b'[rank0]:   File "x.py", line 1, in f\rprogress 50%\r[rank0]: RuntimeError: boom\n'
    )
    seg = data.index(b"[rank0]: RuntimeError")
    s = context(data)
    assert s.lines_before(2, seg, 2) == [
        "[rank0]: Traceback (most recent call last):",
        '[rank0]:   File "x.py", line 1, in f\rprogress 50%',
    ]


def test_continuation_skips_other_ranks_and_stops_at_a_new_record():
    data = block(
        [
            "[rank0]: RuntimeError: Error(s) in loading state_dict for Model:",
            "[rank1]: something else entirely",
            '[rank0]: \tMissing key(s) in state_dict: "w".',
            '[rank0]: \tUnexpected key(s) in state_dict: "v".',
            "[rank0]: 2026-11-30 12:00:00,000 INFO next record",
            "[rank0]: \tnot part of it",
        ]
    )
    s = context(data)
    le = data.index(b"\n")
    assert s.continuation(le, 0) == [
        '[rank0]: \tMissing key(s) in state_dict: "w".',
        '[rank0]: \tUnexpected key(s) in state_dict: "v".',
    ]


@pytest.mark.parametrize(
    "line",
    [
        "[rank3]: RuntimeError: x",
        "[default2]:[rank5]: boom",
        "12: ValueError: y",
        "gpu-node-07:4242:4300 [3] NCCL WARN Cuda failure 'out of memory'",
        "0: gpu-node-07:4242:4300 [3] NCCL INFO ok",
        "slurmstepd: error: *** STEP 1.0 ON node-3 CANCELLED",
        "slurmstepd-gpu-12: error: Detected 1 oom_kill event",
        "Dec  2 10:00:00 gpu-node-07 kernel: NVRM: Xid 79",
        "srun: error: gpu-node-3: task 5: Exited with exit code 1",
        "2026-11-30 12:00:00,000 INFO train: global_rank=17 loss 1.0",
        "RANK: 4 starting",
        "no prefix at all",
        "  3: indented label",
    ],
)
def test_rank_and_host_agree_with_parse_prefix(line):
    pre = parse_prefix(line)
    assert rank_and_host(line) == (pre.rank, pre.host)
    assert prefix_of(line.encode()) == (pre.rank, pre.host)
    # remembered by shape: another line of the same shape, other digits
    other = line.translate(str.maketrans("0123456789", "9876543210"))
    pre = parse_prefix(other)
    assert prefix_of(other.encode()) == (pre.rank, pre.host)


@pytest.mark.parametrize(
    "regex,blind",
    [
        (r"Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=(?P<seq>\d+)", True),
        (r"\[rank\d{1,6}\]: [a-z]{2,}", True),
        (r"[0-9a-fA-F]+ at 0x[0-9a-f]+", False),  # "0x" names a digit
        (r"exit code [1-9]", False),
        (r"exit code 137", False),
        (r"\x41", False),
        (r"a{,3}", False),  # not a repetition in RE2: the text "{,3}"
        (r"[]0]", False),
        (r"\Qa{2}\E", False),
    ],
)
def test_digit_blind(regex, blind):
    assert digit_blind(regex) is blind


def test_a_line_cut_by_the_block_boundary_is_one_line_above():
    first = (
        block(["[rank0]: Traceback (most recent call last):", '[rank0]:   File "x.py", line 1, in f'])
        + b"[rank0]:     "
        + b"y" * 50
    )
    second = b"y" * 50 + b"()\n[rank0]: RuntimeError: boom\n"
    s = context(first, second)
    assert s.lines_before(4, at(second, 2), 2) == [
        '[rank0]:   File "x.py", line 1, in f',
        "[rank0]:     " + "y" * 100 + "()",
    ]
    assert s.lines_before(3, 0, 1) == ['[rank0]:   File "x.py", line 1, in f']


def test_an_unrecognised_traceback_keeps_the_line_that_ends_it():
    """What failed: the exception line after a traceback's header, found while scanning (other ranks interleaved,
    a chained traceback's words and frames skipped), even when it is no error-like line itself."""
    import signatures

    body = (
        b"[rank2]: Traceback (most recent call last):\n"
        b'[rank2]:   File "t.py", line 3, in <module>\n'
        b"[rank2]:     jam()\n"
        b"[rank1]: step 4 loss 2.0\n"
        b"[rank2]: WidgetJam: the widget <jammed>\n"
        b"[rank1]: ERROR frobnicator stalled\n"
        b"[rank3]: Traceback (most recent call last):\n"
        b'[rank3]:   File "u.py", line 9, in run\n'
        b"[rank3]: During handling of the above exception, another exception occurred:\n"
        b"[rank3]: pkg.Stuck\n"
    )
    report = signatures.diagnose_sources([signatures.source_from_bytes("p", body)])
    assert report.outcome == "unrecognised"
    by_rank = {g.rank: [(ln.line, ln.text) for ln in g.lines] for g in report.unrecognised}
    assert by_rank[2] == [
        (1, "[rank2]: Traceback (most recent call last):"),
        (5, "[rank2]: WidgetJam: the widget <jammed>"),
    ]
    assert (10, "[rank3]: pkg.Stuck") in by_rank[3]
    assert by_rank[1] == [(6, "[rank1]: ERROR frobnicator stalled")]


def test_the_line_that_ends_a_traceback_is_looked_for_within_a_bound():
    from signatures._context import RAISED_SCAN

    data = block(
        ["Traceback (most recent call last):"] + ['  File "x.py", line 1'] * (RAISED_SCAN + 5) + ["Boom: late"]
    )
    s = context(data)
    assert s.raised_below("Traceback (most recent call last):", data.index(b"\n"), 1) is None
    data = block(["Traceback (most recent call last):", '  File "x.py", line 1', "Boom: now"])
    s = context(data)
    assert s.raised_below("Traceback (most recent call last):", data.index(b"\n"), 1) == (3, "Boom: now")
