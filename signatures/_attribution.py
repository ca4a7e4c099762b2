"""From events to a diagnosis: which failure started it, which rank, what is noise, and why.

Which failure (in order):
1. A `fallback` signature (the generic uncaught-exception one) yields to any other signature that
   fired within a few lines on the same rank; an exception the rank survived (training progress on
   that rank continues after it) is not a failure at all, nor is an error programs commonly catch and
   retry (signatures tagged `recoverable`) there. A launcher agent's line naming no rank that lost the store or the
   rendezvous after every rank said training finished is the agents shutting down, not a failure.
2. Teardown is never the cause: a scheduler cancelling the step or a launcher's SIGTERM that comes
   after a rank already failed on its own (a root error, a non-zero exit) is the launcher's doing.
3. An absence event (a save that never completed) is dropped when an explicit root failure follows
   it in the same source: that failure is why it stopped.
4. The initiating failure is the earliest root event across ranks; root events close to it (same
   rank, same burst) compete on the signature's priority, so a disk-full beats the checkpoint
   exception that wraps it and a specific error beats a generic one.
5. With no root event, a rank the launcher saw die of a fatal signal (SIGKILL, SIGSEGV, SIGABRT,
   SIGBUS, SIGILL) is the diagnosis, with the others' timeouts as its knock-on (unless the others name it
   as a lost peer, which then is the finding, pointing at it); else the earliest collateral event
   (a watchdog timeout with nothing before it is the finding; collective timeouts on some ranks explain
   lost peers on the others, whose peer exited after its timeout, unless a lost peer is stamped before
   every timeout); else the launcher's record alone
   (`launcher-exit` signatures: the exit code's meaning is the diagnosis), one that names a rank before one that
   does not (DeepSpeed's launcher prints the last command it started, not the failed one's).

Which rank (the first rule that applies; `rule` and `confidence` in the report say which):
- `explicit_root`: the initiating event names its rank (high; a kernel OOM kill names a pid, and the launcher's
  record of the worker with that pid names the rank, _ranks.killed_pids); or a gathered exception every rank printed
  (torch.distributed.checkpoint's "CheckpointException ranks:dict_keys([2])") lists one rank alone (high).
- `collective_odd_one_out`: a mismatch report names the rank that differs (high; low when a single report
  names the first rank its reporter checks, which reads the same whichever of the two differs); or every rank
  timed out, all but one inside the same collective and that one inside another (medium); or, with knock-on
  only, the ranks' tracebacks (timeouts and lost peers alike) show all but one in the same collective (medium;
  DDP's gradient all-reduce from autograd's backward counts as one; when the one is inside a receive whose code
  line names its source as a number, `recv(t, src=2)`, and that rank is among the rest, the sender that went on
  without sending is named). Found from the tracebacks of timeouts or lost
  peers, the finding becomes `c10d.ranks_in_different_collectives` (class collective_mismatch): the ranks called
  different collectives, and the timeouts are its knock-on (_as_divergence).
- `odd_value_out`: a mismatch report names no rank, but the ranks' last lines do: one rank printed a different
  number where every other rank printed the same one in the same line (_oddity.odd_value) (medium); for a lost
  peer, or a timeout every rank reported alike, with nothing else to tell which, that rank ("running eval: 5
  batches" where the others ran 4), or the rank whose stack in the dumps at the end differs (`odd_stack_out`) (low).
- `skipped_collective`: a mismatch report names no rank, and one rank's last line says it skipped a collective or
  a sync ("skipping metric sync") the others then ran (_oddity.odd_skip) (medium).
- `mismatch_reporter`: one rank alone reported a mismatch that names no other rank, and failed on it (low).
- `interrupted_elsewhere`: a stop (torchrun forwarding a Ctrl-C) whose KeyboardInterrupt tracebacks caught every
  rank but one inside a torch.distributed call and that one elsewhere, with no step logged in the 30 s before it
  (medium; low when the steps are not timed): the job was hung on that rank (class job_hang_no_progress).
- `stalled_before_limit`: every root failure is a time limit (or a stop from outside that gives no reason: a
  scancel, timeout(1)'s SIGTERM; then the finding is `job.stopped_after_stall`), and no rank had logged a step for 20 of its usual
  intervals (and 30 s) before it struck: the job was hung (class job_hang_no_progress, see _stall), on the one rank
  whose last line came after the last step every rank logged (medium), or else the one rank whose stack in the
  dumps printed as the job was killed differs from the others' (_oddity.odd_stack) (medium); rank null (low) when
  all fell silent alike, unless one rank's helper thread had died before the stop (an exception its rank trained
  past on what the thread had queued): that exception is then the root, on its rank (_stall.thread_died_before_stall).
- `recovered_rank`: the first line named none, but the same failure's other lines in its burst, or
  the launcher's record of the one rank that failed on its own (a rank whose own errors are knock-on
  timeouts or lost peers did not fail on its own), do (medium); or the launcher saw one rank fail on
  its own at least 5 s before any other (low); or every rank but one reported only the knock-on
  (medium: an exception in a thread, printed with no rank, leaves its rank silent). torchrun's
  "local_rank" records are read as global ranks through the pid of its failure table, or, on a later
  node's console without one, through the ranks that console's workers name (_ranks.global_ranks); the
  tracebacks inside that table are the rank of their entry (_ranks.table_ranks). Failing those, the first
  error line after it in the same source that names a rank, when that line starts a Python traceback or is an
  exception (a CUDA kernel's assertion printed without a prefix, then `[rank0]: Traceback ...`) (low).
- `preempted_node`: a launcher's stop signal (class preemption_sigterm, job-wide) reached one node only: every
  report of it is in one source of several, and one rank logged there: that rank (medium).
- `differ_at_seq`: ranks' NCCL watchdog timeouts at one sequence number (the same call of the group) name
  different operations or sizes (WorkNCCL's OpType, NumelIn): the ranks were not running the same collective. The
  rank alone in its call against two or more that agree (high), else no rank (medium); the finding becomes
  `nccl.ranks_differ_at_same_collective` (class collective_mismatch), the timeouts its knock-on.
- `stalled_while_logging`: no failure in the log, but every rank's training progress stopped 20 of its
  intervals (and 30 s) before the end while each rank went on printing timed lines naming the step it was at
  (a heartbeat), and nothing said training finished: a log copied while the job hung (class
  job_hang_no_progress, `train.progress_stalled`, rank null, medium; see _stall.stalled_while_logging).
- `node_lost`: training had begun, ranks lost a peer, no rank failed or was seen to exit on its own, and a node's own log stops
  mid-training with no error, no completion and no launcher record (medium; rank named when that node had one
  rank, else null); or, without that log, a restart's rendezvous then timed out (low). The finding becomes
  `elastic.node_lost` (class node_failure, see _vanished), the lost peers and the rendezvous timeout its knock-on.
- `killed_alone`: as node_lost, but a rank that lost its peer was started by the same torchrun agent as the silent
  one (the same --log-dir attempt directory): the node and its launcher outlived it, so that process alone was
  killed without a word, most often by the OOM killer (low; `process.killed_alone`, class host_oom_killed).
- `traceback_cut`: no failure but a Python traceback the log ends inside, cut before its exception line: a Python
  exception on the rank that printed it (`python.traceback_cut`, class python_exception_other, low).
- `launcher_fatal_signal`: the launcher saw that rank die of a signal before the others failed (high); also when
  every failure of the ranks' own came more than a second after that kill (an elastic restart that then failed
  to connect).
- `launcher_exit`: only the launcher's record exists (medium for a signal, low for an exit code); or ranks lost
  a peer and the launcher saw exactly one other rank end on its own (an exit code, like timeout(1)'s 124) (medium);
  or a launcher's record of a process killed by a signal that names no rank (DeepSpeed's), above every knock-on
  failure: it is the root, with no rank.
- `finished_early`: ranks lost a peer, and exactly one other rank said it stopped training on its own
  (early stopping, "training finished": a completion line) before: it left (medium); or torchrun's failure table
  lists every rank of the known world size but one, which reported nothing: it had exited 0 (_left_unlisted)
  (medium); or every rank timed out and exactly one had said it finished before its own timeout: it ran out of
  data first (medium).
- `silent_rank`: every rank expected (seen, or implied by the world size or by numbering) reported
  the collective timeout except one (high with a world size, medium otherwise). A monitored barrier's report that names one rank
  as never arriving ("Ranks 3 failed to pass monitoredBarrier") names it outright (high). A SIGTERM a rank was sent when
  the job was ended (teardown, preemption_sigterm) is not its report, nor its own failure. A time limit that
  came long after the ranks stopped and after two or more ranks' knock-on is teardown (_stall.failed_before_limit),
  and so is a step cancel printed under a collective timeout in the same task's file (srun -K after the timeout).
  When several ranks did not report it (a launcher stopped them first), the one whose last word is not its last
  step while the others' is (a "flushing..." line, then nothing) is named (low, _oddity.went_elsewhere).
- `behind_in_sequence`: the timeouts print PyTorch's collective sequence numbers and one rank
  completed fewer than the others (medium: a rank stuck inside a collective shows the previous one).
- `device_index`: the line names no rank and nothing above tells which, but it names the GPU it happened on ("GPU 1
  has a total capacity"), in a job of several processes (a world size, a launcher's records, a traceback through
  torch.distributed, DeepSpeed or Accelerate, or another such line naming another GPU): launchers give each process
  the GPU of its local rank, so that local rank (low). GPU 0 alone is not read so (with one GPU visible per task,
  every rank says GPU 0).
- `progress_stopped_first`: among ranks whose training progress is known, one stopped well before
  the others (low).
- `first_sign` (a value every rank shares, like a gradient norm another rank printed at the same step, is no
  rank's own sign): every rank failed the same way, but one rank alone showed the same class of trouble first
  (a count rule's first match below its threshold, like one non-finite loss) (medium); or each rank's first sign
  names a training step and one rank's is earlier than every other rank's ("step 10 loss nan" where the others'
  first is at step 12) (medium); or one rank stopped the
  job on a check of a value reduced over all ranks (a non-finite global loss) that another rank alone had
  printed going bad first (medium); or, for a numerics failure on every rank, one rank's own failure alone reports a
  non-finite value where the others' are finite ("local=nan"), or its last logged loss alone is 1,000 times the
  others' (medium).
- `all_alike`: every rank failed the same way: no single rank started it (rank null).
- `absent_rank`: a rendezvous failed and exactly one rank of the world size never printed a line: the
  others waited for it (medium); or one rank alone could not reach the store while the others reached it and
  gave up waiting for it (a wrong MASTER_ADDR on that rank) (medium, _alone_unreachable).
- `pending_on_one_rank`: a save that one rank writes for the job (a plain torch.save on rank 0: signatures
  tagged `one-writer`; not a DCP, Megatron or DeepSpeed save, where every rank writes) was started by one
  rank only and never completed, in a job of several ranks: that rank (medium). A save that is a rank's last
  word, alone no evidence (an excerpt may end there), counts when that rank is silent and the others report
  the knock-on; so does any save (DCP's included) that one rank alone started, when that rank then reported
  nothing while the others reported the knock-on (medium).
- `job_wide`: the failure is the job's, not a rank's (preemption, time limit, rendezvous; a rendezvous that
  waited for a rank, or an agent that lost the store, after another rank failed on its own is that failure's
  knock-on).
- `odd_stack_out`: no rank failed on its own, the launcher saw at least two ranks end by a signal (a stall
  watchdog's abort, a kill), and the stacks they printed show the others waiting inside a collective and one rank
  elsewhere: the job hung there (`train.stack_dump_collective_wait`, job_hang_no_progress, _dumped_hang) (medium);
  the same when the job was cancelled or preempted after its steps had stopped (the stacks dumped, then a cancel);
  or every rank failed alike (or timed out alike), but the stacks printed at the end (faulthandler,
  py-spy) show one rank's main thread somewhere the others' are not (_oddity.odd_stack) (medium); for a lost peer
  with nothing else to go on, low (as `odd_value_out`).
- `peer_unknown`: a lost-peer report with no way to tell which peer went (rank null, low); or a log of one rank
  alone whose only failure is a knock-on (a timeout, a lost peer): the rank it waited on is not in the log.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import re
import statistics
from dataclasses import dataclass
from functools import lru_cache

from ._compiled import _Lazy
from ._events import Event, ScanResult
from ._library import Library
from ._lines import EXCEPTION_LINE, MPI_TAG, PREFIX_CHARS, TORCHRUN_ATTEMPT
from ._mismatch import differ_at_seq, in_another_collective, odd_one_out, went_its_own_way
from ._oddity import Oddities
from ._ranks import (
    FATAL_EXITS,
    TEARDOWN_EXITS,
    JobView,
    build_view,
    exit_code,
    failed_on_its_own,
    global_ranks,
    killed_pids,
    mark_forced_kills,
    spawned_ranks,
    table_ranks,
    task_file_ranks,
)
from ._refine import refine
from ._schema import Pattern, Signature
from ._stall import (
    STALLED,
    STALLED_LIVE,
    STOPPED,
    failed_before_limit,
    limit_time,
    stalled_until_limit,
    stalled_while_logging,
    stopped_before,
    thread_died_before_stall,
)
from ._trend import step_of
from ._vanished import KILLED_ALONE, NODE_LOST, node_lost
from ._why import Attribution, Reason, rank_list

FALLBACK_WINDOW = 12  # lines: a generic exception this close to a specific one is the same failure
BURST_LINES = 400
BURST_SECONDS = 60.0
MAX_EXTRA_DIAGNOSES = 4
STOPPED_EARLY_SECONDS = 30.0  # a rank whose progress stopped this long before the others' did stands out


@dataclass
class Finding:
    sig: Signature
    event: Event  # the initiating event
    events: list[Event]  # every kept event of this signature
    ranks: list[int]
    count: int
    initiating_rank: int | None
    promoted: bool  # a collateral signature standing in as the diagnosis
    related: list[Event]  # other root events in the same burst
    collateral: list[dict]
    launcher: list[Event]
    attribution: Attribution | None = None


def _time_key(events: list[Event]):
    """Events in the order they happened: line order within one source; across sources by time. An event with no
    time at all (no stamped line above it) happened before the next timed event below it in its source: it sorts
    just before that one, not after every timed event (a first attempt's traceback printed before any timestamp)."""
    single_source = len({e.source_index for e in events}) <= 1
    bound: dict[int, float] = {}  # id(event) -> the time it happened at or before
    if not single_source:
        later: dict[int, float] = {}  # per source, the earliest time of a timed event below the current line
        # torchrun --log-dir's attempt_N: an untimed event of one attempt happened before every event of a later one
        attempt = {id(e): int(found.group(1)) for e in events if (found := TORCHRUN_ATTEMPT.search(e.source))}
        first_of: dict[int, float] = {}
        for e in events:
            if id(e) in attempt and e.eff_time is not None:
                first_of[attempt[id(e)]] = min(e.eff_time, first_of.get(attempt[id(e)], math.inf))
        for e in sorted(events, key=lambda e: (e.source_index, -e.line)):
            if e.eff_time is not None:
                later[e.source_index] = min(e.eff_time, later.get(e.source_index, math.inf))
            else:
                restart = min((t for n, t in first_of.items() if n > attempt.get(id(e), math.inf)), default=math.inf)
                bound[id(e)] = min(later.get(e.source_index, math.inf), restart)

    def key(e: Event):
        if single_source:
            return (0.0, e.source_index, e.line)
        t = e.eff_time if e.eff_time is not None else bound.get(id(e), math.inf)
        return (t, e.source_index, e.line)

    return key


def _before(a: Event, b: Event) -> bool:
    """a happened before b, as far as the logs tell (line order in one source, else time)."""
    if a.source_index == b.source_index:
        return a.line < b.line
    return a.eff_time is not None and b.eff_time is not None and a.eff_time <= b.eff_time


def _not_after(a: Event, b: Event, slack: float = 0.0) -> bool:
    """a is not shown to have happened after b: before it in one source, or not later by the clock, or untimed.
    `b` without a timestamp of its own (a traceback) happened at or after the last stamp above it: with
    `slack`, an `a` up to that many seconds later may still have come first."""
    if a.source_index == b.source_index:
        return a.line < b.line
    if a.eff_time is None or b.eff_time is None:
        return True
    return a.eff_time <= b.eff_time + (0.0 if b.time is not None else slack)


def _same_rank(a: Event, b: Event) -> bool:
    return a.rank is None or b.rank is None or a.rank == b.rank


def _close(a: Event, b: Event) -> bool:
    if not _same_rank(a, b):
        return False
    if a.source_index == b.source_index and abs(a.line - b.line) <= BURST_LINES:
        return True
    return a.eff_time is not None and b.eff_time is not None and abs(a.eff_time - b.eff_time) <= BURST_SECONDS


def _drop_fallbacks(events: list[Event], sigs: dict[str, Signature]) -> list[Event]:
    """A fallback yields to a specific root signature nearby on its rank (the same failure, named better), and to
    any signature on its own line. A knock-on nearby (a timeout, a lost peer) explains no exception: it does not."""
    near: dict[int, list[tuple[int, Event]]] = {}  # per source, specific events by line: a window is a bisection
    for s in events:
        if not _is_fallback(sigs[s.sig_id]):
            near.setdefault(s.source_index, []).append((s.line, s))
    for lst in near.values():
        lst.sort(key=lambda pair: pair[0])
    out = []
    for e in events:
        if _is_fallback(sigs[e.sig_id]):
            lst = near.get(e.source_index, [])
            lo = bisect.bisect_left(lst, e.line - FALLBACK_WINDOW, key=lambda pair: pair[0])
            hi = bisect.bisect_right(lst, e.line + FALLBACK_WINDOW, key=lambda pair: pair[0])
            if any(_same_rank(s, e) and (s.line == e.line or sigs[s.sig_id].role == "root") for _, s in lst[lo:hi]):
                continue
            if _said_before(e, lst):
                continue
        out.append(e)
    return out


RESTATED_CHARS = 24  # an exception message this long, printed word for word by an event above, is that event


def _said_before(e: Event, specific: list[tuple[int, Event]]) -> bool:
    """A generic exception whose message a specific event on its rank printed word for word a little earlier
    (PyTorch's C++ logs an error, then raises it into Python with the same text, a C++ stack between them): the
    same failure, named better above."""
    message = (e.values.get("message") or "").strip()
    if len(message) < RESTATED_CHARS:
        return False
    lo = bisect.bisect_left(specific, e.line - BURST_LINES, key=lambda pair: pair[0])
    hi = bisect.bisect_left(specific, e.line, key=lambda pair: pair[0])
    return any(_same_rank(s, e) and message in s.text for _, s in specific[lo:hi])


def _is_fallback(sig: Signature) -> bool:
    return "fallback" in sig.tags


def _firsts(events) -> dict[int, Event]:
    """Each rank's first event among `events` (in the order of the logs), events naming no rank left out."""
    firsts: dict[int, Event] = {}
    for e in sorted(events, key=lambda e: (e.source_index, e.line, e.seq)):
        if e.rank is not None:
            firsts.setdefault(e.rank, e)
    return firsts


def _raised_otherwise(sig: Signature, event: Event, same_sig: list[Event]) -> bool:
    """The generic exception signature fired on every rank, but the initiating rank raised another exception than
    every other rank's first (a ConnectionError on rank 1, then a restart whose rendezvous failed on both ranks
    alike): the ranks did not fail the same way."""
    if not _is_fallback(sig):
        return False
    mine = EXCEPTION_LINE.search(event.text)
    theirs = [EXCEPTION_LINE.search(e.text) for r, e in _firsts(same_sig).items() if r != event.rank]
    return mine is not None and bool(theirs) and all(t is not None and t.group(1) != mine.group(1) for t in theirs)


def _recoverable(sig: Signature) -> bool:
    """A knock-on, a launcher's record, or an error programs commonly catch and retry (signatures tagged
    `recoverable`: a download that could not connect): not a failure on a rank that went on training after it."""
    return sig.role in ("collateral", "wrapper") or "recoverable" in sig.tags


class Survival:
    """Which ranks went on past which lines, worked out once per scan (asked about every event and line)."""

    def __init__(self, scan: ScanResult, failed: set[int] | None = None):
        self.index = scan.source_index
        self.failed = failed or set()  # ranks a launcher saw fail on their own: their streams do not vouch
        # per source: rank -> the last line showing it went on (training progress, or a line saying it finished)
        self.after: dict[int, dict[int | None, int]] = {}
        for (index, rank), (line, _, _) in scan.progress.items():
            ranks = self.after.setdefault(index, {})
            ranks[rank] = max(ranks.get(rank, 0), line - 1)
        self.done: dict[int, dict[int | None, int]] = {}  # per source: rank -> its last line saying it finished
        for (index, rank), line in scan.finished.items():
            ranks = self.after.setdefault(index, {})
            ranks[rank] = max(ranks.get(rank, 0), line)
            self.done.setdefault(index, {})[rank] = line
        # torchrun --log-dir writes attempt_N/<local rank>/ per restart: the attempts in which each local rank
        # finished, and whether every local rank of the last attempt did
        finished_sources = {index for index, _ in scan.finished}
        self.finished_in: dict[str, set[int]] = {}
        attempts: dict[int, dict[str, bool]] = {}
        streams: dict[tuple[str, str], list[int]] = {}  # (a worker's directory, its local rank) -> its two streams
        for name, index in self.index.items():
            found = TORCHRUN_ATTEMPT.search(name)
            if found:
                attempt, local, done = int(found.group(1)), found.group(2), index in finished_sources
                locals_done = attempts.setdefault(attempt, {})
                locals_done[local] = locals_done.get(local, False) or done
                if done:
                    self.finished_in.setdefault(local, set()).add(attempt)
                if name.rsplit("/", 1)[-1] in ("stdout.log", "stderr.log"):
                    streams.setdefault((name[: found.end()], local), []).append(index)
        last = max(attempts, default=0)
        self.last_attempt_finished = last >= 1 and all(attempts[last].values())
        # a stream of a torchrun worker that says it finished training speaks for the worker's other stream, whose
        # lines it cannot be ordered against (an error in stderr.log, untimed, while stdout.log trained to its end):
        # source index -> the worker's local rank
        self.sibling_done: dict[int, int] = {}
        for (_, local), pair in streams.items():
            if len(pair) == 2 and any(i in finished_sources for i in pair):
                self.sibling_done.update((i, int(local)) for i in pair if i not in finished_sources)
        # every rank that logged training progress anywhere said training finished
        trained = {rank for _, rank in scan.progress if rank is not None}
        self.every_rank_finished = len(trained) >= 2 and trained <= {rank for _, rank in scan.finished}

    def __call__(self, source: str, line: int, rank: int | None) -> bool:
        """An error line after which its rank (every rank of its source, for a line naming none) kept training,
        or said it finished training: the exception was caught and logged, the process went on."""
        if self._finished_in_a_later_attempt(source, rank) or self._sibling_finished(source, rank):
            return True
        after = self.after.get(self.index.get(source, -1), {})
        if rank is not None and rank not in after and set(after) == {None}:
            # a console whose lines name no rank (print, tqdm): its progress is every rank's, and a rank a launcher
            # saw end there went on only if training then went on to finish (torchrun restarting the group)
            return after[None] > line and self.finished_later(source, line)
        ranks = [rank] if rank is not None else list(after)
        return bool(ranks) and all(after.get(r, 0) > line for r in ranks)

    def finished_after(self, source: str, line: int) -> bool:
        """Ranks that trained in `source` (at least two) said training finished after `line` (with __call__:
        every rank went on past it): whatever failed there (a helper thread dying) did not stop the run. Any rank's
        line will do: interleaved output glues one rank's last line onto another's."""
        trained = [r for r in self.after.get(self.index.get(source, -1), {}) if r is not None]
        return len(trained) >= 2 and self.finished_later(source, line)

    def finished_later(self, source: str, line: int) -> bool:
        """A line of `source` after `line` said training finished (or the other stream of its torchrun worker did)."""
        index = self.index.get(source, -1)
        return self._sibling_finished(source, None) or any(done > line for done in self.done.get(index, {}).values())

    def _sibling_finished(self, source: str, rank: int | None) -> bool:
        """The other stream of this torchrun worker said it finished, and no launcher saw the worker fail (by its
        rank, or its local rank: the global one on a single node)."""
        local = self.sibling_done.get(self.index.get(source, -1))
        return local is not None and local not in self.failed and rank not in self.failed

    def _finished_in_a_later_attempt(self, source: str, rank: int | None) -> bool:
        """A line of an earlier attempt (or of the launcher's console, in no attempt) that the same rank went
        past, since a later attempt of it finished (a console line naming no rank: the last attempt all did)."""
        mine = TORCHRUN_ATTEMPT.search(source)
        if mine is None:
            if rank is None:
                return self.last_attempt_finished
            return any(attempt > 0 for attempt in self.finished_in.get(str(rank), ()))  # one node: local = global
        return any(attempt > int(mine.group(1)) for attempt in self.finished_in.get(mine.group(2), ()))


# a line its program logged as a warning: what it reports, the program chose to go on from ("WARNING: data loader
# failed: DataLoader worker (pid(s) 10870) exited unexpectedly; restarting the data loader"). Python logging's level
# word, first after a timestamp or a label; not NCCL's "NCCL WARN" (NCCL reports its errors at WARN)
_WARNED = re.compile(r"^(?:\S+ ){0,3}?\[?WARNING\]?[: ]")
HARDWARE = {"gpu_xid_hardware", "gpu_ecc_error", "nvlink_ib_error"}  # a node to drain, whatever the run did next


def _survived_to_the_end(e: Event, sig: Signature, went_on: Survival) -> bool:
    """A Python exception (or a line logged as a warning) its rank trained past (progress after it on that rank, or
    on every rank of its source for a line naming none) and after which the source said training finished: caught and logged, whatever it was (an
    optional file missing, a retried connection). Not a checkpoint's or the storage's failure (the run finished
    without what was being saved, which is still the on-call's problem), nor the numbers' (a NaN or a divergence
    is about the training itself, however it ended), nor the hardware's (the node still needs draining)."""
    if (
        sig.role != "root"
        or e.kind != "line"
        or not (EXCEPTION_LINE.search(e.text) or _WARNED.match(e.text))
        or sig.cls in NUMERICS
        or sig.cls in HARDWARE
        or sig.cls.startswith("checkpoint_")
        or sig.cls == "storage_io_error"
    ):
        return False
    return went_on(e.source, e.line, e.rank) and went_on.finished_later(e.source, e.line)


def _agent_after_the_end(e: Event, sig: Signature, scan: ScanResult, went_on: Survival) -> bool:
    """A line naming no rank (a launcher's agent) that lost the store or the rendezvous after its source's ranks said
    training finished, when every rank that trained anywhere said so: the agents shutting down, one after another
    (the agent that hosted the store exits first, and the others' last calls to it fail), not a failure."""
    if e.rank is not None or sig.cls not in ("rendezvous_failure", "nccl_remote_peer_exited"):
        return False
    here = went_on.done.get(scan.source_index.get(e.source, -1), {})
    return went_on.every_rank_finished and bool(here) and max(here.values()) < e.line


def _teardown(e: Event, sig: Signature, others: list[Event], launcher: list[Event], timed_out: list[Event]) -> bool:
    """A scheduler cancel or a received SIGTERM (signatures tagged `teardown`) that follows a failure the job
    had on its own: srun --kill-on-bad-exit cancelling the step, an agent stopping after a worker died, or a step
    cancelled right under a collective timeout in the same task's file (the timeout took its full time before it:
    the task raised and exited, and srun cancelled the step; a cancel from outside would have come first)."""
    if "teardown" not in sig.tags or e.values.get("reason"):
        return False
    # A step (not the job) cancelled is srun tearing down its tasks: a failure whose order against it the logs
    # cannot tell (per-task files without timestamps) came first unless shown to come after.
    step = bool(e.values.get("step"))
    first = _not_after if step else _before
    if step and any(t.source_index == e.source_index and t.line < e.line for t in timed_out):
        return True
    return any(first(x, e) for x in others if x is not e) or any(failed_on_its_own(w) and first(w, e) for w in launcher)


SIGN_SLACK = 5.0  # seconds a first sign may follow an untimed failure's last stamp and still come before it
_WAITED = re.compile(r"waiting for clients|clients joined|(?:timed out|timeout).{0,40}(?:rendezvous|store)", re.I)
# an agent that lost the rendezvous store (hosted by another node's agent, gone with its failed worker)
_STORE_GONE = re.compile(
    r"failed to shutdown the rendezvous|Connection was likely closed|remote server shutdown or crash"
    r"|connection to the C10d store has failed"
)
_WAITED_SECONDS = re.compile(r"after (\d+(?:\.\d+)?) ?s(?:econds)?\b")


def _waited_for(e: Event, sigs: dict[str, Signature], others: list[Event]) -> bool:
    """A rendezvous that timed out waiting for clients, while another rank failed on its own before it would have
    joined (its error not shown to come after the wait ended): the wait is that failure's knock-on. So is an
    agent that lost the rendezvous store (or failed to shut the rendezvous down) after another rank failed: the
    store went with that rank's node."""
    if sigs[e.sig_id].cls != "rendezvous_failure" or not (_WAITED.search(e.text) or _STORE_GONE.search(e.text)):
        return False
    waited = _WAITED_SECONDS.search(e.text)
    slack = float(waited.group(1)) if waited else SIGN_SLACK  # its time is the last stamp above it, before the wait
    return any(
        x is not e and sigs[x.sig_id].cls != "rendezvous_failure" and x.rank != e.rank and _not_after(x, e, slack)
        for x in others
    )


def attribute(scan: ScanResult, library: Library) -> tuple[list[Finding], ScanResult]:
    """Return the findings (initiating first) and the scan as attribution read it: its events refined, with the
    ranks recovered from pids, mp.spawn's sections and per-task files (what the report's timeline draws)."""
    sigs = library.by_id()
    events = global_ranks(refine(scan.events, sigs), scan.progress)
    events = killed_pids(task_file_ranks(table_ranks(spawned_ranks(events)), scan.sources), sigs)
    scan = dataclasses.replace(scan, events=events)
    _share_frames(scan.events)
    events = _drop_fallbacks(scan.events, sigs)
    failed_ranks = {
        e.rank
        for e in scan.events
        if e.rank is not None and "launcher-exit" in sigs[e.sig_id].tags and failed_on_its_own(e)
    }
    went_on = Survival(scan, failed_ranks)
    # a thread's exception leaves the process training without what the thread did: it may still be the cause
    # and a knock-on or a launcher's record that every rank concerned went past (a restart that then finished)
    events = [
        e
        for e in events
        if not e.handled
        and not (
            (_is_fallback(sigs[e.sig_id]) or _recoverable(sigs[e.sig_id]))
            and (not e.in_thread or went_on.finished_after(e.source, e.line))
            and went_on(e.source, e.line, e.rank)
        )
        and not _survived_to_the_end(e, sigs[e.sig_id], went_on)
        and not _agent_after_the_end(e, sigs[e.sig_id], scan, went_on)
    ]
    kept = {id(e) for e in events}
    # helper threads' exceptions their ranks trained past (the generic one yields to a specific one on its line)
    went_past = sorted(
        (e for e in scan.events if e.in_thread and id(e) not in kept and not e.handled),
        key=lambda e: (e.source_index, e.line, _is_fallback(sigs[e.sig_id])),
    )
    launcher = mark_forced_kills([e for e in events if sigs[e.sig_id].role == "wrapper"])
    roots = [e for e in events if sigs[e.sig_id].role == "root"]
    explicit = [e for e in roots if e.kind != "absence"]
    # a collective timeout printed above a step's cancel in the same file: the step was torn down after it
    timed_out = [e for e in events if sigs[e.sig_id].role == "collateral" and sigs[e.sig_id].cls == "nccl_timeout"]
    teardown = [e for e in roots if _teardown(e, sigs[e.sig_id], explicit, launcher, timed_out)]
    failed = explicit + [w for w in launcher if failed_on_its_own(w)]  # a launcher's record of a rank that failed
    teardown += [e for e in roots if e not in teardown and _waited_for(e, sigs, failed)]
    roots = [e for e in roots if e not in teardown]
    launcher += teardown
    explicit = [e for e in explicit if e not in teardown]
    roots = [
        e
        for e in roots
        if e.kind != "absence" or not any(r.source_index == e.source_index and r.line > e.line for r in explicit)
    ]
    collateral = [e for e in events if sigs[e.sig_id].role == "collateral"]
    view = build_view(scan, sigs)
    oddities = Oddities(scan)  # worked out once, when a rule first asks
    held = _unfinished_on_a_silent_rank(scan, view)
    roots += held
    events += held
    hung = _interrupted_hang(roots + [e for e in launcher if e.sig_id == _INTERRUPT], collateral, view)
    if hung is not None:  # a Ctrl-C that found the others waiting on one rank: it stopped a hang, there
        launcher = [e for e in launcher if e is not hung] + [e for e in roots if e is not hung]
        roots = [dataclasses.replace(hung, sig_id=INTERRUPTED)]
        events.append(roots[0])
    if failed_before_limit(roots, collateral, scan, sigs):  # the ranks had timed out before the limit ended them
        launcher += roots
        roots = []
    stalled = stalled_until_limit(roots, scan, sigs, oddities)
    if stalled is not None:  # the time limit ended a job that had already stopped making progress
        launcher += roots
        thread = thread_died_before_stall(went_past, stalled, scan) if stalled.rank is None else None
        roots = [stalled] if thread is None else [thread]  # a rank's helper thread died, then the job stopped
        events.append(roots[0])
        if thread is not None:
            launcher.append(stalled)
    dumped = _dumped_hang(roots, launcher, scan, sigs, oddities)
    if dumped is not None:  # every rank was stopped by a signal, and their stacks show them waiting on one
        launcher += roots
        roots = [dumped]
        events.append(dumped)
    vanished = node_lost(roots, collateral, launcher, scan, sigs)
    if vanished is not None:  # a node went away: the others lost it, and a restart could not gather the nodes
        launcher += roots
        roots = [vanished]
        events.append(vanished)
    exits = [w for w in launcher if "launcher-exit" in sigs[w.sig_id].tags and w.rank is not None]
    # a fatal signal on a rank whose own log already shows the knock-on (a lost peer, a timeout) before it came
    # after that error (C++'s "terminate called" aborting the process the exception left): not on its own
    fatal = [w for w in exits if FATAL_EXITS.get(exit_code(w)) and not _after_its_knock_on(w, view)]
    promoted = False
    timed = [w for w in fatal if w.time is not None]
    # an untimed record of a rank a timed one already names (the failure table below "failed (exitcode: -9)") adds
    # nothing to the order
    known = {(w.rank, exit_code(w)) for w in timed}
    untimed = [w for w in fatal if w.time is None and (w.rank, exit_code(w)) not in known]
    first_fatal = min(timed, key=lambda w: w.time or 0.0) if timed and not untimed else None
    if roots and first_fatal is not None and all(_followed(r, first_fatal, sigs) for r in roots):
        # every failure of its own came after a rank was killed by a signal (an elastic restart that then failed
        # to connect, a rank that raised on the lost peer): the kill started it
        launcher = [w for w in launcher if w is not first_fatal] + roots
        roots = [first_fatal]
    elif not roots and fatal:
        # a rank the launcher saw killed by a signal; the others' timeouts follow from it
        roots, promoted = fatal[:1], False
    elif not roots and collateral and (anonymous := _killed_before(launcher, collateral, sigs)) is not None:
        # a launcher saw a process killed by a signal (its record names no rank: DeepSpeed's) before any knock-on
        roots, promoted = [anonymous], False
    elif not roots and collateral:
        roots, promoted = _timeouts_first(collateral, sigs), True
        standing = {id(e) for e in roots}  # by identity: Event's dataclass equality compares every field
        collateral = [e for e in collateral if id(e) not in standing]
    elif not roots and exits:
        roots = [sorted(exits, key=lambda w: (not FATAL_EXITS.get(exit_code(w)), w.source_index, w.line))[0]]
    elif not roots:
        # a launcher's record that names no rank (DeepSpeed's prints the last command it started, not the failed
        # one's): the exit code alone is still the diagnosis
        unranked = [w for w in launcher if "launcher-exit" in sigs[w.sig_id].tags and w.rank is None]
        roots = sorted(unranked, key=lambda w: (not FATAL_EXITS.get(exit_code(w)), w.source_index, w.line))[:1]
    live = None if roots or launcher else stalled_while_logging(scan)
    if live is not None:  # no failure yet: a log copied while the job hung, its ranks still saying where they are
        roots = [live]
        events.append(live)
    cut = None if roots or collateral or launcher else _traceback_cut(scan, went_on)
    if cut is not None:  # nothing but a traceback the log ends inside, its exception line cut off
        roots = [cut]
        events.append(cut)
    if not roots:
        return [], scan

    key = _time_key(roots)
    roots.sort(key=key)
    findings: list[Finding] = []
    classes_seen: set[str] = set()
    remaining = roots
    while remaining and len(findings) <= MAX_EXTRA_DIAGNOSES:
        first = remaining[0]
        burst = [e for e in remaining if _close(e, first)]
        order = {id(e): i for i, e in enumerate(remaining)}
        # highest priority wins; among equals, the earliest
        winner = max(burst, key=lambda e: (sigs[e.sig_id].priority, -order[id(e)]))
        sig = sigs[winner.sig_id]
        related = [e for e in burst if e.sig_id != sig.id]
        findings.append(
            _finding(
                scan,
                view,
                sig,
                winner,
                [e for e in events if e.sig_id == sig.id],
                related,
                promoted,
                launcher,
                sigs,
                oddities,
            )
        )
        classes_seen.add(sig.cls)
        explained = {id(e) for e in burst}
        # a later failure of a class already reported is the same failure seen again
        remaining = [e for e in remaining if id(e) not in explained and sigs[e.sig_id].cls not in classes_seen]
    said = findings[0].attribution if findings else None
    if said is not None and stalled is not None and findings[0].event is roots[0] and roots[0] is not stalled:
        said.reasons.append(
            Reason(
                f"the thread died while rank {roots[0].rank} trained on what it had already queued; then no rank "
                f"made progress for {stalled.values.get('idle', '?')} s, until the time limit ended the job",
                stalled.source,
                stalled.line,
            )
        )
    if findings:
        findings[0].collateral = _group_collateral(collateral, findings[0], sigs, key, scan.counts)
        if promoted:
            rest = [e for e in roots if e.sig_id != findings[0].sig.id]
            findings[0].collateral += _group_collateral(rest, findings[0], sigs, key, scan.counts)
            del findings[1:]
        findings[0] = _as_divergence(findings[0], events, sigs, key, scan.counts)
        findings[0] = _as_sizes_differ(findings[0], sigs, key, scan.counts)
        findings[0] = _stopped_inside(findings[0], scan, sigs, key)
    return findings, scan


DIVERGED = "c10d.ranks_in_different_collectives"  # made of timeouts whose tracebacks sit in different collectives


def _as_divergence(
    f: Finding, events: list[Event], sigs: dict[str, Signature], key, counts: dict[tuple[str, int | None], int]
) -> Finding:
    """A timeout or a lost peer whose rank was found by the ranks' tracebacks sitting in different collectives
    (all but one in the same call): the ranks called different collectives, which is a collective mismatch (the
    program's bug), not a slow network. The finding becomes that, on the lone rank's traceback; the timeouts and
    lost peers it found become its knock-on."""
    a = f.attribution
    if a is None or a.rank is None or a.rule != "collective_odd_one_out" or f.sig.cls == "collective_mismatch":
        return f
    if DIVERGED not in sigs:
        return f
    where = a.reasons[0]
    # the lone rank's traceback (a receive's: the rank named is then the sender it waited for)
    lone = next((e for e in events if e.source == where.source and e.line == where.line and e.rank is not None), None)
    if lone is None:
        return f
    return _remade(f, DIVERGED, lone, [a.rank], sigs, key, counts)


def _remade(f: Finding, sig_id: str, lone: Event, ranks: list[int], sigs: dict[str, Signature], key, counts) -> Finding:
    """f as the finding of the made signature sig_id, on `lone`'s line: the events it was made of are its knock-on."""
    made = dataclasses.replace(lone, sig_id=sig_id)
    knock_on = _group_collateral(f.events, f, sigs, key, counts)
    return dataclasses.replace(
        f, sig=sigs[sig_id], event=made, events=[made], ranks=ranks, count=1, collateral=knock_on + f.collateral
    )


DIFFER_AT_SEQ = "nccl.ranks_differ_at_same_collective"  # timeouts whose WorkNCCL differs at one SeqNum


def _as_sizes_differ(f: Finding, sigs: dict[str, Signature], key, counts: dict[tuple[str, int | None], int]) -> Finding:
    """Timeouts found to name different operations or sizes at one sequence number (see _mismatch.differ_at_seq): the
    finding becomes that mismatch, on the lone rank's timeout (or the first); the timeouts are its knock-on."""
    a = f.attribution
    if a is None or a.rule != "differ_at_seq" or DIFFER_AT_SEQ not in sigs:
        return f
    where = a.reasons[0]
    lone = next((e for e in f.events if e.source == where.source and e.line == where.line), f.event)
    return _remade(f, DIFFER_AT_SEQ, lone, [a.rank] if a.rank is not None else f.ranks, sigs, key, counts)


def _finding(
    scan: ScanResult,
    view: JobView,
    sig: Signature,
    event: Event,
    same_sig: list[Event],
    related: list[Event],
    promoted: bool,
    launcher: list[Event],
    sigs: dict[str, Signature],
    oddities: Oddities,
) -> Finding:
    # events are kept per (signature, rank), so every rank that fired has at least one here;
    # ranks whose events yielded to a specific signature are gone from `same_sig`
    ranks = sorted({e.rank for e in same_sig if e.rank is not None})
    count = sum(n for (sid, r), n in scan.counts.items() if sid == sig.id and (r is None or r in ranks))
    count = max(count, len(same_sig))  # a refined signature's lines are counted under the one it refines
    if event.kind == "count":
        event = _first_counted(scan.precursors, sig, event)
    attribution = _attribute_rank(view, sig, event, same_sig, related, ranks, launcher, sigs, scan.precursors, oddities)
    return Finding(sig, event, same_sig, ranks, count, attribution.rank, promoted, related, [], launcher, attribution)


def _unfinished_on_a_silent_rank(scan: ScanResult, view: JobView) -> list[Event]:
    """An operation (a save) started as a rank's last word, with nothing after it in that rank's own log: alone, an
    excerpt that ends there. In a job whose other ranks then reported the knock-on (collective timeouts, lost
    peers) while this rank reported nothing, it is where this rank stopped."""
    return [e for e in scan.unfinished if e.rank is not None and _silent_while_others_waited(view, e.rank)]


def _silent_while_others_waited(view: JobView, rank: int) -> bool:
    """Rank `rank` reported no failure, timeout or lost peer of its own (an operation it started and never finished
    is not a report), while another rank reported the knock-on."""
    state = view.ranks.get(rank)
    if state is None or state.timeouts or state.collateral or any(e.kind != "absence" for e in state.roots):
        return False
    return any(s.timeouts or s.collateral for r, s in view.ranks.items() if r != rank)


def _left_behind(view: JobView) -> int | None:
    """The one rank that never joined a rendezvous the others timed out on: every other rank exited on its own
    with an error code, while it raised nothing and ended only after them, stopped by a signal (srun's or
    torchrun's teardown), or not at all as far as the log shows."""
    if len(view.expected) < 2 or view.implied:
        return None
    own_error = {
        r: s.exit for r, s in view.ranks.items() if s.exit and s.exit.signal is None and s.exit.code not in ("0", "")
    }
    rest = set(view.ranks) - set(own_error)
    if len(rest) != 1 or not own_error:
        return None
    (rank,) = rest
    state = view.ranks[rank]
    if state.roots or state.timeouts:
        return None
    last_own = max(x.order for x in own_error.values())
    if state.exit is not None and (state.exit.signal is None or state.exit.order < last_own):
        return None
    return rank


INTERRUPTED = "python.interrupted_in_collective"  # a KeyboardInterrupt caught inside a torch.distributed call
_INTERRUPT = "python.keyboard_interrupt"
_STOP_SIGNALS = {"2", "SIGINT", "15", "SIGTERM"}


def _interrupted_hang(roots: list[Event], collateral: list[Event], view: JobView) -> Event | None:
    """A stop (SIGINT forwarded to every rank) whose KeyboardInterrupt tracebacks caught every rank but one inside a
    collective, and that one somewhere else: the job was hung there and someone gave up on it. That rank's
    interrupt, or None. Not when progress times show the job still stepping shortly before the stop (a Ctrl-C of a
    running job finds the fast ranks waiting for the slowest), nor when anything else failed on its own."""
    waiting = {e.rank for e in collateral if e.sig_id == INTERRUPTED and e.rank is not None}
    if not waiting:
        return None
    interrupted: dict[int, Event] = {}
    for e in roots:
        if e.sig_id == _INTERRUPT and e.rank is not None and e.rank not in waiting:
            interrupted.setdefault(e.rank, e)
        elif e.rank is None and e.values.get("signal") not in _STOP_SIGNALS:
            return None  # a job-wide failure of another kind
        elif e.rank is not None and e.rank not in waiting:
            return None  # a rank not waiting failed on its own: that is the story
    if len(interrupted) != 1 or not view.expected <= waiting | set(interrupted):
        return None
    (hung,) = interrupted.values()
    idle = _idle_before(view, hung)
    if idle is not None and idle < STOPPED_EARLY_SECONDS:
        return None
    return hung


STACK_WAIT = "train.stack_dump_collective_wait"  # a stack dump of a process blocked in a collective


def _dumped_hang(
    roots: list[Event], launcher: list[Event], scan: ScanResult, sigs: dict[str, Signature], oddities: Oddities
) -> Event | None:
    """No rank failed on its own, but the launcher saw at least two ranks end by a signal (a stall watchdog's
    abort, a kill after a hang) and the stacks they printed show the others waiting inside a collective and one
    rank elsewhere: the job hung on that rank. Its stack dump, as a job_hang_no_progress finding, or None.
    The same when every root failure is the job being stopped from outside (a cancel, a preemption) after its
    training progress had stopped (see _stall.stopped_before), or after a stall watchdog's timer printed every dump
    (faulthandler's "Timeout (0:00:15)!": no rank re-armed it, so none made progress for that long): someone
    dumped the stacks of a hung job and then cancelled it."""
    if roots:
        stops = [limit_time(r) for r in roots if sigs[r.sig_id].cls == "preemption_sigterm"]
        odd = oddities.stack
        if len(stops) != len(roots) or None in stops or odd is None or not odd.others_waiting:
            return None
        timed = _watchdog_dumped_last(scan) and not any(r.values.get("reason") for r in roots)
        if not timed and stopped_before(scan, min(t for t in stops if t is not None)) is None:
            return None  # still stepping when it was stopped: a preemption, whatever the stacks show
        return odd.place(roots[0], scan, sig_id=STACK_WAIT, values={"stack": odd.text}, kind="match")
    ended = {w.rank for w in launcher if w.rank is not None and "launcher-exit" in sigs[w.sig_id].tags}
    signalled = {
        w.rank
        for w in launcher
        if w.rank is not None and (FATAL_EXITS.get(exit_code(w)) or exit_code(w) in TEARDOWN_EXITS)
    }
    odd = oddities.stack
    if odd is None or not odd.others_waiting or len(signalled) < 2 or not signalled >= ended:
        return None
    first = min(launcher, key=lambda w: (w.source_index, w.line))
    return odd.place(first, scan, sig_id=STACK_WAIT, values={"stack": odd.text}, kind="match")


def _watchdog_dumped_last(scan: ScanResult) -> bool:
    """Every rank's stack dump was printed by a stall watchdog's timer (faulthandler's "Timeout (0:00:15)!": nobody
    re-armed it in time) and no rank logged training progress below a dump in its source: the job never moved on."""
    dumps = scan.stacks
    if len(dumps) < 2 or not all(d.timer for d in dumps.values()):
        return False
    first: dict[int, int] = {}
    for (source, _), dump in dumps.items():
        first[source] = min(dump.line, first.get(source, dump.line))
    return all(line < first[source] for (source, _), (line, _, _) in scan.progress.items() if source in first)


def _stopped_inside(f: Finding, scan: ScanResult, sigs: dict[str, Signature], key) -> Finding:
    """A silent rank found behind the others' timeouts whose own last line started an operation it never finished
    (an absence rule's start: "saving checkpoint", "Running training"): that operation is where it stopped, the
    failure the absence signature names, on that rank; the timeouts become its knock-on. The absence rules look at
    each source's last start; in a console every rank shares, the silent rank's start is not the source's last."""
    a = f.attribution
    if a is None or a.rank is None or a.rule != "silent_rank" or f.sig.absence is not None:
        return f
    # a console's prefix may be the local rank ("[default1]:" on the second node): a line naming another rank
    # ("rank 3/4") is that rank's
    words = [(src, w) for (src, rank), w in scan.last_words.items() if rank == a.rank and _names_rank(w.text, a.rank)]
    if not words:
        return f
    src, word = max(words, key=lambda sw: (sw[1].time or 0.0, sw[1].line))
    for sig in sorted((s for s in sigs.values() if s.absence is not None), key=lambda s: -s.priority):
        assert sig.absence is not None
        # its literal is enough: "saving checkpoint | step 30 | path ..." is a start, whatever follows it
        if not any(_said(word.text, p) for p in sig.absence.start):
            continue
        name = scan.sources[src] if src < len(scan.sources) else f.event.source
        made = Event(
            sig.id,
            "absence",
            name,
            src,
            word.line,
            a.rank,
            f.event.host,
            word.time,
            word.time or f.event.eff_time,
            word.text,
            {"status": "started, never completed"},
        )
        why = Reason(f"rank {a.rank}'s last line started what it never finished: {word.text[:160]}", name, word.line)
        knock_on = _group_collateral(f.events, f, sigs, key, scan.counts)
        return dataclasses.replace(
            f,
            sig=sig,
            event=made,
            events=[made],
            ranks=[a.rank],
            count=1,
            collateral=knock_on + f.collateral,
            attribution=dataclasses.replace(a, reasons=[*a.reasons, why]),
        )
    return f


_RANK_NAMED = re.compile(r"(?i)\brank[\s_:=\[]{0,2}(\d{1,6})\b")


def _names_rank(text: str, rank: int) -> bool:
    """Whether `text` names no rank, or names `rank` among those it names."""
    named = {int(m) for m in _RANK_NAMED.findall(text[:PREFIX_CHARS])}
    return not named or rank in named


def _said(text: str, p: Pattern) -> bool:
    """Whether `text` holds what start pattern `p` looks for: its full match, or its literal (case aside)."""
    literals = [p.literal] if p.literal else list(p.literals or ())
    return any(x.lower() in text.lower() for x in literals if x) or _regex(p.regex, p.caseless).search(text) is not None


@lru_cache(maxsize=256)
def _regex(source: str, caseless: bool) -> _Lazy:
    return _Lazy(source, caseless)


_ENDED = {STALLED: ("the time limit struck", "the limit"), STOPPED: ("it was stopped", "the stop")}


def _stalled_reasons(event: Event, because) -> Attribution:
    """Why a time limit (or a stop from outside) was read as the end of a hang (see _stall), and which rank it hung
    on."""
    idle, how, step = event.values.get("idle", "?"), event.values.get("how", ""), event.values.get("step")
    at = f"step {step}" if step else "their last step"
    ended, ender = _ENDED[event.sig_id]
    quiet = Reason(
        f"no rank made training progress in the {idle} s before {ended} ({how}): the job had stopped, and "
        f"{ender} only ended it",
        event.source if event.rank is None else None,
        event.line if event.rank is None else None,
    )
    if event.rank is None:
        return because(None, "stalled_before_limit", "low", quiet)
    if "stack" in event.values:
        return because(
            event.rank, "stalled_before_limit", "medium", Reason(event.values["stack"], event.source, event.line), quiet
        )
    return because(
        event.rank,
        "stalled_before_limit",
        "medium",
        Reason(
            f"every rank logged {at}; rank {event.rank} alone printed more after it and then nothing: "
            f"{event.text[:160]}",
            event.source,
            event.line,
        ),
        quiet,
    )


def _one_node_preempted(view: JobView, event: Event, same_sig: list[Event]) -> int | None:
    """A stop signal that reached one node's launcher only (a spot reclaim of one machine): when every report of
    it is in one source, the job's ranks are spread over several sources, and exactly one rank logged in that
    source, that rank is where the job broke (the others lost it)."""
    if any(e.source != event.source for e in same_sig):
        return None
    here = [r for r, st in view.ranks.items() if event.source in st.sources]
    elsewhere = [r for r, st in view.ranks.items() if st.sources and event.source not in st.sources]
    return here[0] if len(here) == 1 and len(elsewhere) >= 1 else None


def _node_lost_reasons(event: Event, because) -> Attribution:
    """Why the job was read as having lost a node (see _vanished): no single rank started it."""

    def at(where: str) -> tuple[str | None, int | None]:  # "line:source"
        line, _, source = where.partition(":")
        return (source, int(line)) if line.isdigit() else (None, None)

    v = event.values
    lost = Reason(f"ranks {v['lost']} then lost their peer (connection closed)", *at(v["lost_at"]))
    rendezvous = Reason(
        "the launcher's restart then waited at the rendezvous for a node that never came back, until it timed out",
        *at(v["rendezvous_at"]),
    )
    if not v["ranks"]:
        return because(
            None,
            "node_lost",
            "low",
            Reason(
                "no rank failed on its own and no launcher saw a rank exit: the peers were lost without a trace",
                None,
                None,
            ),
            lost,
            rendezvous,
        )
    who = f"rank {v['ranks']}" if event.rank is not None else f"ranks {v['ranks']}"
    if "beside" in v:  # see _vanished._launcher_survived
        return because(
            event.rank,
            "killed_alone",
            "low",
            Reason(
                f"{who} logged training progress and then nothing: no error, no traceback, no completion. Last "
                f"line: {event.text[:120]}",
                event.source,
                event.line,
            ),
            Reason(
                f"rank {v['beside']}, started by the same torchrun agent (the same attempt directory, so the same "
                "node), lived on to report the lost peer: the node and its launcher were still there, so the "
                f"silent process was killed on its own, without a word (SIGKILL: most often the OOM killer)",
                *at(v["beside_at"]),
            ),
        )
    quiet = Reason(
        f"{who} logged training progress and then nothing: no error, no exit, no launcher record (the node's "
        f"launcher went too). Last line: {event.text[:120]}",
        event.source,
        event.line,
    )
    return because(event.rank, "node_lost", "medium", quiet, lost, *([rendezvous] if v["rendezvous_at"] else []))


_FRAME = re.compile(r'File "(?:[^"]*[/\\])?([^"/\\]+)", line (\d+), in (\S+)(?:\n.*?\]:|\n)?\s*(.*)', re.S)


_PREFIXES = re.compile(r"^(?:\s*\d{1,6}: |\[[^\]\n]{1,40}\]:\s?|" + MPI_TAG + ")+")


def _innermost(e: Event) -> str:
    """The innermost frame of an event's traceback, as "function (file:line): code"."""
    found = _FRAME.search(e.frames[-1]) if e.frames else None
    if found is None:
        return e.text[:120]
    name, line, func, code = found.groups()
    code = _PREFIXES.sub("", code.strip().splitlines()[0]).strip() if code.strip() else ""
    return f"{func} ({name}:{line})" + (f": {code[:80]}" if code else "")


def _idle_before(view: JobView, stop: Event) -> float | None:
    """Seconds between the job's last training progress and `stop`, when both times are known."""
    times = [s.progress.time for s in view.ranks.values() if s.progress and s.progress.time is not None]
    return stop.at - max(times) if times and stop.at is not None else None


def _after_its_knock_on(w: Event, view: JobView) -> bool:
    """Whether the rank of launcher record `w` had printed a knock-on error (a timeout, a lost peer) of its own
    before the launcher saw it end: its end followed from that error."""
    state = view.ranks.get(w.rank) if w.rank is not None else None
    return state is not None and any(_not_after(e, w, 0.0) for e in state.collateral)


def _timeouts_first(knock_on: list[Event], sigs: dict[str, Signature]) -> list[Event]:
    """Knock-on only: collective timeouts on some ranks and lost peers on others. A lost peer means a rank exited;
    a rank that timed out then exits, so the timeouts explain the lost peers (not the other way round) unless a
    lost peer is stamped before every timeout. The timeouts then stand for the failure, the lost peers follow."""
    timeouts = [e for e in knock_on if sigs[e.sig_id].cls == "nccl_timeout"]
    lost = [e for e in knock_on if sigs[e.sig_id].blame == "peer"]
    if not timeouts or not lost or {e.rank for e in lost} & {e.rank for e in timeouts}:
        return knock_on
    if any(all(p.time is not None and t.time is not None and p.time < t.time for t in timeouts) for p in lost):
        return knock_on
    gone = {id(e) for e in lost}
    return [e for e in knock_on if id(e) not in gone]


def _first_counted(precursors: dict[tuple[str, int | None], Event], sig: Signature, event: Event) -> Event:
    """A count rule's event is built on the line that reached its threshold, whichever rank printed it; in a job
    whose ranks share the rule's count, the job's first matching line (each rank's first is kept, forgiven ones
    too) says which rank went bad first, when it plainly came before every other rank's first."""
    firsts = [e for (sid, rank), e in precursors.items() if sid == sig.id and rank is not None]
    if len({e.rank for e in firsts}) < 2:
        return event
    first = min(firsts, key=lambda e: (math.inf if e.time is None else e.time, e.source_index, e.line, e.seq))
    if first.rank == event.rank or not all(_plainly_before(first, o) for o in firsts if o is not first):
        return event
    return dataclasses.replace(first, kind="count", values={**first.values, **event.values})


def _where(e: Event) -> str:
    return f"{e.source}:{e.line}"


def _attribute_rank(
    view: JobView,
    sig: Signature,
    event: Event,
    same_sig: list[Event],
    related: list[Event],
    ranks: list[int],
    launcher: list[Event],
    sigs: dict[str, Signature],
    precursors: dict[tuple[str, int | None], Event],
    oddities: Oddities,
) -> Attribution:
    def because(rank, rule, confidence, *reasons: Reason) -> Attribution:
        return Attribution(rank, rule, confidence, list(reasons))

    first = Reason(f"first seen: {event.text[:160]}", event.source, event.line)
    differ = differ_at_seq(same_sig, view.groups) if sig.cls == "nccl_timeout" else None
    if differ is not None:  # the ranks timed out in one collective call they did not agree on: a mismatch
        return because(*differ)
    if sig.cls == "rendezvous_failure" and len(view.implied) == 1 and view.ranks:
        rank = next(iter(view.implied))
        return because(
            rank,
            "absent_rank",
            "medium",
            first,
            Reason(
                f"rank {rank} of {len(view.expected)} never printed a line: the others waited for it to join",
                None,
                None,
            ),
        )
    behind = _left_behind(view) if sig.cls == "rendezvous_failure" else None
    if behind is not None:
        gave_up = sorted(view.expected - {behind})
        return because(
            behind,
            "absent_rank",
            "medium",
            first,
            Reason(
                f"{'rank' if len(gave_up) == 1 else 'ranks'} {rank_list(gave_up)} gave up waiting for the others to "
                f"join and exited with an error; rank {behind} raised nothing and was still running until the "
                "launcher stopped it: it never reached the rendezvous",
                None,
                None,
            ),
        )
    if event.kind == "absence" and event.rank is not None and len(view.expected) > 1:
        started = {e.rank for e in same_sig} | {event.rank}
        # one rank started the operation (rank 0 saving) and never finished it: a save only that rank writes, or
        # any save when that rank then said nothing while the others reported the knock-on
        if started == {event.rank} and ("one-writer" in sig.tags or _silent_while_others_waited(view, event.rank)):
            rest = sorted(view.expected - started)
            return because(
                event.rank,
                "pending_on_one_rank",
                "medium",
                first,
                Reason(
                    f"only rank {event.rank} started it and it never completed; "
                    f"{'rank' if len(rest) == 1 else 'ranks'} {rank_list(rest)} went on without it or waited",
                    event.source,
                    event.line,
                ),
            )
    if sig.cls in RANK_HOSTED and event.rank is None and any(_STORE_SERVER.search(f) for f in event.frames):
        return because(
            0,
            "recovered_rank",
            "medium",
            first,
            Reason(
                "the line names no rank, but its traceback is init_process_group's env:// or tcp:// rendezvous, "
                "where rank 0 alone starts the store's server and binds the port (torch/distributed/rendezvous.py)",
                event.source,
                event.line,
            ),
        )
    if sig.cls in RANK_HOSTED and event.rank is not None:
        return because(
            event.rank,
            "explicit_root",
            "medium",
            first,
            Reason(
                f"rank {event.rank} hosts the job's store and could not bind its port; the other ranks had nothing "
                "to join",
                event.source,
                event.line,
            ),
        )
    if sig.id == INTERRUPTED and event.rank is not None:
        waited = sorted({e.rank for e in same_sig if e.rank is not None and e.rank != event.rank})
        idle = _idle_before(view, event)
        stuck = (
            f"; no rank made training progress in the {idle:.0f} s before it"
            if idle is not None
            else "; the log does not time the ranks' progress, so how long the job had been stuck is unknown"
        )
        return because(
            event.rank,
            "interrupted_elsewhere",
            "medium" if idle is not None else "low",
            Reason(
                f"when the job was interrupted (SIGINT), {'rank' if len(waited) == 1 else 'ranks'} "
                f"{rank_list(waited)} {'was' if len(waited) == 1 else 'were'} waiting inside a collective and rank "
                f"{event.rank} alone was somewhere else: the others waited on it{stuck}",
                event.source,
                event.line,
            ),
            Reason(f"where rank {event.rank} was: {_innermost(event)}", event.source, event.line),
        )
    if sig.id in _ENDED:
        return _stalled_reasons(event, because)
    if sig.id == STALLED_LIVE:
        v = event.values
        return because(
            None,
            "stalled_while_logging",
            "medium",
            Reason(
                f"every rank's training progress stopped {v.get('idle', '?')} s before the end of the log (steps had "
                f"come every {v.get('pace', '?')} s), while the ranks went on printing that they were at step "
                f"{v.get('step', '?')}: the job is hung, and nothing in the log says on which rank",
                event.source,
                event.line,
            ),
        )
    if sig.id in (NODE_LOST, KILLED_ALONE):
        return _node_lost_reasons(event, because)
    if sig.id == TRACEBACK_CUT:
        whose = f"rank {event.rank}'s" if event.rank is not None else "a"
        return because(
            event.rank,
            "traceback_cut",
            "low",
            Reason(
                f"the log ends inside {whose} Python traceback, before the exception line that would name the error; "
                f"its last frame: {event.text[:120]}",
                event.source,
                event.line,
            ),
        )
    if sig.id == STACK_WAIT and "stack" in event.values:  # see _dumped_hang
        return because(
            event.rank,
            "odd_stack_out",
            "medium",
            Reason(event.values["stack"], event.source, event.line),
            *[
                Reason(f"the launcher saw rank {w.rank} end ({exit_code(w)})", w.source, w.line)
                for w in [w for w in launcher if w.rank is not None][:3]
            ],
        )
    if sig.scope == "job" and sig.cls == "preemption_sigterm":
        node = _one_node_preempted(view, event, same_sig)
        if node is not None:
            return because(
                node,
                "preempted_node",
                "medium",
                Reason(
                    f"{sig.title}, on one node only ({event.source}): rank {node} is the one rank whose log is there; "
                    "no other node's launcher got the signal",
                    event.source,
                    event.line,
                ),
            )
    alone = _alone_unreachable(view, sig, event, same_sig)
    if alone is not None:
        return because(event.rank, "absent_rank", "medium", alone, first)
    if sig.scope == "job" and sig.cls != "collective_mismatch":
        return because(
            None,
            "job_wide",
            "high",
            Reason(f"{sig.title}: this is the job's failure, not one rank's", event.source, event.line),
        )
    if sig.cls == "collective_mismatch":
        odd = odd_one_out(same_sig, view)
        if odd is not None:
            return because(odd[0], "collective_odd_one_out", odd[2], odd[1])
        reporters = {e.rank for e in same_sig}
        differs = oddities.value
        if differs is not None:  # the ranks' last lines say which one's collective differs
            return because(
                differs.rank,
                "odd_value_out",
                "medium",
                Reason(differs.text, differs.source, differs.line),
                Reason("the ranks then failed on a collective whose sizes did not match", event.source, event.line),
            )
        skipped = oddities.skipped
        if skipped is not None:  # a rank said it left out a collective the others ran
            return because(
                skipped.rank,
                "skipped_collective",
                "medium",
                Reason(skipped.text, skipped.source, skipped.line),
                Reason("the ranks then failed on a collective that did not match", event.source, event.line),
            )
        if len(reporters) == 1 and event.rank is not None:  # one rank alone found the mismatch and failed on it
            return because(
                event.rank,
                "mismatch_reporter",
                "low",
                Reason(
                    f"only rank {event.rank} reported the mismatch (and failed on it); the report does not say which "
                    "rank's collective differs",
                    event.source,
                    event.line,
                ),
            )
        return because(
            None,
            "job_wide",
            "medium",
            Reason("the mismatch report does not say which rank differs from the others", event.source, event.line),
        )
    if "launcher-exit" in sig.tags:
        code = exit_code(event)
        meaning = FATAL_EXITS.get(code)
        confidence = "medium" if meaning else "low"
        text = (
            f"only the launcher saw {'a rank' if event.rank is None else f'rank {event.rank}'} end: exit {code}"
            + (f" ({meaning})" if meaning else "")
            + "; no rank's own error is in this log"
            + ("; its record does not say which rank it was" if event.rank is None else "")
        )
        others = [w for w in launcher if w is not event and w.rank is not None and not failed_on_its_own(w)]
        reasons = [Reason(text, event.source, event.line)]
        if others:
            reasons.append(
                Reason(
                    f"the launcher then stopped {len({w.rank for w in others})} other rank(s): teardown, not the cause",
                    others[0].source,
                    others[0].line,
                )
            )
        own = view.ranks.get(event.rank) if event.rank is not None else None
        rule = (
            "launcher_fatal_signal"
            if meaning and own and own.collateral == [] and any(s.collateral for s in view.ranks.values())
            else "launcher_exit"
        )
        if rule == "launcher_fatal_signal":
            confidence = "high"
            reasons.append(
                Reason(f"rank {event.rank} shows no error of its own while the others report the knock-on", None, None)
            )
        return because(event.rank, rule, confidence, *reasons)
    gathered = _gathered_ranks(event, launcher)
    if gathered is not None and len(gathered[1]) == 1:  # every rank prints the failed one's traceback
        wrapper, (only,) = gathered
        return because(
            only,
            "explicit_root",
            "high",
            Reason(
                f"the gathered exception every rank printed lists rank {only} alone as failed; this is its traceback",
                wrapper.source,
                wrapper.line,
            ),
            first,
        )

    def signed(sign: Event, then: str, *more: Reason) -> Attribution:
        text = f"rank {sign.rank} alone showed it first: {sign.text[:120]} (line {sign.line}), {then}"
        if sign.values.get("nonfinite_odd"):
            text = (
                f"rank {sign.rank}'s own line alone carries more non-finite values than the others' at the same "
                f"moment: {sign.text[:120]} (line {sign.line}); its values went bad, {then}"
            )
        return because(sign.rank, "first_sign", "medium", Reason(text, sign.source, sign.line), *more)

    straggler = _named_straggler([event, *same_sig]) if sig.cls == "nccl_timeout" else None
    if straggler is not None:  # a monitored barrier's own report names the one rank that never arrived
        return because(straggler[0], "silent_rank", "high", straggler[1], first)
    if sig.blame == "peer":
        return _peer(view, event, ranks, launcher, oddities)
    if (
        event.rank is not None
        and len(ranks) >= 2
        and set(ranks) >= set(view.expected)
        and sig.role != "collateral"
        and not _raised_otherwise(sig, event, same_sig)
    ):
        alike = Reason(f"all {len(ranks)} ranks failed the same way ({rank_list(ranks)})", event.source, event.line)
        sign = _first_sign(precursors, sig, event, sigs, view, ranks) or _first_by_step(precursors, sig, sigs, ranks)
        if sign is not None:
            return signed(sign, "before every rank failed the same way", alike)
        bad = _odd_value(view, same_sig, ranks) if sig.cls in NUMERICS else None
        if bad is not None:
            return because(bad[0], "first_sign", "medium", bad[1], alike)
        own_way = went_its_own_way(view, same_sig)
        if own_way is not None:
            return because(own_way[0], own_way[1], "medium", own_way[2], alike)
        stack = oddities.stack  # the stacks printed at the end: the one rank not where the others waited
        if stack is not None:
            return because(stack.rank, "odd_stack_out", "medium", Reason(stack.text, stack.source, stack.line), alike)
        return because(None, "all_alike", "medium", alike)
    if sig.role == "collateral" or sig.cls == "nccl_timeout":
        found = _silent_or_behind(view, sig, ranks, event, sigs, oddities)
        if found is not None:
            return found
        own_way = went_its_own_way(view, same_sig)
        if own_way is not None:
            return because(own_way[0], own_way[1], "medium", own_way[2])
        # where every rank was when its knock-on came (a timeout here, a lost peer there): one in another collective
        elsewhere = in_another_collective([*same_sig, *(e for s in view.ranks.values() for e in s.collateral)])
        if elsewhere is not None:
            return because(elsewhere[0], "collective_odd_one_out", "medium", elsewhere[1])
        stack = oddities.stack
        if stack is not None:
            return because(stack.rank, "odd_stack_out", "medium", Reason(stack.text, stack.source, stack.line))
        if event.rank is not None and len(ranks) >= 2 and set(ranks) >= set(view.expected):
            value = oddities.value  # one rank's last numbers differ from the rest's: the one that went its own way
            if value is not None:
                alike = Reason(f"all {len(ranks)} ranks timed out alike", event.source, event.line)
                return because(value.rank, "odd_value_out", "low", Reason(value.text, value.source, value.line), alike)
            return because(
                None,
                "all_alike",
                "low",
                Reason(
                    f"all {len(ranks)} ranks timed out alike and none is missing or behind", event.source, event.line
                ),
            )
    if event.rank is not None:
        sign = _sign_elsewhere(precursors, sig, event, sigs)
        if sign is not None:
            return signed(sign, f"while rank {event.rank}, which stopped the job, showed none of its own", first)
        if sig.role == "collateral" and set(view.ranks) == {event.rank} and (len(view.expected) > 1 or event.rank):
            # the log is one rank's alone, and its knock-on (a timeout, a lost peer) says it waited on another that
            # the log does not show (with other ranks in the log that went on, the one left waiting is the odd one)
            return because(
                None,
                "peer_unknown",
                "low",
                Reason(
                    f"this log shows rank {event.rank} alone, and what it reported is a consequence: it waited on "
                    "another rank, whose own failure is not in this log",
                    event.source,
                    event.line,
                ),
            )
        return because(event.rank, "explicit_root", "high" if sig.role == "root" else "medium", first)
    named = {e.rank for e in (*same_sig, *related) if e.rank is not None and _close(e, event)}
    if len(named) == 1:
        rank = named.pop()
        return because(
            rank,
            "recovered_rank",
            "medium",
            first,
            Reason(f"the same failure's other lines name rank {rank}", None, None),
        )
    knock_on = {r for r, s in view.ranks.items() if s.collateral}  # ranks whose own errors are consequences
    failed = [w for w in launcher if w.rank is not None and failed_on_its_own(w) and w.rank not in knock_on]
    if len({w.rank for w in failed}) == 1:
        w = failed[0]
        return because(
            w.rank,
            "recovered_rank",
            "medium",
            first,
            Reason(
                f"the line names no rank; the launcher saw only rank {w.rank} fail on its own (exit {exit_code(w)})",
                w.source,
                w.line,
            ),
        )
    earliest = _first_to_fail(failed)
    if earliest is not None:
        w, lead, next_rank = earliest
        return because(
            w.rank,
            "recovered_rank",
            "low",
            first,
            Reason(
                f"the line names no rank; the launcher saw rank {w.rank} fail first (exit "
                f"{exit_code(w)}), {lead:.0f} s before rank {next_rank}",
                w.source,
                w.line,
            ),
        )
    quiet = set(view.expected) - knock_on
    if knock_on and len(quiet) == 1:
        rank = quiet.pop()
        return because(
            rank,
            "recovered_rank",
            "medium",
            first,
            Reason(
                f"the line names no rank; every other rank ({rank_list(sorted(knock_on))}) reported "
                f"only the knock-on, rank {rank} nothing of its own",
                None,
                None,
            ),
        )
    after = oddities.traceback_after(event.source, event.line)
    if after is not None:  # a device's or a library's lines without a prefix, then one rank's Python traceback
        return because(
            after.rank,
            "recovered_rank",
            "low",
            first,
            Reason(
                f"the line names no rank; the first error line after it that names one is rank {after.rank}'s "
                f"traceback: {after.text[:100]}",
                after.source,
                after.line,
            ),
        )
    gpu = _device_rank(event, same_sig, view, launcher)
    if gpu is not None:  # the failure names the GPU it happened on, and the job ran one process per GPU
        return because(
            gpu,
            "device_index",
            "low",
            first,
            Reason(
                f"the line names no rank, but it happened on GPU {gpu}; launchers start one process per GPU and "
                f"each rank drives the GPU of its local rank, so this is local rank {gpu} (on one node, rank {gpu})",
                event.source,
                event.line,
            ),
        )
    stopped = _stopped_first(view)
    if stopped is not None:
        return because(stopped[0], "progress_stopped_first", "low", first, stopped[1])
    return because(
        None, "unknown", "low", first, Reason("the line names no rank and nothing else tells which", None, None)
    )


def _first_sign(
    precursors: dict[tuple[str, int | None], Event],
    sig: Signature,
    event: Event,
    sigs: dict[str, Signature],
    view: JobView,
    ranks: list[int],
) -> Event | None:
    """When every rank failed the same way: the one rank whose earlier lines of the same class (a count rule's
    first match that never reached its threshold, like one non-finite loss) came before the failure, while the
    other ranks logged their own training progress without it (when only one rank logs, its sign is the job's;
    a sign from a rank that does not log its progress is that rank's own warning)."""
    logging = {r for r in ranks if view.ranks.get(r) is not None and view.ranks[r].progress is not None}
    alike = [
        e for (sid, rank), e in precursors.items() if rank is not None and sigs[sid].cls == sig.cls and sid != sig.id
    ]
    odd = _most_nonfinite(alike, event) if logging == set(ranks) else None
    if odd is not None:
        return odd
    firsts = _firsts(e for e in alike if _not_after(e, event, SIGN_SLACK))
    if not firsts:
        return None
    if len(firsts) == 1:
        (only,) = firsts.values()
        if logging != set(ranks) and only.rank in logging:  # the rank that logs for the job: the job's sign
            return None
        return only
    if logging != set(ranks):
        return None
    # several ranks showed it: the one that showed it clearly before every other (the order of their lines)
    for first in firsts.values():
        if all(_plainly_before(first, other) for other in firsts.values() if other is not first):
            return first
    return None


def _first_by_step(
    precursors: dict[tuple[str, int | None], Event], sig: Signature, sigs: dict[str, Signature], ranks: list[int]
) -> Event | None:
    """Every rank went on to fail the same way (a count rule's threshold), but one rank's first sign of it names an
    earlier training step than every other rank's first ("step 10 loss nan" where the others' first is at step
    12): the step is the ranks' shared clock, whatever order their lines were printed in."""
    firsts = _firsts(e for (sid, rank), e in precursors.items() if rank in ranks and sigs[sid].cls == sig.cls)
    steps = {rank: step_of(e.text) for rank, e in firsts.items()}
    if len(steps) < 2 or set(steps) != set(ranks) or any(st is None for st in steps.values()):
        return None
    lowest = min(steps.values())  # type: ignore[type-var]
    first = [rank for rank, st in steps.items() if st == lowest]
    return firsts[first[0]] if len(first) == 1 else None


SIGN_CLOSE = 5.0  # first signs on several ranks this close in time came together (one reduced value went bad)


def _most_nonfinite(signs: list[Event], failure: Event) -> Event | None:
    """Several ranks showed the sign within SIGN_CLOSE seconds of each other and of the failure, or within SIGN_LINES
    lines of one untimed console (the order of their lines is then noise): the one rank whose own line carries more non-finite values than every other's
    ("local_loss nan global_loss nan" where the others' local loss is finite) is where the values went bad."""
    firsts = _firsts(signs)
    if len(firsts) < 2:
        return None
    bad = {r: len(_NONFINITE.findall(e.text)) for r, e in firsts.items()}
    most = max(bad.values())
    if most == 0 or list(bad.values()).count(most) != 1:
        return None
    odd = firsts[max(bad, key=lambda r: bad[r])]
    together = all(_together(odd, e) for e in [*firsts.values(), failure])
    return dataclasses.replace(odd, values={**odd.values, "nonfinite_odd": "1"}) if together else None


SIGN_LINES = 16  # untimed lines of one console this close came together (the ranks' lines of one step)


def _together(a: Event, b: Event) -> bool:
    """a and b came at about the same moment: within SIGN_CLOSE seconds, or, in a console whose lines carry no
    time, within SIGN_LINES lines of each other."""
    if a.at is not None and b.at is not None:
        return abs(a.at - b.at) <= SIGN_CLOSE
    return a.source_index == b.source_index and a.at is None and b.at is None and abs(a.line - b.line) <= SIGN_LINES


NUMERICS = {"nan_inf_loss", "fp16_loss_scale_overflow", "loss_spike_divergence"}
_NONFINITE = re.compile(r"(?<![\w.])[-+]?(?:nan|inf(?:inity)?)(?!\w)", re.I)
LOSS_OUTLIER = 1e3  # a last loss this many times the others' (and at least that large) blew up


def _odd_value(view: JobView, same_sig: list[Event], ranks: list[int]) -> tuple[int, Reason] | None:
    """Every rank failed alike on a non-finite value (a check of a loss or gradient norm reduced over the ranks):
    the one rank whose own numbers went bad. Its failure message alone carries more non-finite values than the
    others' ("global=nan local=nan" where the others print a finite local loss), or its last logged loss alone is
    orders of magnitude above the others' (1.9e35 against 3.4). (rank, reason), or None."""
    firsts = _firsts(e for e in same_sig if e.rank in ranks)
    found = {r: len(_NONFINITE.findall(e.text)) for r, e in firsts.items()}
    if len(found) >= 2:
        most = max(found.values())
        odd = [r for r, n in found.items() if n == most]
        if len(odd) == 1 and sorted(found.values())[-2] < most:
            e = firsts[odd[0]]
            return odd[0], Reason(
                f"rank {odd[0]}'s own failure alone reports a non-finite value where the others' are finite: "
                f"{e.text[:160]}",
                e.source,
                e.line,
            )
    losses: dict[int, tuple[str, int, float]] = {}
    for r in ranks:
        loss = view.ranks[r].loss if r in view.ranks else None
        if loss is not None:
            losses[r] = loss
    if len(losses) < 2 or len(losses) != len(set(ranks)):
        return None
    blown = []
    for r, (source, line, value) in losses.items():
        others = statistics.median(abs(x[2]) for q, x in losses.items() if q != r)
        if abs(value) >= LOSS_OUTLIER * max(1.0, others):
            blown.append((r, source, line, value, others))
    if len(blown) != 1:
        return None
    r, source, line, value, others = blown[0]
    return r, Reason(
        f"rank {r}'s last logged loss was {value:.3g}, against about {others:.3g} on the others: its values blew "
        "up first, and the check of the value reduced over all ranks then stopped every rank",
        source,
        line,
    )


_RANK_LIST = re.compile(r"\d{1,7}")


def _gathered_ranks(event: Event, launcher: list[Event]) -> tuple[Event, list[int]] | None:
    """The ranks a gathered exception (torch.distributed.checkpoint's "CheckpointException ranks:dict_keys([...])",
    whose per-rank tracebacks every rank prints) says failed, when `event` is the first error of one of its
    blocks: the wrapper line just above it in the same source."""
    above = [
        w
        for w in launcher
        if "failed_ranks" in w.values
        and w.source_index == event.source_index
        and w.line < event.line <= w.line + BURST_LINES
    ]
    if not above:
        return None
    wrapper = max(above, key=lambda w: w.line)
    return wrapper, sorted({int(r) for r in _RANK_LIST.findall(wrapper.values["failed_ranks"])})


# a job-wide failure that one worker meets for the job: the rank that hosts the TCPStore (rank 0, MASTER_PORT) binds
# its port; when a worker (not the launcher's agent, which names no rank) reports it, that rank failed first
RANK_HOSTED = {"port_in_use"}
EXIT_MEANINGS = {"124": "the exit code of timeout(1): it stopped the process at its time limit"}
# init_process_group's env:// and tcp:// rendezvous: TCPStore(..., is_master=rank == 0), so only rank 0 listens
_STORE_SERVER = re.compile(r"in _(?:env|tcp)_rendezvous_handler\b")
JOB_WIDE_CHECKS = {"nan_inf_loss"}  # classes a rank often raises on a value reduced over every rank (the loss)


def _sign_elsewhere(
    precursors: dict[tuple[str, int | None], Event], sig: Signature, event: Event, sigs: dict[str, Signature]
) -> Event | None:
    """A rank stopped the job on a check of a value reduced over all ranks (a non-finite global loss), but the
    value went bad on another rank first: exactly one other rank printed the same class of trouble (one
    non-finite local loss) no later than the failure, and the failing rank printed none of its own."""
    if sig.cls not in JOB_WIDE_CHECKS:
        return None
    signs = [
        e
        for (sid, rank), e in precursors.items()
        if rank is not None and sigs[sid].cls == sig.cls and sid != sig.id and _not_after(e, event, SIGN_SLACK)
    ]
    if any(e.rank == event.rank for e in signs) or len({e.rank for e in signs}) != 1:
        return None
    first = min(signs, key=lambda e: (e.source_index, e.line, e.seq))
    # the same trouble on a third rank at the same step or moment, printed after the failure: a value every rank
    # shares (a gradient norm after its all-reduce), not one rank's own
    if any(
        sigs[sid].cls == sig.cls and rank not in (None, event.rank, first.rank) and _same_moment(e, first)
        for (sid, rank), e in precursors.items()
    ):
        return None
    return first


def _same_moment(a: Event, b: Event) -> bool:
    """Two lines of one training step: the same step number, or stamped within a second of each other."""
    sa, sb = step_of(a.text), step_of(b.text)
    if sa is not None and sb is not None:
        return sa == sb
    return a.time is not None and b.time is not None and abs(a.time - b.time) <= 1.0


TRACEBACK_CUT = "python.traceback_cut"  # the finding _traceback_cut makes


def _traceback_cut(scan: ScanResult, went_on: Survival) -> Event | None:
    """The first traceback a source ends inside, cut before its exception line, whose rank did not go on after it:
    a Python exception all the same (a traceback is printed for one), on the rank that printed it."""
    for e in scan.cut_tracebacks:
        if not went_on(e.source, e.line, e.rank):
            index = scan.source_index.get(e.source, 0)
            return Event(TRACEBACK_CUT, "line", e.source, index, e.line, e.rank, None, None, None, e.text, {})
    return None


def _killed_before(launcher: list[Event], knock_on: list[Event], sigs: dict[str, Signature]) -> Event | None:
    """The first launcher record of a process killed by a signal that names no rank, when it came before every
    knock-on failure (in one source, above them; else stamped earlier): the others lost or waited for that one."""
    killed = [
        w
        for w in launcher
        if w.rank is None and "launcher-exit" in sigs[w.sig_id].tags and FATAL_EXITS.get(exit_code(w))
    ]
    first = min(killed, key=lambda w: (w.source_index, w.line), default=None)
    return first if first is not None and all(_plainly_before(first, e) for e in knock_on) else None


def _plainly_before(a: Event, b: Event) -> bool:
    """a came before b as the logs show it: earlier in one source (a line's \r-segments in order), else stamped
    earlier."""
    if a.source_index == b.source_index:
        return (a.line, a.seq) < (b.line, b.seq)
    return a.time is not None and b.time is not None and a.time < b.time


def _plainly_after(e: Event, w: Event) -> bool:
    """e came after the launcher's record w by their own timestamps (an untimed line is not shown to)."""
    return e.at is not None and w.time is not None and e.at > w.time + 1.0


def _followed(e: Event, w: Event, sigs: dict[str, Signature]) -> bool:
    """Root failure e came after the launcher's record w of a fatal signal: plainly (see _plainly_after), or, for a
    store or rendezvous failure, at all, in the same file: the agent whose worker was killed tears down and takes
    the store it hosted with it, and the other agents and their workers lose it within the second."""
    if _plainly_after(e, w):
        return True
    return (
        sigs[e.sig_id].cls == "rendezvous_failure"
        and e.source_index == w.source_index
        and e.at is not None
        and w.time is not None
        and e.at > w.time
    )


def _share_frames(events: list[Event]) -> None:
    """Several signatures can fire on one exception line; the traceback's frames, read for one of them (the
    generic exception's), are a fact about the line: every event on it gets them."""
    frames = {(e.source_index, e.line): e.frames for e in events if e.frames}
    for e in events:
        if not e.frames:
            e.frames = frames.get((e.source_index, e.line), e.frames)


def _peer(view: JobView, event: Event, ranks: list[int], launcher: list[Event], oddities: Oddities) -> Attribution:
    killed = [w for w in launcher if w.rank is not None and FATAL_EXITS.get(exit_code(w)) and w.rank not in ranks]
    if killed:
        w = killed[0]
        return Attribution(
            w.rank,
            "launcher_fatal_signal",
            "high",
            [
                Reason(
                    f"the launcher saw rank {w.rank} die ({exit_code(w)}, {FATAL_EXITS[exit_code(w)]})",
                    w.source,
                    w.line,
                ),
                Reason(f"{len(ranks)} other rank(s) then lost their peer", event.source, event.line),
            ],
        )
    done = [r for r, s in sorted(view.ranks.items()) if s.finished is not None and r not in ranks]
    if len(done) == 1:  # one rank said it stopped training by itself (early stopping): it went away
        finished = view.ranks[done[0]].finished
        assert finished is not None
        left: tuple[int, Reason] | None = (
            done[0],
            Reason(f"rank {done[0]} said it stopped training on its own and left", *finished),
        )
    else:  # or torchrun's failure table lists every rank but one: that one had exited 0
        left = _left_unlisted(view, launcher)
    if left is not None and ranks:
        lost = f"{'rank' if len(ranks) == 1 else 'ranks'} {rank_list(ranks)} then lost their peer"
        return Attribution(left[0], "finished_early", "medium", [left[1], Reason(lost, event.source, event.line)])
    own: dict[int, Event] = {}  # per rank, the launcher's first record of it ending on its own
    for w in launcher:
        if w.rank is not None and w.rank not in ranks and failed_on_its_own(w):
            own.setdefault(w.rank, w)
    if len(own) == 1 and ranks:  # the launcher saw one rank end on its own: the peer the others lost
        (w,) = own.values()
        code = exit_code(w)
        said = f", {EXIT_MEANINGS[code]}" if code in EXIT_MEANINGS else ""
        return Attribution(
            w.rank,
            "launcher_exit",
            "medium",
            [
                Reason(f"the launcher saw rank {w.rank} end on its own (exit {code}{said})", w.source, w.line),
                Reason(f"{len(ranks)} other rank(s) lost their peer", event.source, event.line),
            ],
        )
    silent = sorted(view.expected - set(ranks))
    if len(silent) == 1 and ranks:
        return Attribution(
            silent[0],
            "silent_rank",
            "medium",
            [
                Reason(
                    f"ranks {rank_list(ranks)} lost a peer; rank {silent[0]} reported nothing",
                    event.source,
                    event.line,
                )
            ],
        )
    for odd, rule in ((oddities.value, "odd_value_out"), (oddities.stack, "odd_stack_out")):
        if odd is not None and odd.rank not in ranks:
            return Attribution(
                odd.rank,
                rule,
                "low",
                [
                    Reason(odd.text, odd.source, odd.line),
                    Reason(f"{len(ranks)} other rank(s) lost their peer", event.source, event.line),
                ],
            )
    return Attribution(
        None,
        "peer_unknown",
        "low",
        [Reason("ranks lost a peer, and nothing in the log tells which one went away", event.source, event.line)],
    )


def _silent_or_behind(
    view: JobView, sig: Signature, ranks: list[int], event: Event, sigs: dict[str, Signature], oddities: Oddities
) -> Attribution | None:
    def knock_on(e: Event) -> bool:  # not a stop from outside (a SIGTERM a rank was sent when the job was ended)
        return "teardown" not in sigs[e.sig_id].tags and sigs[e.sig_id].cls != "preemption_sigterm"

    timed_out = {r for r, s in view.ranks.items() if s.timeouts or any(map(knock_on, s.collateral))}
    if not timed_out:
        return None
    failed = {
        r for r, s in view.ranks.items() if any(knock_on(e) and not _is_fallback(sigs[e.sig_id]) for e in s.roots)
    }
    missing = sorted(view.expected - timed_out - failed)
    if len(missing) == 1 and len(timed_out) >= 1:
        rank = missing[0]
        state = view.ranks.get(rank)
        where = (
            "printed nothing"
            if state is None or state.progress is None
            else f"last made progress at step {state.progress.step}"
        )
        known = (
            f"of {view.world_size} ranks (world size)"
            if view.world_size
            else f"of the {len(view.expected)} ranks seen or implied"
        )
        return Attribution(
            rank,
            "silent_rank",
            "high" if view.world_size else "medium",
            [
                Reason(
                    f"rank {rank} is the only one {known} that did not report the timeout; it {where}",
                    event.source,
                    event.line,
                ),
                Reason(f"ranks {rank_list(timed_out)} waited on it and timed out", event.source, event.line),
            ],
        )
    gone = oddities.elsewhere(missing) if len(missing) >= 2 else None
    if gone is not None:  # several did not report it (a launcher stopped them first): the one that went elsewhere
        return Attribution(
            gone.rank,
            "silent_rank",
            "low",
            [
                Reason(gone.text, gone.source, gone.line),
                Reason(
                    f"{'ranks' if len(timed_out) > 1 else 'rank'} {rank_list(timed_out)} timed out waiting; of the "
                    f"{len(missing)} ranks that did not report "
                    "it, the others' last word is their last step",
                    event.source,
                    event.line,
                ),
            ],
        )
    completed = {r: s.last_completed for r, s in view.ranks.items() if s.last_completed is not None}
    if len(completed) >= 2:
        low = min(completed.values())
        behind = [r for r, c in completed.items() if c == low]
        if len(behind) == 1 and low < max(completed.values()):
            r = behind[0]
            e = view.ranks[r].timeouts[0]
            return Attribution(
                r,
                "behind_in_sequence",
                "medium",
                [
                    Reason(
                        f"rank {r} completed collective {low}, the others up to {max(completed.values())}: it fell "
                        "behind (a rank stuck inside a collective still shows the previous number)",
                        e.source,
                        e.line,
                    )
                ],
            )
    if completed and all(c == -1 for c in completed.values()):
        return Attribution(
            None,
            "all_alike",
            "medium",
            [
                Reason(
                    "every rank shows 'last completed' -1: the processes stopped before any collective ran (a hung "
                    "import or filesystem, not a communication hang)",
                    event.source,
                    event.line,
                )
            ],
        )
    return None


_GPU_INDEX = re.compile(
    r"\bGPU (\d{1,3})(?:;| has a total capac)"
)  # CUDA OOM: "GPU 1 has a total capacity", "(GPU 1; "
_SEVERAL_PROCESSES = ("torch/distributed", "deepspeed", "accelerate")
GPUS_PER_NODE = 8  # the most a node of a training cluster commonly has: a larger job spans nodes


def _device_rank(event: Event, same_sig: list[Event], view: JobView, launcher: list[Event]) -> int | None:
    """A rankless failure that names its GPU, in a job of several processes (a world size, a launcher's records, a
    traceback through torch.distributed/DeepSpeed/Accelerate, or other such lines naming other GPUs): the GPU's index
    is the local rank (torchrun, DeepSpeed and Accelerate give each process the GPU of its LOCAL_RANK). With each
    process shown one GPU alone (CUDA_VISIBLE_DEVICES per task) every rank says GPU 0, so that is not read as rank 0
    unless another such line names another GPU, nor in a job of more ranks than a node has GPUs or whose lines come
    from several hosts (the index is then a local rank on an unknown node). Returns the GPU's index, the rank."""
    found = _GPU_INDEX.search(event.text)
    if found is None:
        return None
    gpu = int(found.group(1))
    others = {int(m.group(1)) for e in same_sig if e is not event and (m := _GPU_INDEX.search(e.text))}
    several = (
        len(view.expected) > 1
        or bool(launcher)
        or bool(others - {gpu})
        or any(mark in frame for frame in event.frames for mark in _SEVERAL_PROCESSES)
    )
    if not several or (gpu == 0 and not others - {gpu}) or (view.expected and gpu not in view.expected):
        return None  # a GPU index past the ranks the job is known to have is no rank of it
    hosts = view.hosts | {e.host for e in (event, *same_sig, *launcher) if e.host}
    if len(view.expected) > GPUS_PER_NODE or len(hosts) > 1:
        return None  # several nodes: the index is a local rank, and which node's the line does not say
    return gpu


_TABLE_ROW = re.compile(r"exitcode\s+: -?\d+ \(pid: \d+\)")  # a row of torchrun's ChildFailedError table


def _left_unlisted(view: JobView, launcher: list[Event]) -> tuple[int, Reason] | None:
    """torchrun's failure table lists every worker of its agent that did not exit 0, the ones it stopped (SIGTERM)
    included: when it lists every rank of the job but one, and that one reported nothing and no launcher recorded
    its end, it had exited 0 before the others failed (it left the job: early stopping, a shorter epoch)."""
    rows = [w for w in launcher if w.rank is not None and _TABLE_ROW.search(w.text)]
    listed = {w.rank for w in rows}
    expected = view.expected
    if not rows or len(expected) < 2 or view.world_size is None or not listed < expected:
        return None
    missing = sorted(expected - listed)
    if len(missing) != 1:
        return None
    rank = missing[0]
    state = view.ranks.get(rank)
    if (state is not None and (state.roots or state.collateral or state.timeouts)) or any(
        w.rank == rank for w in launcher
    ):
        return None
    return rank, Reason(
        f"torchrun's failure table lists ranks {rank_list(sorted(listed))} of the {view.world_size} and not rank "
        f"{rank}: rank {rank} had exited 0, leaving the job before the others failed",
        rows[0].source,
        rows[0].line,
    )


STORE_CONNECT = "c10d.store_connect_failed"


def _alone_unreachable(view: JobView, sig: Signature, event: Event, same_sig: list[Event]) -> Reason | None:
    """One rank alone could not reach the store, while other ranks reached it and then gave up waiting for the
    missing one (a wait timeout, "3/4 clients joined"): not the job's failure but that rank's (a wrong MASTER_ADDR in
    its environment, its node's network). A store every rank failed to reach is the job's (see job_wide)."""
    if sig.id != STORE_CONNECT or event.rank is None or {e.rank for e in same_sig} != {event.rank}:
        return None
    waited = sorted(r for r, st in view.ranks.items() if r != event.rank and (st.roots or st.collateral or st.timeouts))
    if not waited:
        return None
    where = event.values.get("store_host") or event.values.get("store_addr")
    return Reason(
        f"rank {event.rank} alone could not reach the store{f' at {where}' if where else ''}; "
        f"{'rank' if len(waited) == 1 else 'ranks'} {rank_list(waited)} reached it and gave up waiting for it to join",
        event.source,
        event.line,
    )


def _named_straggler(events: list[Event]) -> tuple[int, Reason] | None:
    """The one rank a monitored barrier's report names as not having arrived ("Ranks 3 failed to pass
    monitoredBarrier in 20000 ms", printed by the rank that ran the check), with that report."""
    for e in events:
        failed = e.values.get("failed_ranks")
        if failed and failed.isdigit():
            text = f"rank {e.rank if e.rank is not None else 0}'s monitored_barrier reports that rank {failed} alone never "
            return int(failed), Reason(text + "arrived; the ranks that did waited on it", e.source, e.line)
    return None


def _stopped_first(view: JobView) -> tuple[int, Reason] | None:
    timed = [
        (s.progress.time, r, s.progress) for r, s in view.ranks.items() if s.progress and s.progress.time is not None
    ]
    if len(timed) < 2:
        return None
    ordered = sorted(timed, key=lambda t: t[0])
    (t0, r0, p0), (t1, _, _) = ordered[0], ordered[1]
    if t1 - t0 < STOPPED_EARLY_SECONDS:
        return None
    return r0, Reason(
        f"rank {r0}'s training progress stopped first (step {p0.step}), {t1 - t0:.0f} s before any other rank's",
        p0.source,
        p0.line,
    )


WEAK_RULES = {
    "silent_rank",
    "behind_in_sequence",
    "progress_stopped_first",
    "device_index",
    "all_alike",
    "unknown",
    "peer_unknown",
}


def apply_flight_recorder(finding: Finding, recorder: dict) -> None:
    """The dumps outrank guesses from the text: the one rank that never joined the collective the others wait
    in (or whose sizes differ at the same sequence number) started it."""
    stuck, mismatch = recorder.get("stuck") or {}, recorder.get("mismatch") or {}
    assert finding.attribution is not None  # attribute() gives every finding one
    weak = finding.attribution.rule in WEAK_RULES or finding.promoted or finding.sig.cls == "nccl_timeout"
    if len(mismatch.get("odd", [])) == 1 and (weak or finding.sig.cls == "collective_mismatch"):
        rank = mismatch["odd"][0]
        text = (
            f"Flight Recorder: at collective {mismatch['seq']} rank {rank} ran {mismatch['got'][rank]}, the "
            f"others {mismatch['expected']}"
        )
    elif len(stuck.get("not_joined", [])) == 1 and weak:
        rank = stuck["not_joined"][0]
        text = (
            f"Flight Recorder: ranks {rank_list(stuck['waiting'])} wait in collective {stuck['seq']} "
            f"({stuck['op']}); rank {rank}'s newest is {stuck['newest_of_not_joined'][rank]}: it never joined"
        )
    else:
        return
    finding.initiating_rank = rank
    finding.attribution = Attribution(rank, "flight_recorder", "high", [Reason(text)] + finding.attribution.reasons[:1])


def _first_to_fail(failed: list[Event], lead: float = 5.0) -> tuple[Event, float, int | None] | None:
    """Among launcher records of ranks that failed on their own, the rank whose first record is at least `lead`
    seconds before any other rank's (with its lead and the next rank), if there is one."""
    firsts: dict[int | None, tuple[float, Event]] = {}
    for t, w in sorted(((w.eff_time, w) for w in failed if w.eff_time is not None), key=lambda tw: tw[0]):
        firsts.setdefault(w.rank, (t, w))
    order = sorted(firsts.values(), key=lambda tw: tw[0])
    if len(order) < 2 or order[1][0] - order[0][0] < lead:
        return None
    return order[0][1], order[1][0] - order[0][0], order[1][1].rank


def _group_collateral(
    events: list[Event], finding: Finding, sigs: dict[str, Signature], key, counts: dict[tuple[str, int | None], int]
) -> list[dict]:
    """Collateral events grouped by signature; a group's count is every line of it on its ranks (the scan keeps
    only the first few events of each rank, and counts them all)."""
    groups: dict[str, dict] = {}
    unranked: set[str] = set()
    origin = finding.event.eff_time
    for e in sorted(events, key=key):
        g = groups.get(e.sig_id)
        if g is None:
            s = sigs[e.sig_id]
            g = groups[e.sig_id] = {
                "signature": s.id,
                "class": s.cls,
                "title": s.title,
                "ranks": [],
                "count": 0,
                "first_seen": {"source": e.source, "line": e.line, "text": e.text[:300]},
                "seconds_after": None,
            }
            if origin is not None and e.eff_time is not None:
                g["seconds_after"] = round(max(0.0, e.eff_time - origin), 3)
        g["count"] += 1
        if e.rank is None:
            unranked.add(e.sig_id)
        elif e.rank not in g["ranks"]:
            g["ranks"].append(e.rank)
    for g in groups.values():
        g["ranks"].sort()
        keys = [(g["signature"], r) for r in g["ranks"]] + (
            [(g["signature"], None)] if g["signature"] in unranked else []
        )
        g["count"] = max(g["count"], sum(counts.get(k, 0) for k in keys))
    return list(groups.values())
