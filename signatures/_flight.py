"""What a job leaves beside its logs: PyTorch Flight Recorder dumps (which ranks never joined the
collective the others wait in) and torchelastic error files (error.json: a rank's own traceback).

A dump is one pickle per rank (`TORCH_FR_DUMP_TEMP_FILE` + rank, `nccl_trace_rank_N`), or the same dict as JSON
(`_dump_fr_trace_json`, `fr_trace_rank_N.json`): a dict with
`entries`, one per collective this process group recorded (`collective_seq_id`, `state` scheduled /
started / completed, `profiling_name` such as "nccl:all_reduce", `input_sizes`, times). Pickles are
never loaded with `pickle.load`: the unpickler below refuses every class, so a dump (plain dicts,
lists, strings and numbers) loads and anything that would run code is refused with a message.

The reasoning follows PyTorch's own analyzer (torch/distributed/flight_recorder): find the
collective most ranks got to last and did not complete; a rank whose newest collective is older
never joined it. Sizes that differ at the same sequence number are a mismatch. Ranks expected but
with no dump are named, with the environment that would have produced theirs.
"""

from __future__ import annotations

import io
import json
import pickle
import re
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime

from ._sources import InputError, Source, source_from_bytes

MAX_ERROR_FILE_BYTES = 16 << 20

MAX_DUMP_BYTES = 256 << 20
_RANK_IN_NAME = re.compile(r"(?:rank|_)(\d{1,6})$")
_EXTENSION = re.compile(r"\.(?:json|pkl|pickle|bin)$")
ENABLE_HINT = (
    "set TORCH_FR_BUFFER_SIZE (e.g. 2000) and TORCH_FR_DUMP_TEMP_FILE=/shared/fr_trace_rank_ on every "
    "rank (TORCH_NCCL_TRACE_BUFFER_SIZE and TORCH_NCCL_DUMP_ON_TIMEOUT=1 on NCCL releases before the "
    "rename), so each rank writes its dump on a timeout"
)


def rank_in_name(name: str) -> int | None:
    """The rank a dump's file name gives: fr_trace_rank_3, nccl_trace_rank_3.json, a zip member "dumps.zip:trace_3"."""
    found = _RANK_IN_NAME.search(_EXTENSION.sub("", name.rsplit("/", 1)[-1].rsplit(":", 1)[-1]))
    return int(found.group(1)) if found else None


def is_error_file(head: bytes) -> bool:
    """torchelastic's error file (TORCHELASTIC_ERROR_FILE, attempt_N/R/error.json, written by @record)."""
    start = head.lstrip()[:1]
    return start == b"{" and b'"message"' in head[:4096] and (b"py_callstack" in head or b"extraInfo" in head)


def error_file_source(source: Source) -> Source:
    """The error file as the log lines it stands for: the rank's traceback, stamped with the time it was
    written (so it orders with the other ranks' lines). Its path names the rank (attempt_0/3/error.json)."""
    data = source.head + source.stream.read(MAX_ERROR_FILE_BYTES)
    try:
        doc = json.loads(data)
        message = doc["message"]
        if isinstance(message, str):
            message = {"message": message}
        extra = message.get("extraInfo") or {}
        text = str(extra.get("py_callstack") or message.get("message") or "")
        stamp = str(extra.get("timestamp") or "")
        when = datetime.fromtimestamp(int(stamp), UTC).strftime("%Y-%m-%dT%H:%M:%SZ ") if stamp.isdigit() else ""
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError, OSError):
        return source_from_bytes(source.name, data)  # not the shape we know: read it as text
    lines = [when + line for line in text.splitlines() if line.strip()]
    return source_from_bytes(source.name, ("\n".join(lines) + "\n").encode())


def is_pickle(head: bytes) -> bool:
    return len(head) >= 2 and head[0] == 0x80 and 2 <= head[1] <= 5


def is_json_dump(head: bytes) -> bool:
    """A dump written as JSON (torch._C._distributed_c10d._dump_fr_trace_json, PyTorch 2.x): the same dict as the
    pickle, "entries" beside "pg_config" / "pg_status" / "version"."""
    return (
        head.lstrip()[:1] == b"{"
        and b'"entries"' in head
        and (b'"collective_seq_id"' in head or b'"pg_status"' in head or b'"pg_config"' in head)
    )


