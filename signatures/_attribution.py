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

Which rank: the rules in signatures/_rank_rules.py, in their order of precedence.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ._compiled import _Lazy
from ._events import Event, ScanResult
from ._flight import rank_in_name
from ._library import Library
from ._lines import EXCEPTION_LINE, PREFIX_CHARS, TORCHRUN_ATTEMPT
from ._oddity import Oddities
from ._order import (
    BURST_LINES,
    SIGN_SLACK,
    _before,
    _close,
    _not_after,
    _plainly_after,
    _plainly_before,
    _same_rank,
    _time_key,
)
from ._rank_rules import (
    INTERRUPTED,
    NUMERICS,
    STACK_WAIT,
    STOPPED_EARLY_SECONDS,
    TRACEBACK_CUT,
    Case,
    _idle_before,
    _is_fallback,
    _silent_while_others_waited,
    attribute_rank,
)
from ._ranks import (
    CANCELLED,
    FATAL_EXITS,
    LATE_KILL,
    TEARDOWN_EXITS,
    JobView,
    build_view,
    exit_code,
    failed_on_its_own,
    global_facts,
    global_ranks,
    killed_pids,
    late_table_kills,
    mark_forced_kills,
    noticed_line,
    spawned_ranks,
    table_ranks,
    task_file_ranks,
    text_ranks,
)
from ._refine import refine
from ._schema import Pattern, Signature
from ._stall import (
    ended_after_a_failure,
    failed_before_limit,
    limit_time,
    stalled_until_limit,
    stalled_while_logging,
    stopped_before,
    thread_died_before_stall,
    thread_failed_then_limit,
)
from ._vanished import node_lost
from ._why import Attribution, Reason, rank_list

SHELL_KILLED = "shell.killed_sigkill"
FALLBACK_WINDOW = 12  # lines: a generic exception this close to a specific one is the same failure
MAX_EXTRA_DIAGNOSES = 4


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
            # on its own line whatever rank each read ("disagreement between rank0 and rank6" is rank 6's line); a
            # scheduler ending the job (a time limit, a cancel, a node lost) names no main-thread exception better (a
            # helper thread's, which its rank may have trained past, is weighed against the stall in _stall)
            if any(
                s.line == e.line
                or (
                    _same_rank(s, e)
                    and sigs[s.sig_id].role == "root"
                    and s.kind != "absence"  # a save that never completed: the exception is why, not its name
                    and (e.in_thread or sigs[s.sig_id].cls not in _JOB_ENDS)
                    # a group that could not form again below it (torchrun's restart) is its consequence, not its name
                    and not (sigs[s.sig_id].cls == "rendezvous_failure" and s.line > e.line)
                )
                for _, s in lst[lo:hi]
            ):
                continue
            if _said_before(e, lst):
                continue
        out.append(e)
    return out


_JOB_ENDS = {"slurm_time_limit", "preemption_sigterm", "node_failure"}  # the scheduler's end of a job, not its error

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


def _recoverable(sig: Signature) -> bool:
    """A knock-on, a launcher's record, or an error programs commonly catch and retry (signatures tagged
    `recoverable`: a download that could not connect): not a failure on a rank that went on training after it."""
    return sig.role in ("collateral", "wrapper") or "recoverable" in sig.tags


class Survival:
    """Which ranks went on past which lines, worked out once per scan (asked about every event and line)."""

    def __init__(self, scan: ScanResult, failed: set[int] | None = None, sigs: dict[str, Signature] | None = None):
        self.index = scan.source_index
        self.failed = failed or set()  # ranks a launcher saw fail on their own: their streams do not vouch
        # per source: the line of the launcher's last record of a worker's exit (see restarted_on_its_console)
        self.last_exit: dict[int, int] = {}
        if sigs is not None:
            for x in scan.events:
                if "launcher-exit" in sigs[x.sig_id].tags:
                    self.last_exit[x.source_index] = max(x.line, self.last_exit.get(x.source_index, 0))
        self.last_progress: dict[int, int] = {}  # per source: its last line of training progress, any rank's
        for (index, _), (line, _, _) in scan.progress.items():
            self.last_progress[index] = max(line, self.last_progress.get(index, 0))
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

    def restarted_on_its_console(self, source: str, line: int) -> bool:
        """A console of torchrun without --log-dir (no attempt directories to tell restarts apart): after `line` the
        launcher recorded workers failing (torchrun --max-restarts then starts them again), and after its last such
        record the workers logged training progress and said training finished. The restarted group recovered."""
        index = self.index.get(source, -1)
        last = self.last_exit.get(index)
        if last is None or last <= line or TORCHRUN_ATTEMPT.search(source):
            return False
        return self.last_progress.get(index, 0) > last and self.finished_later(source, last)

    def restarted_and_finished(self, source: str, rank: int | None) -> bool:
        """A line of a torchrun attempt (or of its console) before the last attempt, every worker of which said it
        finished (see _finished_in_a_later_attempt)."""
        return self.last_attempt_finished and self._finished_in_a_later_attempt(source, rank)

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


