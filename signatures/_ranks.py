"""The job seen rank by rank: who was there, how far each got, how each failed and how each ended.

Built from the scan's events and facts, it is what attribution reasons over: the ranks seen or
implied by the world size, each rank's last training progress, its root and collateral events,
its collective timeouts (with PyTorch's sequence numbers where printed) and its exit as the
launcher saw it. Nothing here decides; it only gathers.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ._events import Event, ScanResult
from ._schema import Signature

FATAL_EXITS = {
    "-9": "SIGKILL",
    "137": "SIGKILL",
    "-11": "SIGSEGV",
    "139": "SIGSEGV",
    "-6": "SIGABRT",
    "134": "SIGABRT",
    "-7": "SIGBUS",
    "135": "SIGBUS",
    "-4": "SIGILL",
    "132": "SIGILL",
    "-8": "SIGFPE",
    "136": "SIGFPE",
}
FORCED = "-9 (forced)"  # torchrun's SIGKILL of a worker that outlived its SIGTERM (see mark_forced_kills)


def _local(text: str) -> bool:
    """A launcher's record naming a worker by its local rank: torchrun's "local_rank: 2 (pid: P)" (and its table's
    "(local_rank: 0)"), torchelastic's ProcessFailure(local_rank=2, pid=P, ...) as an agent logs it."""
    return "local_rank:" in text or "ProcessFailure(local_rank=" in text


TEARDOWN_EXITS = {"-15", "143", "-2", "130", FORCED}  # SIGTERM / SIGINT: the launcher stopping the survivors
SRUN_SIGNALS = {
    "Killed": "-9",
    "Out Of Memory": "-9",
    "Aborted": "-6",
    "Bus error": "-7",
    "Illegal instruction": "-4",
    "Floating point exception": "-8",
}
# mp.spawn's "process 2 terminated with signal SIGKILL" (torch.multiprocessing.spawn.ProcessExitedException)
SRUN_SIGNALS.update(
    {"SIGKILL": "-9", "SIGSEGV": "-11", "SIGABRT": "-6", "SIGBUS": "-7", "SIGILL": "-4", "SIGFPE": "-8"}
)


def exit_code(e: Event) -> str:
    """The exit a launcher event reports, as torchrun writes it ("-9", "1"); srun's words turned into codes."""
    if e.values.get("raised"):  # mp.spawn: the process raised an exception, as Python's exit 1 says
        return "1"
    if e.values.get("forced"):
        return FORCED
    return e.values.get("exitcode") or SRUN_SIGNALS.get(e.values.get("how", ""), "")


FORCED_KILL = "elastic.forced_kill_after_sigterm"


STEP_ABORTED = "slurm.job_step_aborted"
CANCELLED = "slurm.job_cancelled"  # slurmstepd's "*** JOB/STEP ... CANCELLED AT ... ***"


def mark_forced_kills(launcher: list[Event], cancels: list[Event] | None = None) -> list[Event]:
    """torchrun logs "Unable to shutdown process P via 15, forcefully exiting via 9" before it SIGKILLs a worker
    that outlived its SIGTERM: that worker's exit -9 is the launcher's teardown, not the OOM killer (exit_code
    says FORCED). So is srun's "task N: Killed" after other tasks had exited with an error and srun had aborted
    the step ("Job step aborted: Waiting up to N seconds", or slurmstepd's "*** STEP J.S ON host CANCELLED AT t
    ***" among `cancels`, the scheduler's cancel records): the task outlived the step it was tearing down."""
    forced = {e.values.get("pid") for e in launcher if e.sig_id == FORCED_KILL}
    steps = [e for e in cancels or () if _STEP_CANCELLED.search(e.text)]
    torn = {(e.source_index, e.line) for e in _srun_torn_down(launcher + steps)}
    if not forced and not torn:
        return launcher
    return [
        dataclasses.replace(e, values={**e.values, "forced": "1"})
        if e.sig_id != FORCED_KILL
        and (e.values.get("pid") in forced or (e.source_index, e.line) in torn)
        and exit_code(e) in ("-9", "137")
        else e
        for e in launcher
    ]