def is_dump(head: bytes) -> bool:
    return is_pickle(head) or is_json_dump(head)


class _NoClasses(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"it asks for {module}.{name}: only plain data is read")


@dataclass
class Dump:
    rank: int | None
    name: str
    entries: list[dict]


def read_dump(name: str, data: bytes) -> Dump:
    if len(data) > MAX_DUMP_BYTES:
        raise InputError(f"{name}: a pickle of {len(data) >> 20} MB is larger than a Flight Recorder dump")
    kind = "pickle" if is_pickle(data[:2]) else "JSON file"
    try:
        loaded = _NoClasses(io.BytesIO(data)).load() if kind == "pickle" else json.loads(data)
    except (
        pickle.UnpicklingError,
        EOFError,
        ValueError,
        TypeError,
        IndexError,
        KeyError,
        MemoryError,
        RecursionError,  # JSON nested past the interpreter's depth
    ) as exc:
        raise InputError(f"{name}: a {kind} that is not a Flight Recorder dump, not read ({exc})") from None
    if not isinstance(loaded, dict) or not isinstance(loaded.get("entries"), list):
        raise InputError(f"{name}: a {kind} that is not a Flight Recorder dump (no 'entries'), not read")
    rank = loaded.get("rank")
    if not isinstance(rank, int):
        rank = rank_in_name(name)
    entries = [e for e in loaded["entries"] if isinstance(e, dict) and isinstance(e.get("collective_seq_id"), int)]
    return Dump(rank, name, entries)


def _pg(entry: dict) -> str:
    pg = entry.get("process_group")
    return str(pg[0]) if isinstance(pg, (list, tuple)) and pg else str(entry.get("pg_id", "0"))


def analyze(dumps: list[Dump], world_size: int | None = None) -> dict:
    """What the dumps say, as the report's `flight_recorder` section."""
    present = sorted(d.rank for d in dumps if d.rank is not None)
    expected = set(range(world_size)) if world_size else (set(range(max(present) + 1)) if present else set())
    out: dict = {
        "dumps": [d.name for d in dumps],
        "ranks_present": present,
        "ranks_missing": sorted(expected - set(present)),
    }
    if out["ranks_missing"]:
        out["enable"] = ENABLE_HINT
    ranked = [(d.rank, d) for d in dumps if d.rank is not None and d.entries]
    if len(ranked) < 2:
        return out
    newest: dict[int, dict] = {}
    for rank, d in ranked:
        default = [e for e in d.entries if _pg(e) == "0"] or d.entries
        newest[rank] = max(default, key=lambda e: e["collective_seq_id"])
    # the collective most ranks got to last (gloo records every entry as "scheduled": states alone cannot
    # tell, the sequence numbers can)
    stuck_seq, _ = Counter(e["collective_seq_id"] for e in newest.values()).most_common(1)[0]
    waiting = sorted(r for r, e in newest.items() if e["collective_seq_id"] == stuck_seq)
    behind = sorted(r for r, e in newest.items() if e["collective_seq_id"] < stuck_seq)
    stuck_entry = newest[waiting[0]]
    if stuck_entry.get("state") != "completed":
        out["stuck"] = {
            "seq": stuck_seq,
            "op": stuck_entry.get("profiling_name", ""),
            "waiting": waiting,
            "not_joined": behind,
            "newest_of_not_joined": {r: newest[r]["collective_seq_id"] for r in behind},
        }
    by_seq: dict[int, dict[int, str]] = {}
    for rank, d in ranked:
        for e in d.entries:
            by_seq.setdefault(e["collective_seq_id"], {})[rank] = f"{e.get('profiling_name')} {e.get('input_sizes')}"
    for seq in sorted(by_seq):
        shapes = by_seq[seq]
        if len(set(shapes.values())) > 1 and len(shapes) >= 2:
            ((common, most), *rest) = Counter(shapes.values()).most_common()
            tie = rest[0][1] == most  # no majority (one dump against one): the dumps cannot say which side is odd
            out["mismatch"] = {
                "seq": seq,
                "odd": [] if tie else sorted(r for r, s in shapes.items() if s != common),
                "expected": common,
                "got": {r: s for r, s in shapes.items() if s != common},
            }
            break
    return out