SET_ASIDE_KEPT = 8  # signatures whose events were set aside as no failure, the first of each kept for the report


def _not_a_failure(
    e: Event, sig: Signature, scan: ScanResult, went_on: Survival, sigs: dict[str, Signature]
) -> str | None:
    """Why event `e` did not stop the run, or None when it may have."""
    if e.handled:
        return "caught: its traceback shows the program handled it"
    if _requeued_and_went_on(e, went_on):
        return "the job was requeued and its next run went on training"
    if sig.id == WARNING_HANDLED and _stopped_as_planned(e, scan, sigs, went_on):
        return (
            "the job's own handler caught the scheduler's warning signal and the job stopped as it planned (its "
            "checkpoint written, a clean exit or a requeue), with nothing failing after it: resubmit or requeue to go "
            "on from its checkpoint if nothing else will"
        )
    # a thread's exception leaves the process training without what the thread did: it may still be the cause
    if (
        (_is_fallback(sig) or _recoverable(sig))
        and (not e.in_thread or went_on.finished_after(e.source, e.line))
        and went_on(e.source, e.line, e.rank)
    ):
        # also a knock-on or a launcher's record that every rank concerned went past (a restart that then finished)
        return "training went on after it"
    if _survived_to_the_end(e, sig, went_on):
        return "its rank trained past it and training then finished"
    if (
        sig.role == "root"
        and sig.cls not in HARDWARE
        and (went_on.restarted_and_finished(e.source, e.rank) or went_on.restarted_on_its_console(e.source, e.line))
    ):
        # torchrun restarted the workers and every worker of the last attempt finished: the job recovered (a
        # transient EIO, a flaky connection); a node's hardware fault still needs draining whatever came next
        return "torchrun restarted the workers and the last attempt finished"
    if _agent_after_the_end(e, sig, scan, went_on):
        return "a launcher agent shutting down after every rank said training finished"
    return None


WARNING_HANDLED = "train.warning_signal_handled"  # a handler's words on catching sbatch --signal's warning


def _requeued_and_went_on(e: Event, went_on: Survival) -> bool:
    """Slurm cancelling the job or step to requeue it (scontrol requeue: "CANCELLED AT ... DUE TO JOB REQUEUE"),
    after which the ranks in the same log trained again: the requeued run resumed, the cancel stopped nothing."""
    return e.sig_id == CANCELLED and "REQUEUE" in e.values.get("reason", "") and went_on(e.source, e.line, e.rank)


# what a rank or the job script says once the stop it planned is done: the checkpoint written, a clean exit
_CLEAN_STOP = re.compile(
    r"(?i)\b(?:checkpoint|state|model)\b[^\n]{0,60}?\b(?:written|saved|done|completed?|finished)\b"
    r"|\bexit(?:ing|ed)?\b[^\n]{0,20}?\b(?:cleanly|normally|0)\b|\brc=0\b|\bexit (?:code|status) 0\b"
)
# ... or that the job meant to go on and could not: a requeue refused or not made
_NOT_REQUEUED = re.compile(r"(?i)not requeu|requeue (?:is )?disabled|requeue failed|could not requeue|cannot requeue")