def _srun_torn_down(launcher: list[Event]) -> list[Event]:
    """srun's records of tasks killed after, in the same source, another task's own error exit and then srun's
    step abort."""
    exited: set[int] = set()  # sources where a task exited with an error of its own ...
    aborted: set[int] = set()  # ... and srun then aborted the step
    out = []
    for e in sorted(launcher, key=lambda e: (e.source_index, e.line)):
        src, code, srun = e.source_index, exit_code(e), "srun: error:" in e.text
        if srun and code in ("-9", "137") and src in aborted:
            out.append(e)
        if srun and code.isdigit() and code != "0":
            exited.add(src)
        elif e.sig_id in (STEP_ABORTED, CANCELLED) and src in exited:  # the cancels are steps' (mark_forced_kills)
            aborted.add(src)
    return out


# slurmstepd cancelling one step, with no reason given (a preemption or requeue says DUE TO ...): srun's teardown of
# the step after a task failed ("srun --kill-on-bad-exit", or srun's default on a task's error exit)
_STEP_CANCELLED = re.compile(r"\*\*\* STEP \d+(?:_\d+)?\.\w+ ON [\w.-]+ CANCELLED AT \S+ \*\*\*")


def killed_pids(events: list[Event], sigs: dict[str, Signature]) -> list[Event]:
    """The kernel's OOM kill names a pid ("Memory cgroup out of memory: Killed process 29998 (python3)"); a launcher's
    record of a worker that ended names its rank with the same pid ("failed (exitcode: -9) local_rank: 0 (pid:
    29998)"): the kill is that rank's, and happened before the launcher saw it (dmesg's seconds since boot are no
    wall-clock time)."""
    ended: dict[str, Event] = {}
    for e in events:
        if e.rank is not None and e.values.get("pid") and "launcher-exit" in sigs[e.sig_id].tags:
            ended.setdefault(e.values["pid"], e)
    if not ended:
        return events
    out = []
    for e in events:
        w = ended.get(e.values.get("pid", "")) if e.rank is None and sigs[e.sig_id].cls == "host_oom_killed" else None
        if w is not None:
            e = dataclasses.replace(e, rank=w.rank, eff_time=e.eff_time if e.time is not None else w.at)
        out.append(e)
    return out


def global_ranks(events: list[Event], progress: Iterable[tuple[int, int | None]] = ()) -> list[Event]:
    """torchrun's agent names a failed worker by its local rank ("failed (exitcode: 1) local_rank: 0 (pid: P)"),
    its failure table by its global rank ("rank : 1 (local_rank: 0)") with the same pid; on several nodes they
    differ, and the table's is the rank. Without a table, an agent's console whose workers' own lines name
    ranks b..b+n-1 (b > 0: not the first node) holds local rank L's lines as rank b+L (see node_ranks)."""
    table = {
        e.values["pid"]: e.rank for e in events if e.rank is not None and e.values.get("pid") and not _local(e.text)
    }
    nodes = node_ranks(events, progress)
    offsets = tee_offsets(events)
    if not table and not nodes and not offsets:
        return events
    # each agent's console: local rank -> global rank, from its "failed ... local_rank: L (pid: P)" and its table
    local: dict[tuple[int, int], int] = {}
    for e in events:
        if _local(e.text) and e.rank is not None and e.values.get("pid") in table:
            local[(e.source_index, e.rank)] = table[e.values["pid"]]
    out = []
    for e in events:
        if _local(e.text) and table.get(e.values.get("pid", ""), e.rank) != e.rank:
            e = dataclasses.replace(e, rank=table[e.values["pid"]])
        elif (
            _local(e.text)
            and e.values.get("pid") not in table
            and e.rank is not None
            and e.rank < len(nodes.get(e.source_index, ()))
        ):
            e = dataclasses.replace(e, rank=nodes[e.source_index][e.rank])
        elif (
            e.rank is not None
            and (e.source_index, e.rank) in local
            and _LOCAL_PREFIX.match(e.text)
            and "[rank" not in e.text[:TEE_HEAD]
        ):  # torchrun's tee prefix "[default0]:" is the local rank; on the second node it is not the global one
            e = dataclasses.replace(e, rank=local[(e.source_index, e.rank)])
        elif (
            e.rank is not None
            and e.source_index in offsets
            and (tee := _tee_local(e.text)) is not None
            and (e.rank < offsets[e.source_index] or tee == e.rank)
            and "[rank" not in e.text[:TEE_HEAD]
        ):  # a node with more workers than the nodes before it: "[default2]:" is rank offset + 2 there too
            e = dataclasses.replace(e, rank=offsets[e.source_index] + e.rank)
        out.append(e)
    return out


