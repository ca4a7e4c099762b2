"""Error-dense logs scan in linear time: context is not re-read for every candidate, lines past the caps are
counted in bulk with the same result as line by line, and the kept lists stay capped."""

import random
import sys
import time
from dataclasses import astuple
from pathlib import Path

import pytest

from signatures import _context, _engine, _limits
from signatures._sources import source_from_bytes


def flood(n_lines: int, ranks: int = 8, seed: int = 3) -> bytes:
    """A log where every line is an error line of the library's kinds, with other numbers on every line."""
    rng = random.Random(seed)
    out = []
    for step in range(n_lines):
        r = rng.randrange(ranks)
        kind = step % 6
        if kind == 0:
            out.append(f"[rank{r}]: RuntimeError: CUDA error: an illegal memory access was encountered (step {step})")
        elif kind == 1:
            out.append(
                f"[rank{r}]:[E1130 13:10:{step % 60:02d}.{rng.randrange(10**6):06d} ProcessGroupNCCL.cpp:616] "
                f"[Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={step}, "
                f"OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) ran for "
                f"{600000 + step % 97} milliseconds before timing out."
            )
        elif kind == 2:
            out.append(
                f"[rank{r}]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {rng.uniform(1, 9):.2f} "
                f"GiB. GPU {r} has a total capacity of 79.10 GiB of which {rng.uniform(0, 2):.2f} GiB is free."
            )
        elif kind == 3:
            out.append(
                f"2026-11-30 12:{step // 60 % 60:02d}:{step % 60:02d},{rng.randrange(1000):03d} ERROR [rank{r}] "
                f"fatal: Segmentation fault (core dumped) Aborted Killed exitcode: 1 NCCL error"
            )
        elif kind == 4:
            out.append(f"gpu-node-{r // 4:02d}:{4000 + r}:{4100 + r} [{r % 4}] NCCL WARN Cuda failure 'out of memory'")
        else:
            out.append(f"[rank{r}]: Traceback (most recent call last):")
    return ("\n".join(out) + "\n").encode()


def line_by_line(self, st, data, lo, hi):
    """_Scan._bulk taking nothing: every window goes line by line."""
    return lo, hi


def scan(matcher, data: bytes):
    return matcher.scan([source_from_bytes("flood.log", data)])


def same(a, b) -> None:
    """Two scan results say the same (the order of discovery aside)."""
    assert [astuple(e)[:-1] for e in a.events] == [astuple(e)[:-1] for e in b.events]
    assert a.counts == b.counts
    assert {r: [astuple(e) for e in v] for r, v in a.errorlike.items()} == {
        r: [astuple(e) for e in v] for r, v in b.errorlike.items()
    }
    assert (a.ranks, a.hosts, a.lines, a.completed) == (b.ranks, b.hosts, b.lines, b.completed)


def _count_candidates(monkeypatch) -> list[int]:
    """A list that gets an item for every line the scan reads line by line (_Scan._candidate)."""
    calls: list[int] = []
    candidate = _engine._Scan._candidate

    def counted_candidate(self, *a):
        calls.append(1)
        return candidate(self, *a)

    monkeypatch.setattr(_engine._Scan, "_candidate", counted_candidate)
    return calls


def test_context_lines_are_decoded_about_once(matcher, monkeypatch):
    """Every candidate's context (time above, frames, lines before, continuation) comes from lines decoded
    once each, not from re-reading up to 80 lines above every candidate."""
    decoded = []
    decode = _context._decode

    def counted_decode(raw):
        decoded.append(1)
        return decode(raw)

    monkeypatch.setattr(_context, "_decode", counted_decode)
    monkeypatch.setattr(_engine._Scan, "_bulk", line_by_line)
    data = flood(6000, ranks=512)  # many ranks: most lines are kept as events, with their context
    result = scan(matcher, data)
    assert len(result.events) > 2000
    assert len(decoded) <= 2 * result.lines  # a line above (as a row) and below (as a continuation), once each