def _stopped_as_planned(e: Event, scan: ScanResult, sigs: dict[str, Signature], went_on: Survival) -> bool:
    """A handler's words on catching the scheduler's advance warning (sbatch --signal=USR1@N: save, then exit or
    requeue), when the stop then happened as planned: the job requeued itself and its next run trained on (a
    "DUE TO JOB REQUEUE" cancel the ranks trained after, the step's teardown records before it), or, with nothing
    at all after the handler's words in its log but more of them, the ranks' or the job script's last words say
    the checkpoint was written or they exited cleanly, and none says a requeue it wanted was not made. Nothing of
    another log may be shown to come after it either (a rank that saved and left while another failed)."""
    later = sorted(
        (x for x in scan.events if x is not e and x.source_index == e.source_index and x.line > e.line),
        key=lambda x: x.line,
    )
    requeue = next((i for i, x in enumerate(later) if _requeued_and_went_on(x, went_on)), None)
    for x in later[: requeue if requeue is not None else len(later)]:
        if x.sig_id != WARNING_HANDLED and not (requeue is not None and sigs[x.sig_id].role == "wrapper"):
            return False
    if any(x.source_index != e.source_index and x.sig_id != WARNING_HANDLED and not _before(x, e) for x in scan.events):
        return False
    if requeue is not None:
        return True
    words = [w.text for (index, _), w in scan.last_words.items() if index == e.source_index and w.line > e.line]
    return any(_CLEAN_STOP.search(w) for w in words) and not any(_NOT_REQUEUED.search(w) for w in words)


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


def _killed_after_an_exit(e: Event, sig: Signature, launcher: list[Event]) -> bool:
    """A SIGKILL report that names no rank ("Killed", "exit code 137" from a shell or a container runtime), stamped
    at least LATE_KILL seconds after the launcher recorded a rank's own error exit (an exit code, not a signal):
    the orchestrator reaping what was left after that failure (Determined's container exit 137 21 s after
    Horovod's "The first process to do so was: ... Exit code: 1"), not a cause of its own."""
    if sig.id != SHELL_KILLED or e.rank is not None or e.time is None:
        return False
    return any(
        failed_on_its_own(w)
        and not FATAL_EXITS.get(exit_code(w))
        and w.time is not None
        and e.time - w.time >= LATE_KILL
        for w in launcher
    )


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
    events = text_ranks(events)
    names = {index: name for name, index in scan.source_index.items()}
    named: dict[str, set[int]] = {}
    for index, rank in scan.progress:
        if rank is not None and index in names:
            named.setdefault(names[index], set()).add(rank)
    events = killed_pids(task_file_ranks(table_ranks(spawned_ranks(events)), scan.sources, named), sigs)
    scan = dataclasses.replace(global_facts(scan), events=events, set_aside=[])
    _share_frames(scan.events)
    events = _drop_fallbacks(scan.events, sigs)
    failed_ranks = {
        e.rank
        for e in scan.events
        if e.rank is not None and "launcher-exit" in sigs[e.sig_id].tags and failed_on_its_own(e)
    }
    went_on = Survival(scan, failed_ranks, sigs)
    kept_events = []
    for e in events:
        why = _not_a_failure(e, sigs[e.sig_id], scan, went_on, sigs)
        if why is None:
            kept_events.append(e)
        elif len(scan.set_aside) < SET_ASIDE_KEPT and all(o.sig_id != e.sig_id for o, _ in scan.set_aside):
            scan.set_aside.append((e, why))  # the first of each signature
    events = kept_events
    kept = {id(e) for e in events}
    # helper threads' exceptions their ranks trained past (the generic one yields to a specific one on its line)
    went_past = sorted(
        (e for e in scan.events if e.in_thread and id(e) not in kept and not e.handled),
        key=lambda e: (e.source_index, e.line, _is_fallback(sigs[e.sig_id])),
    )
    launcher = mark_forced_kills(
        [e for e in events if sigs[e.sig_id].role == "wrapper"], [e for e in events if e.sig_id == CANCELLED]
    )
    roots = [e for e in events if sigs[e.sig_id].role == "root"]
    explicit = [e for e in roots if e.kind != "absence"]
    # a collective timeout printed above a step's cancel in the same file: the step was torn down after it
    timed_out = [e for e in events if sigs[e.sig_id].role == "collateral" and sigs[e.sig_id].cls == "nccl_timeout"]
    teardown = [e for e in roots if _teardown(e, sigs[e.sig_id], explicit, launcher, timed_out)]
    failed = explicit + [w for w in launcher if failed_on_its_own(w)]  # a launcher's record of a rank that failed
    teardown += [e for e in roots if e not in teardown and _waited_for(e, sigs, failed)]
    teardown += [e for e in roots if e not in teardown and _killed_after_an_exit(e, sigs[e.sig_id], launcher)]
    roots = [e for e in roots if e not in teardown]
    launcher += teardown
    explicit = [e for e in explicit if e not in teardown]
    roots = [
        e
        for e in roots
        if e.kind != "absence" or not any(r.source_index == e.source_index and r.line > e.line for r in explicit)
    ]
    collateral = [e for e in events if sigs[e.sig_id].role == "collateral"]
    later = _restart_failed_after_knock_on(roots, collateral, launcher, sigs)
    if later:  # the first attempt ended on knock-on alone; the restart then failed its own way: the first started it
        launcher += later
        roots = [e for e in roots if all(e is not x for x in later)]
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
    ended = ended_after_a_failure(roots, scan, sigs) or thread_failed_then_limit(roots, scan, sigs)
    if ended:  # a rank failed on its own, the job hung on it, and the limit (or a stop) came long after: teardown
        launcher += ended
        gone = {id(e) for e in ended}  # by identity: Event's dataclass equality compares every field
        roots = [e for e in roots if id(e) not in gone]
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
    # after that error (C++'s "terminate called" aborting the process the exception left): not on its own; nor a kill
    # torchrun's failure table timed well after another worker's own error exit (late_table_kills)
    late = late_table_kills(exits)
    fatal = [
        w for w in exits if FATAL_EXITS.get(exit_code(w)) and not _after_its_knock_on(w, view) and id(w) not in late
    ]
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
        # a rank the launcher saw killed by a signal (the first it noticed); the others' timeouts follow from it
        noticed = noticed_line(exits)
        if any(id(w) in noticed for w in fatal):
            fatal = sorted(fatal, key=lambda w: (w.source_index, noticed.get(id(w), w.line)))
        roots, promoted = fatal[:1], False
    elif not roots and collateral and (anonymous := _killed_before(launcher, collateral, sigs)) is not None:
        # a launcher saw a process killed by a signal (its record names no rank: DeepSpeed's) before any knock-on
        roots, promoted = [anonymous], False
    elif not roots and collateral:
        roots, promoted = _timeouts_first(collateral, sigs), True
        standing = {id(e) for e in roots}  # by identity: Event's dataclass equality compares every field
        collateral = [e for e in collateral if id(e) not in standing]
    elif not roots and exits:
        noticed = noticed_line(exits)
        roots = [
            sorted(
                exits,
                key=lambda w: (
                    not FATAL_EXITS.get(exit_code(w)) or id(w) in late,
                    w.source_index,
                    noticed.get(id(w), w.line),
                ),
            )[0]
        ]
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
        cut = refine([cut], sigs)[0]  # its last frame can say what raised (DeepSpeed's batch-size check)
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
        # a group that could not form again after a rank's own failure (an elastic restart) names no rank and so sits
        # in every rank's burst: it is that failure's consequence, not a rival to it
        burst = [e for e in remaining if _close(e, first) and not _regrouping_after(e, first, sigs)]
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