def _tee_local(text: str) -> int | None:
    """The local rank of torchrun's "[defaultL]:" tee prefix at the line's start, if it has one."""
    found = _LOCAL_PREFIX.match(text)
    return int(found.group(1)) if found else None


_TEE_PAIR = re.compile(r"^\[default(\d{1,6})\]:\[rank(\d{1,6})\]:")


def tee_offsets(events: list[Event]) -> dict[int, int]:
    """Per source that is a later node's torchrun console with --tee: the global rank of its local rank 0, from its
    lines that carry both torchrun's "[defaultL]:" and PyTorch's "[rankG]:" (G - L, the same on every such line and
    above 0). A line with only "[defaultL]:" there is rank G - L + L, and L below that offset is never a global rank
    of that node's workers."""
    seen: dict[int, set[int]] = {}
    for e in events:
        found = _TEE_PAIR.match(e.text)
        if found:
            seen.setdefault(e.source_index, set()).add(int(found.group(2)) - int(found.group(1)))
    return {source: next(iter(found)) for source, found in seen.items() if len(found) == 1 and min(found) > 0}


# the scan's facts kept per (source index, rank), whose rank a later node's tee prefix gives as a local one
_PER_RANK_FACTS = (
    "progress",
    "finished",
    "last_words",
    "pace",
    "losses",
    "finished_at",
    "stacks",
    "end_values",
    "clocks",
)


def global_facts(scan: ScanResult) -> ScanResult:
    """The scan's per-rank facts with a later node's local ranks (its tee prefix alone) read as global ones, as
    global_ranks reads its events (see tee_offsets); a fact its rank already had under the global rank is kept."""
    offsets = tee_offsets(scan.events)
    if not offsets:
        return scan
    changed: dict[str, Any] = {}
    for name in _PER_RANK_FACTS:
        facts: dict[tuple[int, int | None], Any] = getattr(scan, name)
        remapped: dict[tuple[int, int | None], Any] = {}
        for (source, rank), value in facts.items():
            if rank is not None and rank < offsets.get(source, 0):
                remapped.setdefault((source, offsets[source] + rank), value)
        if remapped:
            kept = {
                key: value
                for key, value in facts.items()
                if not (key[1] is not None and key[1] < offsets.get(key[0], 0))
            }
            changed[name] = {**remapped, **kept}
    return dataclasses.replace(scan, **changed) if changed else scan


def node_ranks(events: list[Event], progress: Iterable[tuple[int, int | None]]) -> dict[int, list[int]]:
    """Per source that reads like one torchrun agent's console on a later node: the global ranks of its workers
    in local-rank order. They are the ranks its own lines name (events and training progress, the agent's
    "local_rank:" records aside) when those are consecutive and start at a multiple of their number (greater
    than 0): a second node's console with ranks 2 and 3 in it. A source naming rank 0, ranks with a gap, or
    ranks 1-3 (a first node whose rank 0 printed nothing), maps nothing."""
    named: dict[int, set[int]] = {}
    for e in events:
        if e.rank is not None and not _local(e.text):
            named.setdefault(e.source_index, set()).add(e.rank)
    for source, rank in progress:
        if rank is not None:
            named.setdefault(source, set()).add(rank)
    agents = {e.source_index for e in events if _local(e.text) and e.rank is not None}
    out: dict[int, list[int]] = {}
    for source in agents:
        ranks = sorted(named.get(source, ()))
        # a later node starts at a multiple of its size: ranks 1-3 alone are a first node whose rank 0 was quiet
        if ranks and ranks[0] >= len(ranks) and ranks[0] % len(ranks) == 0 and ranks[-1] - ranks[0] == len(ranks) - 1:
            out[source] = ranks
    return out