def test_lines_past_the_caps_are_counted_in_bulk(matcher, monkeypatch):
    """Once every signature a flood fires has its events for every rank, its lines cost no Python each."""
    _line_by_line_stays_flat(matcher, monkeypatch, flood)


def _line_by_line_stays_flat(matcher, monkeypatch, make) -> None:
    """Eight times the lines of `make(n)` send less than half as many lines again through the line path."""
    calls = _count_candidates(monkeypatch)
    scan(matcher, make(20_000))
    small = len(calls)
    calls.clear()
    scan(matcher, make(160_000))
    assert len(calls) < small * 1.5


def test_every_error_kind_of_the_dense_benchmark_is_counted_in_bulk(matcher, monkeypatch):
    """bench/dense.py's error lines (segfaults among them), past the caps, cost no Python each: a signature's
    regex that reads a rank on such a line would send all of them line by line (b9039af: 12 times slower)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import dense

    def log(n: int) -> bytes:
        rng = random.Random(5)
        return "".join(dense._error_line(rng, step, 8) + "\n" for step in range(n)).encode()

    _line_by_line_stays_flat(matcher, monkeypatch, log)


@pytest.mark.parametrize("ranks,lines", [(1, 30_000), (8, 30_000), (300, 12_000), (256, 40_000)])
def test_bulk_counting_gives_what_line_by_line_gives(matcher, monkeypatch, ranks, lines):
    data = flood(lines, ranks=ranks)
    bulk = scan(matcher, data)
    monkeypatch.setattr(_engine._Scan, "_bulk", line_by_line)
    same(bulk, scan(matcher, data))


def test_bulk_counting_of_a_flood_between_ordinary_lines(matcher, monkeypatch):
    normal = "".join(
        f"[rank{i % 8}]: 2026-11-30 12:00:{i % 60:02d},000 INFO step {i} loss 2.{i % 97:02d}\n" for i in range(20_000)
    ).encode()
    ansi = b"\x1b[31m[rank2]: RuntimeError: CUDA error: an illegal memory access was encountered\x1b[0m\n"
    data = (
        normal + flood(20_000) + ansi + flood(5_000, seed=9).replace(b"Segmentation", b"Segm\xc3\xa9ntation") + normal
    )
    bulk = scan(matcher, data)
    monkeypatch.setattr(_engine._Scan, "_bulk", line_by_line)
    same(bulk, scan(matcher, data))


def test_bulk_counting_around_lines_it_cannot_plan(matcher, monkeypatch):
    """Escape codes, \r, non-ASCII text, very long lines, count rules and literals with digits, here and there."""
    rng = random.Random(7)
    odd = [
        lambda line: b"\x1b[31m" + line + b"\x1b[0m",
        lambda line: b"progress 10%\r" + line,
        lambda line: line + " café".encode(),
        lambda line: line + b" " + b"x" * 1500,
        lambda line: (
            b"[rank3]: [deepspeed] OVERFLOW! Rank 3 Skipping step. Attempted loss scale: 65536, reducing to 32"
        ),
        lambda line: b"[rank1]: exit code 137 Killed",
    ]
    lines = [rng.choice(odd)(line) if rng.random() < 0.03 else line for line in flood(30_000).split(b"\n")]
    data = b"\n".join(lines)
    bulk = scan(matcher, data)
    monkeypatch.setattr(_engine._Scan, "_bulk", line_by_line)
    same(bulk, scan(matcher, data))


def test_bulk_counting_before_the_first_timestamp(matcher, monkeypatch):
    """Until a source shows a timestamp its year is unknown; a flood without one is counted in bulk all the same."""
    unstamped = flood(30_000).replace(b"2026-11-30 12:", b"step 12:").replace(b"[E1130 13:10:", b"[x 13 10 ")
    data = unstamped + flood(3_000, seed=5)
    bulk = scan(matcher, data)
    monkeypatch.setattr(_engine._Scan, "_bulk", line_by_line)
    same(bulk, scan(matcher, data))


def test_counts_past_the_caps_stay_exact(matcher):
    data = flood(60_000)
    result = scan(matcher, data)
    counted: dict[str, int] = {}
    for (sig, _), n in result.counts.items():
        counted[sig] = counted.get(sig, 0) + n
    assert counted["nccl.watchdog_collective_timeout"] == data.count(b"Watchdog caught collective operation timeout")
    assert counted["cuda.out_of_memory"] == data.count(b"CUDA out of memory")
    assert counted["process.segfault"] == data.count(b"Segmentation fault")


def test_kept_lists_stay_capped(matcher):
    result = scan(matcher, flood(60_000, ranks=100))
    per_key: dict[tuple[str, int | None], int] = {}
    for e in result.events:
        per_key[(e.sig_id, e.rank)] = per_key.get((e.sig_id, e.rank), 0) + 1
    assert max(per_key.values()) <= _limits.EVENTS_KEPT
    assert len(result.errorlike) <= _limits.ERRORLIKE_RANKS
    assert all(len(v) <= _limits.ERRORLIKE_PER_RANK for v in result.errorlike.values())


def test_an_error_dense_log_scans_in_linear_time(matcher):
    """8 MB of error lines take less than 4x the CPU time of 2 MB (a quadratic scan takes 16x)."""

    def cpu(data: bytes) -> float:
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            scan(matcher, data)
            best = min(best, time.process_time() - started)
        return best

    small = flood(18_000)
    assert len(small) > 2 << 20
    big = flood(72_000)
    scan(matcher, small)  # compile the regexes this log needs
    assert cpu(big) < 4 * cpu(small)


def test_every_rank_keeps_its_first_event_of_a_flood(matcher):
    """Past SIG_EVENTS_SOFT kept events of a signature, ranks keep only their first: a 256-rank flood keeps one
    event per rank and signature (its start, which attribution reads), not 16 repeats of each."""
    result = scan(matcher, flood(40_000, ranks=256))
    kept: dict[str, set] = {}
    for e in result.events:
        kept.setdefault(e.sig_id, set()).add(e.rank)
    counted: dict[str, set] = {}
    for sig, rank in result.counts:
        counted.setdefault(sig, set()).add(rank)
    assert kept == counted
    assert len(result.events) < 256 * len(kept) + _limits.SIG_EVENTS_SOFT * len(kept)


def test_a_many_rank_flood_sends_only_lines_that_add_events_line_by_line(matcher, monkeypatch):
    """While ranks still lack their first events, the lines that may add one go line by line, the rest of the
    window is counted in bulk (it used to go line by line whole: 14,000 of 29,000 lines)."""
    calls = _count_candidates(monkeypatch)
    result = scan(matcher, flood(30_000, ranks=256))
    assert len(calls) < 2 * len(result.events) + 2000


def test_bulk_counting_skips_raise_lines_as_the_line_path_does(matcher, monkeypatch):
    """A traceback quotes `raise X("...")` source lines: neither path may read them as the error."""
    quoted = b"[rank3]:     raise RuntimeError('CUDA error: an illegal memory access was encountered')\n"
    data = b"".join(quoted + line + b"\n" for line in flood(12_000, ranks=16).splitlines())
    bulk = scan(matcher, data)
    monkeypatch.setattr(_engine._Scan, "_bulk", line_by_line)
    same(bulk, scan(matcher, data))
    assert not any(e.text.lstrip().startswith("[rank3]:     raise") for e in bulk.events)


def test_bulk_counting_when_its_memos_are_forgotten(matcher, monkeypatch):
    """Runs of lines tested with the lines above them are remembered by small numbers standing for their shapes;
    when there are too many shapes or runs, all of it is forgotten and tested anew, with the same result."""
    from signatures import _bulk

    monkeypatch.setattr(_bulk, "SHAPE_IDS_KEPT", 40)
    monkeypatch.setattr(_bulk, "MEMO_ENTRIES", 8)
    data = flood(30_000, ranks=64)
    bulk = scan(matcher, data)
    monkeypatch.setattr(_engine._Scan, "_bulk", line_by_line)
    same(bulk, scan(matcher, data))


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_lines_just_above_are_the_lines_before(count):
    """What bulk counting reads directly above a window's first lines is what the rows would give: escape codes
    stripped, \r-segments, empty lines, and lines from the previous block's tail."""
    rng = random.Random(count)
    pool = ["[rank1]: plain", "\x1b[31m[rank2]: red\x1b[0m", "", "10%\r50%\r[rank0]: done", "café ünï", "x" * 300]
    data = ("\n".join(rng.choice(pool) for _ in range(400)) + "\n").encode()
    cut = data.index(b"\n", len(data) // 2) + 1
    tail, block = data[:cut], data[cut:]
    starts = [0] + [i + 1 for i in range(len(block) - 1) if block[i] in b"\n\r"]
    for ls in starts:
        line_no = tail.count(b"\n") + block.count(b"\n", 0, ls) + 1
        rows, direct = _context.Surroundings(), _context.Surroundings()
        rows.new_block(block, len(block), tail)
        direct.new_block(block, len(block), tail)
        assert direct.lines_just_above(ls, count) == rows.lines_before(line_no, ls, count)


@pytest.mark.parametrize(
    "regex,text,literals",
    [
        (r"(?:\._write_file\(|in _save\b)[^\n]*\nOSError: (?P<e>\S+)", "in _save x\nOSError: boom", 1),
        (r"(?:\._write_file\(|in _save\b)[^\n]*\n(?P<e>\S+)", "in _save x\nboom", 2),
        (r"x{0,3}abcd\d+", "xxabcd12", 1),
        (r"hello(?i:world)", "helloWORLD", 1),
        (r"ab(?:cd)?", "ab", None),  # nothing of 3+ characters is mandatory
        (r"(?i)Foo bar", "FOO BAR", None),  # case-insensitive: no literal test
        (r"a|bcd", "a", None),  # a branch without a literal
    ],
)
def test_required_literals_never_rule_out_a_match(regex, text, literals):
    from signatures._required import required
    from signatures._schema import compile_regex

    found = required(regex)
    assert (found and len(found)) == literals if literals else found is None
    assert compile_regex(regex).search(text)  # the text matches ...
    assert found is None or any(lit in text.encode() for lit in found)  # ... and holds one of the literals


def test_required_literals_hold_for_every_match_case_of_the_library(library):
    """Every library regex that matches one of its own match cases finds one of its required literals there."""
    from signatures._cases import case_log
    from signatures._required import required
    from signatures._schema import compile_regex

    checked = 0
    for sig in library.signatures:
        for case in sig.cases:
            if case.kind != "match":
                continue
            text = case_log(case)
            for pattern in sig.patterns:
                if compile_regex(pattern.regex, pattern.caseless).search(text):
                    found = required(pattern.regex, pattern.caseless)
                    assert found is None or any(lit in text for lit in found), (sig.id, pattern.regex, found)
                    checked += found is not None
    assert checked > 200


def test_progress_lines_naming_their_local_rank_are_not_read_line_by_line(matcher, monkeypatch):
    """A pattern that names a rank sends the lines holding its literal down the line path: a literal that healthy
    progress lines print ("(local_rank: 0)") would send a whole run's log there (the flattened failure-table rows
    are found by the words that join their fields instead)."""
    calls = _count_candidates(monkeypatch)
    data = "".join(
        f"2026-12-06 10:00:{i % 60:02d},000 INFO global rank {i % 8} (local_rank: {i % 8}) step {i} loss 0.{i % 97:02d}\n"
        for i in range(20_000)
    ).encode()
    scan(matcher, data)
    assert len(calls) < 200