# how a restarted group fails to form again: peers' stale addresses, the rendezvous, a connection refused
_RESTART_FAILURES = {"rendezvous_failure", "nccl_system_error", "nccl_remote_peer_exited"}


def _regrouping_after(e: Event, first: Event, sigs: dict[str, Signature]) -> bool:
    """`e` is a rendezvous failure naming no rank that came after `first`, a rank's own failure."""
    return (
        e is not first
        and e.rank is None
        and first.rank is not None
        and sigs[e.sig_id].cls == "rendezvous_failure"
        and sigs[first.sig_id].cls != "rendezvous_failure"
        and _before(first, e)
    )


def _restart_failed_after_knock_on(
    roots: list[Event], collateral: list[Event], launcher: list[Event], sigs: dict[str, Signature]
) -> list[Event]:
    """A console of torchrun with --max-restarts (no --log-dir to tell the attempts apart): the first attempt ended
    with knock-on only (a rank's collective timeout; the rank it waited for printed nothing), the agent recorded the
    worker's exit and restarted the group, and the restart failed to form again (connecting to a peer whose address
    was stale, a rendezvous: _RESTART_FAILURES). The restart is the first attempt's consequence: returns those later
    roots, to stand aside so that the first attempt's knock-on is read (which rank was silent), else []."""
    if not roots:
        return []
    later = []
    for r in roots:
        exits = [
            w.line
            for w in launcher
            if w.source_index == r.source_index and "launcher-exit" in sigs[w.sig_id].tags and w.line < r.line
        ]
        if not exits:
            return []  # a failure of its own in the first attempt (or in another source): it stands
        first_exit = min(exits)
        if sigs[r.sig_id].cls not in _RESTART_FAILURES or not any(
            c.source_index == r.source_index and c.line < first_exit and sigs[c.sig_id].cls == "nccl_timeout"
            for c in collateral
        ):
            return []  # a lost peer ended the first attempt (the peer died of something), or the restart's own error
        later.append(r)
    return later


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
    attribution = attribute_rank(
        Case(view, sig, event, same_sig, related, ranks, launcher, sigs, scan.precursors, oddities)
    )
    return Finding(sig, event, same_sig, ranks, count, attribution.rank, promoted, related, [], launcher, attribution)