_LOCAL_PREFIX = re.compile(r"^\[default(\d{1,6})\]:")
TEE_HEAD = 64  # characters at a line's start where torchrun's "[defaultN]:" and PyTorch's "[rankN]:" stand


SPAWN_SECTION = 200  # lines after mp.spawn's "-- Process N terminated with the following error:" that are N's


_NUMBERED = re.compile(r"^(?P<stem>.*?)(?P<n>\d{1,5})(?P<ext>(?:\.[A-Za-z]\w{0,7})*)$")


def numbered_sources(names: list[str]) -> dict[str, int]:
    """Per-task files named alike but for a last number counting from 0 (srun's `-o %x-%j-%t.out`:
    train-42-0.out, train-42-1.out, ...): source name -> that number, the task's rank. A group must hold at
    least two files whose numbers are exactly 0..N-1, so a lone `slurm-4242.out` names no rank."""
    groups: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for name in names:
        m = _NUMBERED.match(name)
        if m:
            groups.setdefault((m["stem"], m["ext"]), []).append((int(m["n"]), name))
    out: dict[str, int] = {}
    for members in groups.values():
        numbers = sorted(n for n, _ in members)
        if len(members) >= 2 and numbers == list(range(len(numbers))):
            out.update((name, n) for n, name in members)
    return out


_SRUN_TASK = re.compile(r"\bsrun: error: [\w.-]+: task (\d{1,6}): ")
# vLLM's worker processes prefix their lines with their place in the parallel layout, naming only the dimensions
# larger than 1 (vllm/v1/executor/multiproc_executor.py, WorkerProc's process name): "(Worker_PP3 pid=200085)",
# "(Worker_DP0_TP0_EP0 pid=1539019)". A name with one dimension is read as a prefix (_lines._RANK_PATTERNS); one
# whose every index is 0 is rank 0 in any layout, which a prefix's digits cannot say (its span must not depend on
# their values)
_VLLM_ALL_ZERO = re.compile(r"\((?:Diffusion)?Worker(?:_(?:DP|PP|PCP|SP|CFG|TP|DCP|EP|FS)0)+ pid=\d")


def text_ranks(events: list[Event]) -> list[Event]:
    """An event with no rank whose own line still names one: srun's report of one task's end ("srun: error: node3:
    task 2: Segmentation fault", a range of tasks names none), read here rather than by each signature's regex (a
    regex that reads a rank sends every line of its shape through the scan one by one); a vLLM worker whose name's
    every index is 0 ("(Worker_DP0_TP0_EP0 pid=9)"), rank 0."""
    out = []
    for e in events:
        if e.rank is None:
            if (found := _SRUN_TASK.search(e.text)) is not None:
                e = dataclasses.replace(e, rank=int(found.group(1)))
            elif "Worker" in e.text[:120] and _VLLM_ALL_ZERO.search(e.text[:200]):
                e = dataclasses.replace(e, rank=0)
        out.append(e)
    return out


def task_file_ranks(events: list[Event], sources: list[str], named: dict[str, set[int]] | None = None) -> list[Event]:
    """Events with no rank in per-task files numbered by task (see numbered_sources) take the file's number.
    `named`: the ranks each source's progress lines name."""
    numbered = numbered_sources(sources)
    # a group whose files name other ranks, in its events or its progress lines, is numbered by something else
    # (node0.out, node1.out: one torchrun agent per node, each with several workers): its numbers are not ranks
    foreign = {
        _NUMBERED.sub(r"\g<stem>\g<ext>", e.source)
        for e in events
        if e.source in numbered and e.rank is not None and e.rank != numbered[e.source]
    } | {
        _NUMBERED.sub(r"\g<stem>\g<ext>", name)
        for name, ranks in (named or {}).items()
        if name in numbered and ranks - {numbered[name]}
    }
    numbered = {name: n for name, n in numbered.items() if _NUMBERED.sub(r"\g<stem>\g<ext>", name) not in foreign}
    if not numbered:
        return events
    return [
        dataclasses.replace(e, rank=numbered[e.source]) if e.rank is None and e.source in numbered else e
        for e in events
    ]


