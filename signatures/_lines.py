"""What a launcher or logger put in front of a line: rank, host, timestamp.

These run only on candidate lines (and a small sample at the start of each
source), never on every line, and only on a bounded prefix of the line, so the
standard-library regexes here cannot be made slow by a long line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timezone

import re2

PREFIX_CHARS = 160

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")

# Ordered: the first that matches wins. Each yields a rank; some also a host.
_RANK_PATTERNS = [
    # PyTorch's own "[rank3]:" is the global rank: it wins over torchrun's local "[default0]:" tee prefix
    re.compile(r"\[rank\s*(?P<rank>\d{1,6})\]"),
    re.compile(r"\[default\s*(?P<rank>\d{1,6})\]"),
    # NCCL debug lines: "host:pid:tid [3] NCCL INFO ..."
    re.compile(
        r"^(?:\d{1,6}:\s+)?(?:\[(?:rank|default)\d{1,6}\]:\s?)?(?P<host>[A-Za-z0-9][\w.-]*):\d+:\d+ \[(?P<rank>\d{1,4})\] (?:[\w/.-]+:\d+ )?NCCL\b"
    ),
    # Python logging / structured fields: "rank=3", "RANK: 3", "rank 3]"
    re.compile(r"(?<![\w-])(?:global_)?rank[=:\s]\s*(?P<rank>\d{1,6})(?![\d.])", re.IGNORECASE),
    # a logger's or progress bar's name: "rank1: 38%|###", "- rank0 - INFO", "[rank2 | step 5]"
    re.compile(r"(?<![\w-])rank(?P<rank>\d{1,6})(?=[:\s|\]-])"),
    # "[r2] ..." at the start of a line (after an srun label)
    re.compile(r"^(?:\s{0,3}\d{1,6}: )?\[r(?P<rank>\d{1,4})\] "),
    # a JSON-lines logger's field: {"ts": ..., "rank": 3, ...} (_context.prefix_spans indexes these patterns)
    re.compile(r"\"(?:global_)?rank\"\s*:\s*(?P<rank>\d{1,6})(?![\d.])", re.IGNORECASE),
    # a worker's place in the job as a suffix: "step 5/60 | loss 1.13  (worker 1 of 3)"
    re.compile(r"\(worker (?P<rank>\d{1,6}) of \d{1,6}\)"),
    # a logger named after the spawned process's index: "[2026-12-06 00:15:22,600][worker2] starting"
    re.compile(r"\[worker[ _-]?(?P<rank>\d{1,6})\]"),
    # a formatter's bracketed fields with the rank right after the level: "[07:39:59][INFO][1] step 800"
    re.compile(r"\[(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL)\]\s?\[(?P<rank>\d{1,5})\]"),
    # Open MPI's --tag-output (mpirun, horovodrun): "[1,3]<stderr>:..." is job 1's rank 3; horovodrun's own "[3]<stderr>:"
    re.compile(r"^\[(?:\d{1,6},)?(?P<rank>\d{1,6})\]<std(?:out|err|diag)>:"),
    # a vLLM worker named for the one dimension of its parallel layout larger than 1 (the name leaves out the others,
    # and DCP and EP subdivide TP and DP): "(Worker_PP3 pid=200085)" is rank 3, "(Worker_TP1_EP1 pid=9)" rank 1
    re.compile(r"\((?:Diffusion)?Worker_(?:DP|PP|PCP|SP|CFG|TP)(?P<rank>\d{1,5})(?:_(?:DCP|EP)\d{1,5})* pid=\d"),
    # an SGLang scheduler's record, named for its tensor-parallel rank: "[2025-02-21 22:59:28 TP0] Scheduler hit an
    # exception". With data parallelism ("DP1 TP0": replica 1's TP rank 0) TP ranks repeat across replicas, and with
    # pipeline stages ("PP1 TP0") across stages, so only a bare TP rank is read (with DP attention "DP6 TP6" is global
    # rank 6, but telling that apart needs the DP and TP numbers compared, which a digit-blind prefix cannot do)
    re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? TP(?P<rank>\d{1,5})(?: EP\d{1,5})?\]"),
]
# the order parse_prefix (and _context.prefix_spans) tries them in: a vLLM worker's name at the line's start is the
# line's own, before a rank its message mentions ("(Worker_TP3 pid=9) ... rank 0 ...")
_RANK_ORDER = [_RANK_PATTERNS[i] for i in (0, 1, 11, 12, 2, 3, 4, 5, 6, 7, 8, 9, 10)]
# the same tag as a label to read past, for the patterns that strip a line's labels
MPI_TAG = r"\[(?:\d{1,6},)?\d{1,6}\]<std(?:out|err|diag)>:"
# torchrun's labels anywhere in a line: a rank's line glued to another's unfinished one (a progress bar written with
# \r and no newline): "[default0]:Epoch 0:  3%|...|[default1]:ERROR: Unexpected bus error ..."
_LABELS = re.compile(r"\[(?:default|rank)(\d{1,6})\]:")


def glued_rank(text: str, rank: int) -> int:
    """The rank of the last torchrun label in `text` when its labels name several ranks (another rank's line glued
    after this one's unfinished progress bar: what follows is that rank's), else `rank`."""
    ranks = [int(r) for r in _LABELS.findall(text)]
    return ranks[-1] if len(set(ranks)) > 1 else rank


# srun --label: "3: ..." at the very start (after optional whitespace).
_SRUN_LABEL = re.compile(r"^\s{0,3}(?P<rank>\d{1,6}): ")

_HOST_PATTERNS = [
    re.compile(
        r"^(?:\d{1,6}:\s+)?(?:\[(?:rank|default)\d{1,6}\]:\s?)?(?P<host>[A-Za-z0-9][\w.-]*):\d+:\d+ \[\d{1,4}\] (?:[\w/.-]+:\d+ )?NCCL\b"
    ),
    re.compile(r"slurmstepd(?:-(?P<host>[\w.-]+))?: "),
    # syslog / journald: "Dec  2 10:00:00 gpu-node-07 kernel: ..."
    re.compile(r"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d (?P<host>[\w.-]+) "),
    re.compile(r"srun: error: (?P<host>[\w.-]+): task"),
]

_ISO = re.compile(
    r"(?P<y>(?:19|20)\d\d)-(?P<mo>[01]\d)-(?P<d>[0-3]\d)[T _](?P<h>[0-2]\d):(?P<mi>[0-5]\d):(?P<s>[0-6]\d)"
    r"(?:[.,](?P<frac>\d{1,9}))?(?P<tz>Z|[+-][0-2]\d:?[0-5]\d)?"
)
# glog: "E1206 18:44:12.715298 ..." and PyTorch 2.x C++ logs "[E817 17:40:34.227531918 ...]" (month, day; no year)
_GLOG = re.compile(
    r"(?:^|[\s\[:])[IWEF](?P<mo>1[0-2]|0?[1-9])(?P<d>[0-3]\d) (?P<h>[0-2]\d):(?P<mi>[0-5]\d):(?P<s>[0-6]\d)\.(?P<frac>\d{1,9})\b"
)
_MONTHS = {
    m: i
    for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], start=1)
}
# syslog "Dec  2 10:00:00" and dmesg -T "[Wed Dec  2 10:00:00 2026]"
_SYSLOG = re.compile(
    r"(?:^|\[)(?:[A-Z][a-z]{2} )?(?P<mon>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(?P<d>\d{1,2}) "
    r"(?P<h>[0-2]\d):(?P<mi>[0-5]\d):(?P<s>[0-6]\d)(?: (?P<y>(?:19|20)\d\d))?"
)

# File names that say which rank wrote them.
_RANK_FROM_PATH = [
    re.compile(r"attempt_\d+/(?P<rank>\d{1,6})/(?:(?:stdout|stderr|error)\.(?:log|txt)|error\.json)$"),
    re.compile(r"(?:^|[/_.-])(?:rank|global_rank|proc|worker)[_-]?(?P<rank>\d{1,6})(?:[/_.-]|$)", re.IGNORECASE),
    re.compile(
        r"(?:^|[/_.-])(?:node|host)[_-]?\d+[_-](?:rank|gpu|local_rank)[_-]?(?P<rank>\d{1,6})(?:[/_.-]|$)", re.IGNORECASE
    ),
]
_HOST_FROM_PATH = re.compile(r"(?:^|/)(?P<host>(?:gpu|node|host|compute|worker)[\w-]*\d+)(?:/|\.)", re.IGNORECASE)


@dataclass(frozen=True)
class Prefix:
    rank: int | None
    host: str | None
    time: float | None  # seconds since the epoch, UTC


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text) if "\x1b" in text else text


def parse_prefix(line: str, default_year: int | None = None) -> Prefix:
    head = line[:PREFIX_CHARS]
    rank = host = None
    label = _SRUN_LABEL.match(head)
    for pat in _RANK_ORDER:
        m = pat.search(head)
        if m:
            rank = int(m.group("rank"))
            break
    if rank is None and label:
        rank = int(label.group("rank"))
    for pat in _HOST_PATTERNS:
        m = pat.search(head)
        if m and m.group("host"):
            host = m.group("host")
            break
    return Prefix(rank, host, parse_time(head, default_year))


def parse_time(head: str, default_year: int | None = None) -> float | None:
    m = _ISO.search(head)
    if m:
        tz = UTC
        if m.group("tz") and m.group("tz") != "Z":
            raw = m.group("tz").replace(":", "")
            sign = 1 if raw[0] == "+" else -1
            from datetime import timedelta

            tz = timezone(sign * timedelta(hours=int(raw[1:3]), minutes=int(raw[3:5])))
        return _epoch(int(m.group("y")), int(m.group("mo")), int(m.group("d")), m, tz)
    year = default_year or datetime.now(UTC).year
    m = _GLOG.search(head)
    if m:
        return _epoch(year, int(m.group("mo")), int(m.group("d")), m, UTC)
    m = _SYSLOG.search(head)
    if m:
        y = int(m.group("y")) if m.group("y") else year
        return _epoch(y, _MONTHS[m.group("mon")], int(m.group("d")), m, UTC)
    return None


# a time of day with no date ("[07:34:13][INFO]", "21:24:05 rank 3 step 86", "07:34:13.512 INFO"): at the head of a
# line, after any launcher label, on its own (not part of a date, a duration like tqdm's "[00:05<00:05", or a path)
_CLOCK = re.compile(
    r"^(?:\s*\d{1,6}: |\[[^\]\n]{1,40}\]:\s?)*\s*\[?(?P<h>[01]\d|2[0-3]):(?P<mi>[0-5]\d):(?P<s>[0-5]\d)(?:[.,](?P<frac>\d{1,6}))?"
    r"(?=\]|\s|,|\||$)"
)


def parse_clock(head: str) -> float | None:
    """Seconds since midnight of a line's time-of-day stamp when it has no date (see _CLOCK), else None. Only the
    stall rule reads it, against a dated line of the same job (a time limit's)."""
    m = _CLOCK.match(head)
    if m is None:
        return None
    return (
        int(m.group("h")) * 3600 + int(m.group("mi")) * 60 + int(m.group("s")) + float("0." + (m.group("frac") or "0"))
    )


def _epoch(y: int, mo: int, d: int, m: re.Match, tz) -> float | None:
    try:
        frac = m.groupdict().get("frac") or "0"
        dt = datetime(y, mo, d, int(m.group("h")), int(m.group("mi")), min(int(m.group("s")), 59), tzinfo=tz)
    except ValueError:
        return None
    return dt.timestamp() + float("0." + frac)


def year_of(ts: float | None) -> int | None:
    return datetime.fromtimestamp(ts, UTC).year if ts is not None else None


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def rank_from_path(name: str) -> int | None:
    for pat in _RANK_FROM_PATH:
        m = pat.search(name)
        if m:
            return int(m.group("rank"))
    return None


def host_from_path(name: str) -> str | None:
    m = _HOST_FROM_PATH.search(name)
    return m.group("host") if m else None


# a Python exception line and its type: "[rank1]: ConnectionError: ...", "torch.OutOfMemoryError: CUDA out of memory"
EXCEPTION_LINE = re.compile(r"(?:^|[\s:\]])((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): ")

# a traceback's source line that raises ("    raise ConnectionResetError(104, 'Connection reset by peer')"),
# after any launcher prefix: it quotes the code, and no signature should read it as the error it raised
RAISE_LINE = re.compile(rb"^(?:\s*\d{1,6}: |\[(?:rank|default)\d{1,6}\]:)*\s{4,}raise\s")

# torchrun --log-dir's per-worker directories: <log_dir>/<run_id>/attempt_<restart>/<local rank>/std{out,err}.log
TORCHRUN_ATTEMPT = re.compile(r"(?:^|/)attempt_(\d+)/(\d+)/")

# A line saying training finished, as the common stacks print it: the end of a run (`denpex watch`) and a rank
# that went past its earlier errors (_engine.Matcher's look at each source's end). RE2 and Python syntax alike;
# a case-insensitive part says so in its own (?i:...) group.
COMPLETION_MARKERS = [
    r"'train_runtime':",  # Hugging Face Trainer's final metrics
    r"`Trainer\.fit` stopped:",  # Lightning: max_steps / max_epochs reached
    r"after training is done",  # Megatron
    r"worker group successfully finished",  # torchrun's agent
    r"(?i:\b(?:training|train|fit)\s+(?:is\s+)?(?:complete|completed|finished|done)\b)",
    r"(?i:\b(?:finished|done with|completed)\s+training\b)",
    r"(?i:\bfinished\s+\d+\s+(?:steps|epochs|iterations|iters)\b)",  # "finished 60 steps"
    r'"event":\s*"(?:finished|training_complete|done)"',  # a JSON-lines logger's record
    r"(?i:\brun complete(?:d)?\b)",  # "run complete" ({"msg": "run complete", "steps": 50})
    # a rank leaving on its own once its work ran out: "epoch finished after 22 batches, exiting",
    # "no data for this rank, nothing to do -- exiting", "rank 2 exiting normally"
    r"(?i:\b(?:epoch|training|train|loop|data|dataset|shard|work)\s+(?:is\s+)?(?:finished|done|complete|completed|"
    r"exhausted)\b[^\n]{0,60}?\bexiting\b|\bnothing (?:left )?to do\b[^\n]{0,20}?\bexiting\b|\bexiting normally\b)",
    # "reached max_steps for this shard, exiting", "reached the end of its data; exiting"
    r"(?i:\breached (?:max[_ ]?(?:steps|epochs|iters|iterations)|the end of (?:its|the|this) (?:data|shard|epoch))\b"
    r"[^\n]{0,60}?\bexiting\b)",
    # an early-stopping callback ending training by itself: "early stopping: val_loss has not improved",
    # Keras's "Epoch 00012: early stopping", "Early stopping triggered at epoch 7"
    r"(?i:\bearly[ _-]?stopping(?::|\s+(?:triggered|at\b|after\b))|\d:\s*early stopping\b)",
    # a rank's own last word, nothing but "done" after its label: "[rank1]: done", "[rank0] done", "3: done"
    r"(?m:^(?:\[(?:rank|default)\d{1,6}\]:?\s?|\s{0,3}\d{1,6}: )done\.?\s*$)",
]
# RE2 (a linear scan): Python's re tries every alternative at every byte, 4.4 ms for a 64 KB tail against 0.1
_completion_options = re2.Options()
_completion_options.log_errors = False
COMPLETION = re2.compile("|".join(f"(?:{marker})" for marker in COMPLETION_MARKERS).encode(), _completion_options)