def _unfinished_on_a_silent_rank(scan: ScanResult, view: JobView) -> list[Event]:
    """An operation (a save) started as a rank's last word, with nothing after it in that rank's own log: alone, an
    excerpt that ends there. In a job whose other ranks then reported the knock-on (collective timeouts, lost
    peers) while this rank reported nothing, it is where this rank stopped."""
    return [e for e in scan.unfinished if e.rank is not None and _silent_while_others_waited(view, e.rank)]


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


WEAK_RULES = {
    "silent_rank",
    "behind_in_sequence",
    "progress_stopped_first",
    "device_index",
    "all_alike",
    "unknown",
    "peer_unknown",
}


FLIGHT_RECORDER = "flight_recorder.collective_never_joined"  # the finding the dumps make of a launcher's record


def apply_flight_recorder(finding: Finding, recorder: dict, sigs: dict[str, Signature]) -> Finding:
    """The dumps outrank guesses from the text: the one rank that never joined the collective the others wait
    in (or whose sizes differ at the same sequence number) started it. When the text had only a launcher's record
    of a worker's error exit (the workers' own output not handed over), the dumps' stuck collective becomes the
    diagnosis (flight_recorder.collective_never_joined), the exits its knock-on."""
    stuck, mismatch = recorder.get("stuck") or {}, recorder.get("mismatch") or {}
    assert finding.attribution is not None  # attribute() gives every finding one
    launcher_only = "launcher-exit" in finding.sig.tags and not FATAL_EXITS.get(exit_code(finding.event))
    weak = (
        finding.attribution.rule in WEAK_RULES or finding.promoted or finding.sig.cls == "nccl_timeout" or launcher_only
    )
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
        if launcher_only and FLIGHT_RECORDER in sigs:
            return _never_joined(finding, stuck, rank, text, recorder, sigs[FLIGHT_RECORDER])
    else:
        return finding
    finding.initiating_rank = rank
    finding.attribution = Attribution(rank, "flight_recorder", "high", [Reason(text)] + finding.attribution.reasons[:1])
    return finding


def _never_joined(finding: Finding, stuck: dict, rank: int, text: str, recorder: dict, sig: Signature) -> Finding:
    """The finding a launcher-only diagnosis becomes when the dumps show the collective rank `rank` never joined."""
    dumps = [d for d in recorder.get("dumps", []) if rank_in_name(d) == rank] or recorder["dumps"][:1]
    values = {
        "seq": str(stuck["seq"]),
        "op": str(stuck["op"]),
        "waiting": rank_list(stuck["waiting"]),
        "newest": str(stuck["newest_of_not_joined"][rank]),
    }
    event = dataclasses.replace(
        finding.event,
        sig_id=sig.id,
        kind="line",
        source=dumps[0],
        line=1,
        rank=rank,
        time=None,
        text=text,
        values=values,
        context=[],
        after=[],
        frames=[],
    )
    exits = f"the launcher's record{'s' if len(finding.events) > 1 else ''} of the ranks' ends: their knock-on"
    return dataclasses.replace(
        finding,
        sig=sig,
        event=event,
        events=[event],
        ranks=[rank],
        count=1,
        initiating_rank=rank,
        promoted=False,
        related=[],
        launcher=[finding.event, *finding.launcher],
        attribution=Attribution(
            rank,
            "flight_recorder",
            "high",
            [Reason(text, dumps[0], None), Reason(exits, finding.event.source, finding.event.line)],
        ),
    )


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