def spawned_ranks(events: list[Event]) -> list[Event]:
    """mp.spawn prints the failed process's traceback under "-- Process N terminated with the following error:"
    with no rank on its lines: an event there without a rank is process N's (until the next such header)."""
    headers = sorted((e.source_index, e.line, e.rank) for e in events if e.values.get("raised") and e.rank is not None)
    if not headers:
        return events
    out = []
    for e in events:
        if e.rank is None:
            i = bisect_right(headers, (e.source_index, e.line, -1)) - 1
            if i >= 0 and headers[i][0] == e.source_index and 0 < e.line - headers[i][1] <= SPAWN_SECTION:
                e = dataclasses.replace(e, rank=headers[i][2])
        out.append(e)
    return out


_TABLE_EXIT = re.compile(r"^\s+exitcode\s*:\s*-?\d")
TABLE_ENTRY = 120  # lines after a failure-table entry's "exitcode :" that can be its traceback


def table_ranks(events: list[Event]) -> list[Event]:
    """torchrun's failure table ("Failures:" / "Root Cause (first observed failure):") gives each failed worker an
    entry: "rank : R (local_rank: L)", "exitcode : C (pid: P)", then, when the worker wrote an error file, its
    traceback indented under "traceback :". An indented event with no rank after an entry's exit line (and
    before the next entry's) is rank R's: a lost peer there is R's knock-on, not a rank nobody can name."""
    heads = sorted((e.source_index, e.line, e.rank) for e in events if e.rank is not None and _TABLE_EXIT.match(e.text))
    if not heads:
        return events
    out = []
    for e in events:
        if e.rank is None and e.text[:1].isspace():
            i = bisect_right(heads, (e.source_index, e.line, -1)) - 1
            if i >= 0 and heads[i][0] == e.source_index and 0 < e.line - heads[i][1] <= TABLE_ENTRY:
                e = dataclasses.replace(e, rank=heads[i][2])
        out.append(e)
    return out


def noticed_line(exits: list[Event]) -> dict[int, float]:
    """torchrun's failure table lists the other failed workers ("Failures:") before the one its agent saw fail
    first ("Root Cause (first observed failure):"), so the entry printed last came first. The entries' "[N]:"
    numbers are their places in the agent's list of failures, not the order it saw them (the Root Cause can be
    "[1]:"): the table patterns capture the Root Cause header above an entry instead. Per Root Cause entry (by id)
    whose table's other entries are printed above it: the line to order the launcher's records by, just above its
    table's first entry. Entries of one source no more than TABLE_ENTRY lines apart are one table, which ends at its
    Root Cause entry (several agents' tables in one file follow each other); an entry whose header was cut off the
    paste is left where it is. Give it every table entry of the source (the launcher's records, not a subset): a
    table's first entry is where its Root Cause goes."""
    entries = sorted((e for e in exits if _TABLE_EXIT.match(e.text)), key=lambda e: (e.source_index, e.line))
    out: dict[int, float] = {}
    table: list[Event] = []
    for e in entries:
        if table and (e.source_index != table[-1].source_index or e.line - table[-1].line > TABLE_ENTRY):
            table = []
        table.append(e)
        if e.values.get("root_cause"):  # the Root Cause entry, printed last: its table ends here
            if len(table) > 1:
                out[id(e)] = table[0].line - 0.5
            table = []
    return out


def same_table(a: Event, b: Event) -> bool:
    """Both are entries of one torchrun failure table (of one source, no more than TABLE_ENTRY lines apart)."""
    return (
        _TABLE_EXIT.match(a.text) is not None
        and _TABLE_EXIT.match(b.text) is not None
        and a.source_index == b.source_index
        and abs(a.line - b.line) <= TABLE_ENTRY
    )


def same_second(event: Event, launcher: list[Event]) -> list[int]:
    """The other ranks torchrun's failure table saw end on their own in the same (whole) second as `event`'s entry:
    the table's times cannot order them, and its Root Cause is then only one of them."""
    if not _TABLE_EXIT.match(event.text) or event.at is None:
        return []
    return sorted(
        {
            w.rank
            for w in launcher
            if w.rank is not None
            and w.rank != event.rank
            and w.source_index == event.source_index
            and _TABLE_EXIT.match(w.text)
            and failed_on_its_own(w)
            and w.at == event.at
        }
    )


LATE_KILL = 2.0  # seconds: a table's times are whole seconds, so a kill one second after an exit may have come first


def late_table_kills(exits: list[Event]) -> set[int]:
    """torchrun's failure table gives each entry the time the agent saw it end. A worker killed by a signal at least
    LATE_KILL seconds after another worker of the same table had already ended on its own with an error (exit 1 at
    13:02:58, SIGKILL at 13:03:29: the agent's SIGKILL of a worker that outlived the SIGTERM it sent on the first
    failure) came after the failure, not before it. Those entries, by id."""
    entries = [e for e in exits if _TABLE_EXIT.match(e.text) and e.at is not None]
    own: dict[int, float] = {}  # per source, the first time an entry ended on its own without a signal
    for e in entries:
        if failed_on_its_own(e) and exit_code(e) not in FATAL_EXITS and e.at is not None:
            own[e.source_index] = min(own.get(e.source_index, e.at), e.at)
    return {
        id(e)
        for e in entries
        if e.source_index in own and FATAL_EXITS.get(exit_code(e)) and (e.at or 0.0) - own[e.source_index] >= LATE_KILL
    }


def failed_on_its_own(e: Event) -> bool:
    """A launcher's record of a rank ending non-zero by itself (not stopped by the launcher)."""
    return exit_code(e) not in ("", "0") and exit_code(e) not in TEARDOWN_EXITS


@dataclass
class Progress:
    source: str
    line: int
    step: int | None
    time: float | None


@dataclass
class Exit:
    """How the launcher saw a rank end."""

    code: str  # "-9", "1", "0"
    signal: str | None  # "SIGKILL" for a fatal signal
    event: Event
    order: int  # the launcher's order of noticing (0 first)


@dataclass
class RankState:
    rank: int
    sources: set[str] = field(default_factory=set)
    progress: Progress | None = None  # the last training step seen
    roots: list[Event] = field(default_factory=list)
    collateral: list[Event] = field(default_factory=list)
    timeouts: list[Event] = field(default_factory=list)  # collective timeouts (nccl_timeout class)
    exit: Exit | None = None
    finished: tuple[str, int] | None = None  # (source, line) of the last line saying it finished training
    loss: tuple[str, int, float] | None = None  # (source, line, value) of its last loss reading

    @property
    def last_completed(self) -> int | None:
        """The highest 'last completed' collective sequence number this rank printed, if any."""
        seen = [
            int(e.values["last_completed"])
            for e in self.timeouts
            if e.values.get("last_completed", "").lstrip("-").isdigit()
        ]
        return max(seen) if seen else None


@dataclass
class JobView:
    ranks: dict[int, RankState]
    world_size: int | None  # as printed (world_size=, WORLD_SIZE, nranks), when it was
    implied: set[int]  # ranks expected by the world size or by numbering, never seen
    # (rank, collective sequence number) -> the process group ProcessGroupNCCL's lines name for that timeout
    groups: dict[tuple[int, str], str] = field(default_factory=dict)
    hosts: set[str] = field(default_factory=set)  # every host a line of the job named

    @property
    def expected(self) -> set[int]:
        return set(self.ranks) | self.implied


_TASK_LIST = re.compile(r"\btasks (\d+(?:[-,]\d+)+): ")


def task_ranks(text: str, rank: int) -> list[int]:
    """The ranks of srun's task list in `text` ("tasks 0,2", "tasks 1-3,5"), else [rank]; at most 4,096."""
    found = _TASK_LIST.search(text)
    if not found:
        return [rank]
    ranks: list[int] = []
    for part in found.group(1).split(","):
        lo, _, hi = part.partition("-")
        first, last = int(lo), int(hi or lo)
        ranks += range(first, min(last, first + 4096) + 1)
    return sorted(set(ranks))[:4096] if rank in ranks else [rank]


def build_view(scan: ScanResult, sigs: dict[str, Signature]) -> JobView:
    states: dict[int, RankState] = {}

    def state(rank: int) -> RankState:
        return states.setdefault(rank, RankState(rank))

    for seen in scan.ranks:
        state(seen)
    for (source_index, rank), (line, step, time) in scan.progress.items():
        if rank is None:
            continue
        s = state(rank)
        source = scan.sources[source_index] if source_index < len(scan.sources) else str(source_index)
        if (
            s.progress is None
            or (time is not None and (s.progress.time or 0) <= time)
            or (time is None and s.progress.time is None and (s.progress.step or 0) <= (step or 0))
        ):
            s.progress = Progress(source, line, step, time)
    for (source_index, rank), (line, value) in scan.losses.items():
        if rank is not None:
            source = scan.sources[source_index] if source_index < len(scan.sources) else str(source_index)
            s = state(rank)
            if s.loss is None or s.loss[0] != source or s.loss[1] < line:
                s.loss = (source, line, value)
    for (source_index, rank), line in scan.finished.items():
        if rank is not None:
            source = scan.sources[source_index] if source_index < len(scan.sources) else str(source_index)
            state(rank).finished = (source, line)
    order = 0
    for e in scan.events:
        if e.rank is None:
            continue
        sig = sigs[e.sig_id]
        s = state(e.rank)
        s.sources.add(e.source)
        if sig.role == "root":
            s.roots.append(e)
        elif sig.role == "collateral":
            s.collateral.append(e)
            if sig.cls == "nccl_timeout":
                s.timeouts.append(e)
        elif exit_code(e) and s.exit is None:
            code = exit_code(e)
            signal = FATAL_EXITS.get(code) or (
                e.values.get("signal") if e.values.get("signal") in FATAL_EXITS.values() else None
            )
            for rank in task_ranks(e.text, e.rank):  # srun's "tasks 1-2: Exited ..." is each task's exit
                if state(rank).exit is None:
                    state(rank).exit = Exit(code, signal, e, order)
            order += 1
    implied: set[int] = set()
    world = scan.world_size
    if world and world <= 100000:
        implied |= set(range(world)) - set(states)
    elif states:
        implied |= set(range(max(states) + 1)) - set(states)  # ranks count from 0: gaps are ranks too
    groups: dict[tuple[int, str], str] = {}
    lines = [(x.rank, x.text) for kept in scan.errorlike.values() for x in kept] + [
        (e.rank, e.text) for e in scan.events
    ]
    for rank, text in lines:
        found = _PG_AT_SEQ.search(text)
        if found and rank is not None:
            groups.setdefault((rank, found.group("seq")), found.group("pg"))
    return JobView(states, world, implied, groups, set(scan.hosts))


# ProcessGroupNCCL's lines after a watchdog timeout name its group and the work: "[PG ID 0 PG GUID 0(default_pg)
# Rank 3]  failure detected by watchdog at work sequence id: 7219", "[PG 1 Rank 0] Timeout at NCCL work: 1580",
# "[PG 0 (default_pg) Rank 7] Exception (either an error or timeout) detected by watchdog at work: 80078"
_PG_AT_SEQ = re.compile(
    r"\[PG (?:ID )?(?P<pg>\d+)\b[^\]\n]{0,80}\bRank \d+\][^\n]{0,120}?"
    r"(?:work sequence id|Timeout at NCCL work|detected by watchdog at work):? (?P<seq>\d+)"
)
