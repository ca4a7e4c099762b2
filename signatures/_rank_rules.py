"""Which rank started it: rules over the job's per-rank view (_ranks.JobView), tried in the order of RULES below.
The first that answers names the rank; `rule` and `confidence` in the report say which answered. Several rules can
answer with the same rule id (a rank recovered from the store's traceback or from the launcher's records is
`recovered_rank` either way). The rule ids, in the order the first rule giving each is tried:
- `differ_at_seq`: ranks' NCCL watchdog timeouts at one sequence number (the same call of the group) name
  different operations or sizes (WorkNCCL's OpType, NumelIn): the ranks were not running the same collective. The
  rank alone in its call against two or more that agree (high; medium from a release that names no process group,
  where three or more ranks must all have timed out at the one number, 100 or above, in different operations), else
  no rank (medium); the finding becomes `nccl.ranks_differ_at_same_collective` (class collective_mismatch), the timeouts its knock-on.
- `absent_rank`: a rendezvous failed and exactly one rank of the world size never printed a line: the
  others waited for it (medium); or one rank alone could not reach the store while the others reached it and
  gave up waiting for it (a wrong MASTER_ADDR on that rank) (medium, _alone_unreachable).
- `pending_on_one_rank`: a save that one rank writes for the job (a plain torch.save on rank 0: signatures
  tagged `one-writer`; not a DCP, Megatron or DeepSpeed save, where every rank writes) was started by one
  rank only and never completed, in a job of several ranks: that rank (medium). A save that is a rank's last
  word, alone no evidence (an excerpt may end there), counts when that rank is silent and the others report
  the knock-on; so does any save (DCP's included) that one rank alone started, when that rank then reported
  nothing while the others reported the knock-on (medium).
- `recovered_rank`: the first line named none, but the same failure's other lines in its burst, or
  the launcher's record of the one rank that failed on its own (a rank whose own errors are knock-on
  timeouts or lost peers did not fail on its own), do (medium); or the launcher saw one rank fail on
  its own at least 5 s before any other (low); or every rank but one reported only the knock-on
  (medium: an exception in a thread, printed with no rank, leaves its rank silent); or, for a thread's failure printed
  with no rank, the one rank whose last word above it is not its last step while the others' is (low). torchrun's
  "local_rank" records are read as global ranks through the pid of its failure table, or, on a later
  node's console without one, through the ranks that console's workers name (_ranks.global_ranks); the
  tracebacks inside that table are the rank of their entry (_ranks.table_ranks). Failing those, the first
  error line after it in the same source that names a rank, when that line starts a Python traceback or is an
  exception (a CUDA kernel's assertion printed without a prefix, then `[rank0]: Traceback ...`) (low); or the
  launcher's record of exactly one rank ending on its own within 3 lines under the line, as srun prints a task's end
  when its output stops (low, _exit_right_below).
- `explicit_root`: the initiating event names its rank (high; a kernel OOM kill names a pid, and the launcher's
  record of the worker with that pid names the rank, _ranks.killed_pids); or a gathered exception every rank printed
  (torch.distributed.checkpoint's "CheckpointException ranks:dict_keys([2])") lists one rank alone (high).
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
- `odd_stack_out`: no rank failed on its own, the launcher saw at least two ranks end by a signal (a stall
  watchdog's abort, a kill), and the stacks they printed show the others waiting inside a collective and one rank
  elsewhere: the job hung there (`train.stack_dump_collective_wait`, job_hang_no_progress, _dumped_hang) (medium);
  the same when the job was cancelled or preempted after its steps had stopped (the stacks dumped, then a cancel);
  or every rank failed alike (or timed out alike), but the stacks printed at the end (faulthandler,
  py-spy) show one rank's main thread somewhere the others' are not (_oddity.odd_stack) (medium); for a lost peer
  with nothing else to go on, low (as `odd_value_out`).
- `preempted_node`: a launcher's stop signal (class preemption_sigterm, job-wide) reached one node only: every
  report of it is in one source of several, and one rank logged there: that rank (medium).
- `job_wide`: the failure is the job's, not a rank's (preemption, time limit, rendezvous; a rendezvous that
  waited for a rank, or an agent that lost the store, after another rank failed on its own is that failure's
  knock-on).
- `collective_odd_one_out`: a mismatch report names the rank that differs (high; low when a single report
  names the first rank its reporter checks, which reads the same whichever of the two differs); or every rank
  timed out, all but one inside the same collective and that one inside another (medium); or, with knock-on
  only, the ranks' tracebacks (timeouts and lost peers alike) show all but one in the same collective (medium;
  DDP's gradient all-reduce from autograd's backward counts as one; when the one is inside a receive whose code
  line names its source as a number, `recv(t, src=2)`, and that rank is among the rest, the sender that went on
  without sending is named). Found from the tracebacks of timeouts or lost
  peers, the finding becomes `c10d.ranks_in_different_collectives` (class collective_mismatch): the ranks called
  different collectives, and the timeouts are its knock-on (_as_divergence).
- `odd_work_out`: every rank timed out, and the watchdogs' WorkNCCL lines put all but one in the same work (one
  SeqNum and OpType) and that one in work of another number, ahead (it issued calls the others never reached) or
  behind (medium; _mismatch.alone_in_its_work). Unlike one call that differs in op (`differ_at_seq`), numbers apart
  do not show which collective each rank called at one call, so the class stays the timeout's.
- `odd_value_out`: a mismatch report names no rank, but the ranks' last lines do: one rank printed a different
  number where every other rank printed the same one in the same line (_oddity.odd_value) (medium); for a lost
  peer, or a timeout every rank reported alike, with nothing else to tell which, that rank ("running eval: 5
  batches" where the others ran 4), or the rank whose stack in the dumps at the end differs (`odd_stack_out`) (low).
- `skipped_collective`: a mismatch report names no rank, and one rank's last line says it skipped a collective or
  a sync ("skipping metric sync") the others then ran (_oddity.odd_skip) (medium).
- `mismatch_reporter`: one rank alone reported a mismatch that names no other rank, and failed on it (low).
- `launcher_fatal_signal`: the launcher saw that rank die of a signal before the others failed (high); also when
  every failure of the ranks' own came more than a second after that kill (an elastic restart that then failed
  to connect).
- `launcher_exit`: only the launcher's record exists (medium for a signal, low for an exit code); or ranks lost
  a peer and the launcher saw exactly one other rank end on its own (an exit code, like timeout(1)'s 124) (medium);
  or a launcher's record of a process killed by a signal that names no rank (DeepSpeed's), above every knock-on
  failure: it is the root, with no rank.
- `silent_rank`: every rank expected (seen, or implied by the world size or by numbering) reported
  the collective timeout except one (high with a world size, medium otherwise). A monitored barrier's report that names one rank
  as never arriving ("Ranks 3 failed to pass monitoredBarrier") names it outright (high), as does Horovod's stall
  inspector listing one rank alone missing from its stalled tensors ("[missing ranks: 1]"; one rank alone ready for a
  tensor the others never submitted is `collective_odd_one_out`, high). A SIGTERM a rank was sent when
  the job was ended (teardown, preemption_sigterm) is not its report, nor its own failure. A time limit that
  came long after the ranks stopped and after two or more ranks' knock-on is teardown (_stall.failed_before_limit),
  and so is a step cancel printed under a collective timeout in the same task's file (srun -K after the timeout).
  When several ranks did not report it (a launcher stopped them first), the one whose last word is not its last
  step while the others' is (a "flushing..." line, then nothing) is named (low, _oddity.went_elsewhere).
- `finished_early`: ranks lost a peer, and exactly one other rank said it stopped training on its own
  (early stopping, "training finished": a completion line) before: it left (medium); or torchrun's failure table
  lists every rank of the known world size but one, which reported nothing: it had exited 0 (_left_unlisted)
  (medium); or every rank timed out and exactly one had said it finished before its own timeout: it ran out of
  data first (medium).
- `peer_unknown`: a lost-peer report with no way to tell which peer went (rank null, low); or a log of one rank
  alone whose only failure is a knock-on (a timeout, a lost peer): the rank it waited on is not in the log.
- `first_sign` (a value every rank shares, like a gradient norm another rank printed at the same step, is no
  rank's own sign): every rank failed the same way, but one rank alone showed the same class of trouble first
  (a count rule's first match below its threshold, like one non-finite loss) (medium); or each rank's first sign
  names a training step and one rank's is earlier than every other rank's ("step 10 loss nan" where the others'
  first is at step 12) (medium); or one rank stopped the
  job on a check of a value reduced over all ranks (a non-finite global loss) that another rank alone had
  printed going bad first (medium); or, for a numerics failure on every rank, one rank's own failure alone reports a
  non-finite value where the others' are finite ("local=nan"), or its last logged loss alone is 1,000 times the
  others' (medium).
- `all_alike`: every rank failed the same way: no single rank started it (rank null); or several ranks timed out in
  one call while two or more ranks of the job did not report it and neither a launcher record nor their progress
  singles one out (low, _several_alike; it names the one a launcher saw end on its own, `launcher_exit`, or the one
  whose progress stopped first, `progress_stopped_first`, when there is one).
- `behind_in_sequence`: the timeouts print PyTorch's collective sequence numbers and one rank
  completed fewer than the others (medium: a rank stuck inside a collective shows the previous one).
- `device_index`: the line names no rank and nothing above tells which, but it names the GPU it happened on ("GPU 1
  has a total capacity"), in a job of several processes (a world size, a launcher's records, a traceback through
  torch.distributed, DeepSpeed or Accelerate, or another such line naming another GPU): launchers give each process
  the GPU of its local rank, so that local rank (low). GPU 0 alone is not read so (with one GPU visible per task,
  every rank says GPU 0).
- `progress_stopped_first`: among ranks whose training progress is known, one stopped well before
  the others (low).
"""

from __future__ import annotations

import dataclasses
import re
import statistics
from dataclasses import dataclass

from ._events import Event
from ._lines import EXCEPTION_LINE, MPI_TAG
from ._mismatch import alone_in_its_work, differ_at_seq, in_another_collective, odd_one_out, went_its_own_way
from ._oddity import Oddities
from ._order import BURST_LINES, SIGN_SLACK, _close, _not_after, _plainly_before
from ._ranks import (
    FATAL_EXITS,
    TEARDOWN_EXITS,
    JobView,
    exit_code,
    failed_on_its_own,
    same_second,
    same_table,
    task_ranks,
)
from ._schema import Signature
from ._stall import STALLED, STALLED_LIVE, STOPPED
from ._trend import step_of
from ._vanished import KILLED_ALONE, NODE_LOST
from ._why import Attribution, Reason, rank_list

STOPPED_EARLY_SECONDS = 30.0  # a rank whose progress stopped this long before the others' did stands out


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


STACK_WAIT = "train.stack_dump_collective_wait"  # a stack dump of a process blocked in a collective


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


@dataclass
class Case:
    """What the rank rules look at: the initiating event and its signature, the other events of that signature and
    the related ones, the ranks it was seen on, the launcher's records, and the job's per-rank view."""

    view: JobView
    sig: Signature
    event: Event
    same_sig: list[Event]
    related: list[Event]
    ranks: list[int]
    launcher: list[Event]
    sigs: dict[str, Signature]
    precursors: dict[tuple[str, int | None], Event]
    oddities: Oddities

    @property
    def first(self) -> Reason:
        return Reason(f"first seen: {self.event.text[:160]}", self.event.source, self.event.line)

    @property
    def knock_on_ranks(self) -> set[int]:
        """The ranks whose own errors are consequences (a timeout, a lost peer)."""
        return {r for r, s in self.view.ranks.items() if s.collateral}

    @property
    def every_rank(self) -> bool:
        """The event's signature fired on two or more ranks, every rank the job is known to have among them."""
        return len(self.ranks) >= 2 and set(self.ranks) >= set(self.view.expected)


def _because(rank: int | None, rule: str, confidence: str, *reasons: Reason) -> Attribution:
    return Attribution(rank, rule, confidence, list(reasons))


def _differing_collective(c: Case) -> Attribution | None:
    differ = differ_at_seq(c.same_sig, c.view.groups) if c.sig.cls == "nccl_timeout" else None
    # the ranks timed out in one collective call they did not agree on: a mismatch
    return _because(*differ) if differ is not None else None


def _never_joined(c: Case) -> Attribution | None:
    if c.sig.cls != "rendezvous_failure" or len(c.view.implied) != 1 or not c.view.ranks:
        return None
    rank = next(iter(c.view.implied))
    why = f"rank {rank} of {len(c.view.expected)} never printed a line: the others waited for it to join"
    return _because(rank, "absent_rank", "medium", c.first, Reason(why, None, None))


def _behind_at_rendezvous(c: Case) -> Attribution | None:
    behind = _left_behind(c.view) if c.sig.cls == "rendezvous_failure" else None
    if behind is None:
        return None
    gave_up = sorted(c.view.expected - {behind})
    why = (
        f"{'rank' if len(gave_up) == 1 else 'ranks'} {rank_list(gave_up)} gave up waiting for the others to join and "
        f"exited with an error; rank {behind} raised nothing and was still running until the launcher stopped it: it "
        "never reached the rendezvous"
    )
    return _because(behind, "absent_rank", "medium", c.first, Reason(why, None, None))


def _pending_on_one_rank(c: Case) -> Attribution | None:
    event = c.event
    if event.kind != "absence" or event.rank is None or len(c.view.expected) <= 1:
        return None
    started = {e.rank for e in c.same_sig} | {event.rank}
    # one rank started the operation (rank 0 saving) and never finished it: a save only that rank writes, or any
    # save when that rank then said nothing while the others reported the knock-on
    if started != {event.rank} or not ("one-writer" in c.sig.tags or _silent_while_others_waited(c.view, event.rank)):
        return None
    rest = sorted(c.view.expected - started)
    why = (
        f"only rank {event.rank} started it and it never completed; "
        f"{'rank' if len(rest) == 1 else 'ranks'} {rank_list(rest)} went on without it or waited"
    )
    return _because(event.rank, "pending_on_one_rank", "medium", c.first, Reason(why, event.source, event.line))


def _store_host(c: Case) -> Attribution | None:
    event = c.event
    if c.sig.cls not in RANK_HOSTED:
        return None
    if event.rank is None and any(_STORE_SERVER.search(f) for f in event.frames):
        why = (
            "the line names no rank, but its traceback is init_process_group's env:// or tcp:// rendezvous, where "
            "rank 0 alone starts the store's server and binds the port (torch/distributed/rendezvous.py)"
        )
        return _because(0, "recovered_rank", "medium", c.first, Reason(why, event.source, event.line))
    if event.rank is not None:
        why = (
            f"rank {event.rank} hosts the job's store and could not bind its port; the other ranks had nothing to join"
        )
        return _because(event.rank, "explicit_root", "medium", c.first, Reason(why, event.source, event.line))
    return None


def _interrupted(c: Case) -> Attribution | None:
    event = c.event
    if c.sig.id != INTERRUPTED or event.rank is None:
        return None
    waited = sorted({e.rank for e in c.same_sig if e.rank is not None and e.rank != event.rank})
    idle = _idle_before(c.view, event)
    stuck = (
        f"; no rank made training progress in the {idle:.0f} s before it"
        if idle is not None
        else "; the log does not time the ranks' progress, so how long the job had been stuck is unknown"
    )
    why = (
        f"when the job was interrupted (SIGINT), {'rank' if len(waited) == 1 else 'ranks'} {rank_list(waited)} "
        f"{'was' if len(waited) == 1 else 'were'} waiting inside a collective and rank {event.rank} alone was "
        f"somewhere else: the others waited on it{stuck}"
    )
    return _because(
        event.rank,
        "interrupted_elsewhere",
        "medium" if idle is not None else "low",
        Reason(why, event.source, event.line),
        Reason(f"where rank {event.rank} was: {_innermost(event)}", event.source, event.line),
    )


def _stalled(c: Case) -> Attribution | None:
    return _stalled_reasons(c.event, _because) if c.sig.id in _ENDED else None


def _stalled_live(c: Case) -> Attribution | None:
    if c.sig.id != STALLED_LIVE:
        return None
    v = c.event.values
    why = (
        f"every rank's training progress stopped {v.get('idle', '?')} s before the end of the log (steps had come "
        f"every {v.get('pace', '?')} s), while the ranks went on printing that they were at step {v.get('step', '?')}: "
        "the job is hung, and nothing in the log says on which rank"
    )
    return _because(None, "stalled_while_logging", "medium", Reason(why, c.event.source, c.event.line))


def _node_lost(c: Case) -> Attribution | None:
    return _node_lost_reasons(c.event, _because) if c.sig.id in (NODE_LOST, KILLED_ALONE) else None


def _cut_traceback(c: Case) -> Attribution | None:
    event = c.event
    if c.sig.id != TRACEBACK_CUT:
        return None
    whose = f"rank {event.rank}'s" if event.rank is not None else "a"
    why = (
        f"the log ends inside {whose} Python traceback, before the exception line that would name the error; its "
        f"last frame: {event.text[:120]}"
    )
    return _because(event.rank, "traceback_cut", "low", Reason(why, event.source, event.line))


def _stack_wait(c: Case) -> Attribution | None:
    event = c.event
    if c.sig.id != STACK_WAIT or "stack" not in event.values:  # see _attribution._dumped_hang
        return None
    ended = [
        Reason(f"the launcher saw rank {w.rank} end ({exit_code(w)})", w.source, w.line)
        for w in [w for w in c.launcher if w.rank is not None][:3]
    ]
    return _because(
        event.rank, "odd_stack_out", "medium", Reason(event.values["stack"], event.source, event.line), *ended
    )


def _preempted_node(c: Case) -> Attribution | None:
    if c.sig.scope != "job" or c.sig.cls != "preemption_sigterm":
        return None
    node = _one_node_preempted(c.view, c.event, c.same_sig)
    if node is None:
        return None
    why = (
        f"{c.sig.title}, on one node only ({c.event.source}): rank {node} is the one rank whose log is there; no other "
        "node's launcher got the signal"
    )
    return _because(node, "preempted_node", "medium", Reason(why, c.event.source, c.event.line))


def _unreachable_alone(c: Case) -> Attribution | None:
    alone = _alone_unreachable(c.view, c.sig, c.event, c.same_sig)
    return _because(c.event.rank, "absent_rank", "medium", alone, c.first) if alone is not None else None


def _job_wide(c: Case) -> Attribution | None:
    if c.sig.scope != "job" or c.sig.cls == "collective_mismatch":
        return None
    why = f"{c.sig.title}: this is the job's failure, not one rank's"
    return _because(None, "job_wide", "high", Reason(why, c.event.source, c.event.line))


def _mismatch(c: Case) -> Attribution | None:
    """A collective mismatch: the rank its report names as differing, else the ranks' own last lines, else the one
    rank that reported it, else no rank."""
    event = c.event
    if c.sig.cls != "collective_mismatch":
        return None
    odd = odd_one_out(c.same_sig, c.view)
    if odd is not None:
        return _because(odd[0], "collective_odd_one_out", odd[2], odd[1])
    # the ranks' last lines say which one's collective differs, or that one rank left out a collective the others ran
    for odd_line, rule, then in (
        (c.oddities.value, "odd_value_out", "whose sizes did not match"),
        (c.oddities.skipped, "skipped_collective", "that did not match"),
    ):
        if odd_line is not None:
            return _because(
                odd_line.rank,
                rule,
                "medium",
                Reason(odd_line.text, odd_line.source, odd_line.line),
                Reason(f"the ranks then failed on a collective {then}", event.source, event.line),
            )
    if c.sig.id == ZERO3_DISAGREEMENT:  # each report compares its rank's list with rank 0's
        return _against_rank0(c)
    if len({e.rank for e in c.same_sig}) == 1 and event.rank is not None:  # one rank alone found it and failed on it
        why = (
            f"only rank {event.rank} reported the mismatch (and failed on it); the report does not say which rank's "
            "collective differs"
        )
        return _because(event.rank, "mismatch_reporter", "low", Reason(why, event.source, event.line))
    why = "the mismatch report does not say which rank differs from the others"
    return _because(None, "job_wide", "medium", Reason(why, event.source, event.line))


ZERO3_DISAGREEMENT = "deepspeed.zero3_rank_disagreement"


def _against_rank0(c: Case) -> Attribution:
    """DeepSpeed's "disagreement between rank0 and rankN": rank N's list of gathered parameters differs from rank 0's.
    Every other rank of the job reporting it (two or more): rank 0 is the odd one (medium). Some ranks only, or one
    report alone, reads the same whichever side ran different code: no rank."""
    reporters = sorted({e.rank for e in c.same_sig if e.rank is not None})
    others = sorted(set(c.view.expected) - {0})
    if len(reporters) >= 2 and reporters == others:  # every other rank differs from rank 0 (a few: they may be odd)
        why = (
            f"every other rank ({rank_list(reporters)}) found its gathered parameters differ from rank 0's: rank 0 is "
            "the one that ran different code"
        )
        return _because(0, "collective_odd_one_out", "medium", Reason(why, c.event.source, c.event.line))
    why = (
        f"rank {reporters[0] if reporters else '?'}'s parameters differ from rank 0's; the report reads the same "
        "whichever of the two ran different code"
    )
    return _because(None, "job_wide", "medium", Reason(why, c.event.source, c.event.line))


def _launcher_only(c: Case) -> Attribution | None:
    """Only the launcher's record of a rank's end: the exit code's meaning, the others' ends as teardown."""
    event = c.event
    if "launcher-exit" not in c.sig.tags:
        return None
    code = exit_code(event)
    meaning = FATAL_EXITS.get(code)
    confidence = "medium" if meaning else "low"
    text = (
        f"only the launcher saw {'a rank' if event.rank is None else f'rank {event.rank}'} end: exit {code}"
        + (f" ({meaning})" if meaning else "")
        + "; no rank's own error is in this log"
        + ("; its record does not say which rank it was" if event.rank is None else "")
    )
    others = [w for w in c.launcher if w is not event and w.rank is not None and not failed_on_its_own(w)]
    reasons = [Reason(text, event.source, event.line)]
    if others:
        # each of srun's listed tasks counts ("tasks 9-10,12-15")
        stopped_ranks = {r for w in others if w.rank is not None for r in task_ranks(w.text, w.rank)}
        stopped = f"the launcher then stopped {len(stopped_ranks)} other rank(s): teardown, not the cause"
        reasons.append(Reason(stopped, others[0].source, others[0].line))
    tied = same_second(event, c.launcher)
    if tied:
        why = (
            f"{'rank' if len(tied) == 1 else 'ranks'} {rank_list(tied)} ended in the same second by the launcher's "
            f"table: which came first it does not tell"
        )
        reasons.append(Reason(why, event.source, event.line))
        confidence = "low"
    view = c.view
    own = view.ranks.get(event.rank) if event.rank is not None else None
    if meaning and own and own.collateral == [] and any(s.collateral for s in view.ranks.values()):
        why = f"rank {event.rank} shows no error of its own while the others report the knock-on"
        return _because(event.rank, "launcher_fatal_signal", "high", *reasons, Reason(why, None, None))
    return _because(event.rank, "launcher_exit", confidence, *reasons)


def _gathered(c: Case) -> Attribution | None:
    gathered = _gathered_ranks(c.event, c.launcher)
    if gathered is None or len(gathered[1]) != 1:
        return None
    wrapper, (only,) = gathered  # every rank prints the failed one's traceback
    why = f"the gathered exception every rank printed lists rank {only} alone as failed; this is its traceback"
    return _because(only, "explicit_root", "high", Reason(why, wrapper.source, wrapper.line), c.first)


def _straggler(c: Case) -> Attribution | None:
    stall = c.sig.cls == "nccl_timeout" or "stall" in c.sig.tags
    straggler = _named_straggler([c.event, *c.same_sig], set(c.view.expected)) if stall else None
    # a monitored barrier's own report (or Horovod's stall inspector) names the one rank that never arrived, or the
    # one rank alone in a collective the others never joined
    if straggler is None:
        return None
    rank, reason, rule = straggler
    return _because(rank, rule, "high", reason, c.first)


def _lost_peer(c: Case) -> Attribution | None:
    return _peer(c.view, c.event, c.ranks, c.launcher, c.oddities) if c.sig.blame == "peer" else None


def _signed(sign: Event, then: str, *more: Reason) -> Attribution:
    text = f"rank {sign.rank} alone showed it first: {sign.text[:120]} (line {sign.line}), {then}"
    if sign.values.get("nonfinite_odd"):
        text = (
            f"rank {sign.rank}'s own line alone carries more non-finite values than the others' at the same moment: "
            f"{sign.text[:120]} (line {sign.line}); its values went bad, {then}"
        )
    return _because(sign.rank, "first_sign", "medium", Reason(text, sign.source, sign.line), *more)


def _all_failed_alike(c: Case) -> Attribution | None:
    """Every rank raised the same root failure: the one that showed it first, or whose values, tracebacks or stacks
    differ, else no rank."""
    sig, event, view = c.sig, c.event, c.view
    if event.rank is None or not c.every_rank or sig.role == "collateral" or _raised_otherwise(sig, event, c.same_sig):
        return None
    ranks = c.ranks
    alike = Reason(f"all {len(ranks)} ranks failed the same way ({rank_list(ranks)})", event.source, event.line)
    sign = _first_sign(c.precursors, sig, event, c.sigs, view, ranks) or _first_by_step(
        c.precursors, sig, c.sigs, ranks
    )
    if sign is not None:
        return _signed(sign, "before every rank failed the same way", alike)
    bad = _odd_value(view, c.same_sig, ranks) if sig.cls in NUMERICS else None
    if bad is not None:
        return _because(bad[0], "first_sign", "medium", bad[1], alike)
    own_way = went_its_own_way(view, c.same_sig)
    if own_way is not None:
        return _because(own_way[0], own_way[1], "medium", own_way[2], alike)
    stack = c.oddities.stack  # the stacks printed at the end: the one rank not where the others waited
    if stack is not None:
        return _because(stack.rank, "odd_stack_out", "medium", Reason(stack.text, stack.source, stack.line), alike)
    return _because(None, "all_alike", "medium", alike)


def _knock_on(c: Case) -> Attribution | None:
    """A knock-on failure (a timeout) started it: the rank that did not report it or is behind, the one in another
    collective or another stack, or, when every rank timed out alike, the one whose last numbers differ."""
    sig, event, view = c.sig, c.event, c.view
    if sig.role != "collateral" and sig.cls != "nccl_timeout":
        return None
    found = _silent_or_behind(view, sig, c.ranks, event, c.sigs, c.oddities)
    if found is not None:
        return found
    own_way = went_its_own_way(view, c.same_sig)
    if own_way is not None:
        return _because(own_way[0], own_way[1], "medium", own_way[2])
    # where every rank was when its knock-on came (a timeout here, a lost peer there): one in another collective
    elsewhere = in_another_collective([*c.same_sig, *(e for s in view.ranks.values() for e in s.collateral)])
    if elsewhere is not None:
        return _because(elsewhere[0], "collective_odd_one_out", "medium", elsewhere[1])
    ahead = alone_in_its_work(c.same_sig, view.groups) if c.every_rank else None
    if ahead is not None:  # the watchdogs' own work: all but one at one call, that one at another number
        return _because(ahead[0], "odd_work_out", "medium", ahead[1])
    stack = c.oddities.stack
    if stack is not None:
        return _because(stack.rank, "odd_stack_out", "medium", Reason(stack.text, stack.source, stack.line))
    if event.rank is None:
        return None
    if not c.every_rank:
        return _several_alike(c)
    value = c.oddities.value  # one rank's last numbers differ from the rest's: the one that went its own way
    if value is not None:
        alike = Reason(f"all {len(c.ranks)} ranks timed out alike", event.source, event.line)
        return _because(value.rank, "odd_value_out", "low", Reason(value.text, value.source, value.line), alike)
    why = f"all {len(c.ranks)} ranks timed out alike and none is missing or behind"
    return _because(None, "all_alike", "low", Reason(why, event.source, event.line))


def _several_alike(c: Case) -> Attribution | None:
    """Several ranks timed out in the same collective call (one sequence number, or none printed) and more than one
    rank of the job did not report it: any of those could be the one they waited for, and which rank's timeout was
    printed first says nothing (each rank's watchdog counts from its own start of the call). Of those, the one a
    launcher saw end on its own (medium), or the one whose progress stopped first (low); else no rank, low. None when
    the timeouts name different calls or only one rank is missing (the silent rule's case)."""
    if c.sig.cls != "nccl_timeout" or len(c.ranks) < 2:
        return None
    seqs = {e.values.get("seq_num") for e in c.same_sig if e.rank is not None}
    if len(seqs - {None, ""}) > 1:
        return None
    missing = sorted(c.view.expected - set(c.ranks))
    if len(missing) < 2:
        return None
    alike = f"ranks {rank_list(c.ranks)} timed out alike"
    ended = {r: x.exit.event for r in missing if (x := c.view.ranks.get(r)) is not None and x.exit is not None}
    own = {r: e for r, e in ended.items() if failed_on_its_own(e)}
    if len(own) == 1:  # the launcher saw one of them end on its own: the one they waited for
        ((r, e),) = own.items()
        why = f"the launcher saw rank {r} end on its own (exit {exit_code(e)}); {alike}"
        return _because(r, "launcher_exit", "medium", Reason(why, e.source, e.line))
    progress = {
        r: x.progress for r, x in c.view.ranks.items() if x.progress is not None and x.progress.step is not None
    }
    if len(progress) >= 2:
        low = min(p.step for p in progress.values() if p.step is not None)
        top = max(p.step for p in progress.values() if p.step is not None)
        behind = [r for r, p in progress.items() if p.step == low]
        if len(behind) == 1 and behind[0] in missing and low < top:  # one stopped making progress first
            p = progress[behind[0]]
            why = f"rank {behind[0]}'s last step was {low} while the others reached {top}; {alike}"
            return _because(behind[0], "progress_stopped_first", "low", Reason(why, p.source, p.line))
    why = f"{alike}; ranks {rank_list(missing)} did not report the timeout, and any of them could be the one waited for"
    return _because(None, "all_alike", "low", Reason(why, c.event.source, c.event.line))


def _named(c: Case) -> Attribution | None:
    """The line names its rank: that rank, unless another rank showed a sign first, or the log is that rank's alone
    and what it reported is a knock-on."""
    sig, event = c.sig, c.event
    if event.rank is None:
        return None
    sign = _sign_elsewhere(c.precursors, sig, event, c.sigs)
    if sign is not None:
        return _signed(sign, f"while rank {event.rank}, which stopped the job, showed none of its own", c.first)
    gone = _exited_before_knock_on(c) if sig.role == "collateral" else None
    if gone is not None:  # the launcher saw another rank end on its own before this rank reported the knock-on
        return gone
    expected = c.view.expected
    if sig.role == "collateral" and set(c.view.ranks) == {event.rank} and (len(expected) > 1 or event.rank):
        # the log is one rank's alone, and its knock-on (a timeout, a lost peer) says it waited on another that the
        # log does not show (with other ranks in the log that went on, the one left waiting is the odd one)
        why = (
            f"this log shows rank {event.rank} alone, and what it reported is a consequence: it waited on another "
            "rank, whose own failure is not in this log"
        )
        return _because(None, "peer_unknown", "low", Reason(why, event.source, event.line))
    return _because(event.rank, "explicit_root", "high" if sig.role == "root" else "medium", c.first)


KNOCK_ON_LEAD = 5.0  # seconds a launcher's record of another rank's exit must precede a knock-on to have caused it


def _exited_before_knock_on(c: Case) -> Attribution | None:
    """A knock-on (a collective timeout, a lost peer) on the rank its line names, and a launcher's record of exactly
    one other rank ending on its own clearly before it (by the clock, KNOCK_ON_LEAD s or more; untimed, above it in
    the same source): that rank left, and this one waited for it (torchrun's table: "rank: 4 ... exitcode: 1" at
    11:37:36, then rank 0's watchdog at 11:47:24, its 600 s timeout later) (medium, `launcher_exit`)."""
    event = c.event
    before = []
    for w in _failed_on_their_own(c):
        if w.rank == event.rank:
            continue
        if w.eff_time is not None and event.eff_time is not None:
            if w.eff_time <= event.eff_time - KNOCK_ON_LEAD:
                before.append(w)
        elif w.source_index == event.source_index and w.line < event.line:
            before.append(w)
    if any(_TABLE_ROW.search(w.text) for w in before):  # srun's "task N" under torchrun is an agent, not a rank
        before = [w for w in before if not _by_srun(w)]
    if len({w.rank for w in before}) != 1:
        return None
    w = before[0]
    why = (
        f"the launcher saw rank {w.rank} end on its own (exit {exit_code(w)}) before rank {event.rank} reported "
        f"the knock-on: rank {event.rank} waited for it"
    )
    return _because(w.rank, "launcher_exit", "medium", Reason(why, w.source, w.line), c.first)


def _named_nearby(c: Case) -> Attribution | None:
    named = {e.rank for e in (*c.same_sig, *c.related) if e.rank is not None and _close(e, c.event)}
    if len(named) != 1:
        return None
    rank = named.pop()
    return _because(
        rank,
        "recovered_rank",
        "medium",
        c.first,
        Reason(f"the same failure's other lines name rank {rank}", None, None),
    )


def _failed_on_their_own(c: Case) -> list[Event]:
    """The launcher's records of ranks that failed on their own, not after a knock-on error of their own (a timeout,
    a lost peer)."""
    knock_on = c.knock_on_ranks
    return [w for w in c.launcher if w.rank is not None and failed_on_its_own(w) and w.rank not in knock_on]


def _by_srun(w: Event) -> bool:
    """A launcher record srun printed ("srun: error: node7: task 1: Exited with exit code 1")."""
    return w.text.lstrip().startswith("srun: ")


EXIT_BELOW_LINES = 3  # srun records a task's end right under the last lines the task wrote


def _exit_right_below(c: Case) -> Attribution | None:
    """The line names no rank, and right under it (within EXIT_BELOW_LINES lines of the same source) srun recorded
    exactly one task ending on its own, not after a knock-on of its own: srun prints "task 1: Exited with exit code 1"
    as the task's output ends, so the unprefixed traceback just above is that task's (others ending later do not
    count; torchrun's records, printed when its agent notices, do not follow the output so closely) (low)."""
    event = c.event
    # under torchrun agents (their tables, their "local_rank:" records) srun's tasks are the agents, not ranks
    if event.rank is not None or any(_TABLE_ROW.search(w.text) or "local_rank:" in w.text for w in c.launcher):
        return None
    below = [  # srun's own records (it prints a task's end as the task's output stops), of a rank not left waiting
        w
        for w in _failed_on_their_own(c)
        if w.source_index == event.source_index and 0 < w.line - event.line <= EXIT_BELOW_LINES and _by_srun(w)
    ]
    if len({w.rank for w in below}) != 1:
        return None
    w = below[0]
    why = (
        f"the line names no rank; the launcher recorded rank {w.rank}'s exit ({exit_code(w)}) right under it, as its "
        "output ended"
    )
    return _because(w.rank, "recovered_rank", "low", c.first, Reason(why, w.source, w.line))


def _launcher_saw_one(c: Case) -> Attribution | None:
    failed = _failed_on_their_own(c)
    if len({w.rank for w in failed}) != 1:
        return None
    w = failed[0]
    why = f"the line names no rank; the launcher saw only rank {w.rank} fail on its own (exit {exit_code(w)})"
    return _because(w.rank, "recovered_rank", "medium", c.first, Reason(why, w.source, w.line))


def _launcher_saw_first(c: Case) -> Attribution | None:
    earliest = _first_to_fail(_failed_on_their_own(c))
    if earliest is None:
        return None
    w, lead, next_rank = earliest
    why = (
        f"the line names no rank; the launcher saw rank {w.rank} fail first (exit {exit_code(w)}), {lead:.0f} s "
        f"before rank {next_rank}"
    )
    return _because(w.rank, "recovered_rank", "low", c.first, Reason(why, w.source, w.line))


def _quiet_one(c: Case) -> Attribution | None:
    knock_on = c.knock_on_ranks
    quiet = set(c.view.expected) - knock_on
    if not knock_on or len(quiet) != 1:
        return None
    rank = quiet.pop()
    why = (
        f"the line names no rank; every other rank ({rank_list(sorted(knock_on))}) reported only the knock-on, rank "
        f"{rank} nothing of its own"
    )
    return _because(rank, "recovered_rank", "medium", c.first, Reason(why, None, None))


def _last_to_go_elsewhere(c: Case) -> Attribution | None:
    """A helper thread's failure, printed with no rank: the one rank whose last word, above it in the same source,
    is not its last step while every other rank's is (rank 0 logged "async checkpoint step 4 -> ...", then the
    writer thread died out of space): the thread was doing that rank's work (low; _oddity.went_elsewhere)."""
    event = c.event
    if event.rank is not None or not event.in_thread:
        return None
    odd = c.oddities.elsewhere(sorted(c.view.expected))
    if odd is None or odd.source != event.source or odd.line >= event.line:
        return None
    why = f"the line names no rank; {odd.text}"
    return _because(odd.rank, "recovered_rank", "low", c.first, Reason(why, odd.source, odd.line))


def _traceback_after(c: Case) -> Attribution | None:
    after = c.oddities.traceback_after(c.event.source, c.event.line)
    if after is None:  # a device's or a library's lines without a prefix, then one rank's Python traceback
        return None
    why = (
        f"the line names no rank; the first error line after it that names one is rank {after.rank}'s traceback: "
        f"{after.text[:100]}"
    )
    return _because(after.rank, "recovered_rank", "low", c.first, Reason(why, after.source, after.line))


def _device(c: Case) -> Attribution | None:
    gpu = _device_rank(c.event, c.same_sig, c.view, c.launcher)
    if gpu is None:  # the failure names the GPU it happened on, and the job ran one process per GPU
        return None
    why = (
        f"the line names no rank, but it happened on GPU {gpu}; launchers start one process per GPU and each rank "
        f"drives the GPU of its local rank, so this is local rank {gpu} (on one node, rank {gpu})"
    )
    return _because(gpu, "device_index", "low", c.first, Reason(why, c.event.source, c.event.line))


def _progress_stopped(c: Case) -> Attribution | None:
    stopped = _stopped_first(c.view)
    return _because(stopped[0], "progress_stopped_first", "low", c.first, stopped[1]) if stopped is not None else None


# The rules in the order they are tried; the first that gives an answer names the rank (see the module's docstring).
RULES = (
    _differing_collective,  # timeouts at one sequence number that differ in op or size
    _never_joined,  # a rendezvous failed and one rank of the world size never printed a line
    _behind_at_rendezvous,  # the others gave up at the rendezvous; one raised nothing and was stopped
    _pending_on_one_rank,  # a save one rank started and never finished
    _store_host,  # the rank that hosts the store could not bind its port
    _interrupted,  # Ctrl-C caught every rank but one inside a collective
    _stalled,  # a time limit or stop after the steps had stopped
    _stalled_live,  # the steps stopped while the ranks went on logging
    _node_lost,  # a node's log stops dead mid-training
    _cut_traceback,  # the log ends inside a traceback
    _stack_wait,  # stack dumps: the one rank not in the collective
    _preempted_node,  # a stop signal that reached one node only
    _unreachable_alone,  # one rank could not reach the store the others reached
    _job_wide,  # the job's failure, not a rank's
    _mismatch,  # a collective mismatch report
    _launcher_only,  # only the launcher saw a rank end
    _gathered,  # a gathered exception listing one failed rank
    _straggler,  # a monitored barrier naming the rank that never arrived
    _lost_peer,  # a lost peer: the rank that went (see _peer)
    _all_failed_alike,  # every rank raised the same failure
    _knock_on,  # a timeout or other knock-on started it: the silent, the behind, the odd one
    _named,  # the line names its rank
    _named_nearby,  # the same failure's other lines name one rank
    _exit_right_below,  # the launcher recorded one rank's exit right under the line
    _launcher_saw_one,  # the launcher saw one rank fail on its own
    _launcher_saw_first,  # ... or one fail well before the others
    _quiet_one,  # every other rank reported only the knock-on
    _last_to_go_elsewhere,  # a thread's failure after one rank alone stopped stepping to do something else
    _traceback_after,  # the first rank-named traceback after the line
    _device,  # the GPU the line names, in a job of one process per GPU
    _progress_stopped,  # the rank whose progress stopped well before the others'
)


def attribute_rank(case: Case) -> Attribution:
    for rule in RULES:
        found = rule(case)
        if found is not None:
            return found
    return _because(
        None, "unknown", "low", case.first, Reason("the line names no rank and nothing else tells which", None, None)
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


def _only_one_stopped(view: JobView, missing: list[int], timed_out: set[int]) -> Attribution | None:
    """Several ranks are not in the log's timeouts (a tail, a console that lost lines), but one launcher saw all of
    them but one end on their own with an error exit, no earlier than the first timeout (as ranks do after theirs),
    and had to stop that one (a SIGTERM when it tore the job down): it was still inside something when the others
    gave up waiting for it. Not when a rank ended before the timeouts (its own failure, which another rule names),
    nor across launchers (one node's agent stopping its node-mate after its own crash): the failure table that lists
    the stopped rank must list a rank whose timeout the log shows, and the others' ends be in the same log."""
    if len(missing) < 2:
        return None
    exits = {r: x.exit.event for r in missing if (x := view.ranks.get(r)) is not None and x.exit is not None}
    ended = sorted(r for r, e in exits.items() if failed_on_its_own(e))
    left = [r for r in missing if r not in ended]
    if len(left) != 1 or left[0] not in exits or exit_code(exits[left[0]]) not in TEARDOWN_EXITS or not ended:
        return None
    rank, stop = left[0], exits[left[0]]
    # one launcher saw them all: the table that lists the stopped rank lists a rank whose timeout the log shows
    timed_exits = [x.exit.event for r in timed_out if (x := view.ranks.get(r)) is not None and x.exit is not None]
    if any(exits[r].source_index != stop.source_index for r in ended) or not any(
        same_table(e, stop) for e in timed_exits
    ):
        return None
    times = [t for r in timed_out for e in view.ranks[r].timeouts if (t := e.at) is not None]
    ends = [t for r in ended if (t := exits[r].at) is not None]
    if times and ends and min(ends) < min(times) - 1:
        return None  # a rank ended before the first timeout: its own failure
    return Attribution(
        rank,
        "silent_rank",
        "medium",
        [
            Reason(
                f"rank {rank} is the only rank the launcher had to stop (exit {exit_code(stop)}); "
                f"{'ranks' if len(ended) > 1 else 'rank'} {rank_list(ended)} ended on their own after the timeouts, "
                f"and {'ranks' if len(timed_out) > 1 else 'rank'} {rank_list(sorted(timed_out))} reported one: it was "
                "still inside something when they gave up on it",
                stop.source,
                stop.line,
            )
        ],
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
        if state is None and not view.world_size and set(view.ranks) == timed_out and len(timed_out) == 1:
            # one rank's output alone, the other implied only by its number: the other ranks' logs are not here,
            # not silent (a job of 8 reads the same)
            return None
        if state is None:
            where = "printed nothing"
        elif state.progress is None:
            where = "logged no training progress"
        else:
            where = f"last made progress at step {state.progress.step}"
        timeout = sig.cls == "nccl_timeout"
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
                    f"rank {rank} is the only one {known} that did not report the {'timeout' if timeout else 'failure'}; "
                    f"it {where}",
                    event.source,
                    event.line,
                ),
                Reason(
                    f"{'ranks' if len(timed_out) > 1 else 'rank'} {rank_list(timed_out)} "
                    + ("waited on it and timed out" if timeout else "reported it as a knock-on"),
                    event.source,
                    event.line,
                ),
            ],
        )
    stopped = _only_one_stopped(view, missing, timed_out)
    if stopped is not None:
        return stopped
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


def _named_straggler(events: list[Event], expected: set[int] | None = None) -> tuple[int, Reason, str] | None:
    """The one rank a monitored barrier's report names as not having arrived ("Ranks 3 failed to pass
    monitoredBarrier in 20000 ms", printed by the rank that ran the check), with that report."""
    if any("horovod" in e.sig_id for e in events):
        return _horovod_missing(events, expected or set())
    named = {failed for e in events if (failed := e.values.get("failed_ranks"))}
    if len(named) != 1:  # none, or different ranks missing from different collectives
        return None
    (failed,) = named
    if not failed.isdigit():
        return None
    e = next(e for e in events if e.values.get("failed_ranks"))
    text = f"rank {e.rank if e.rank is not None else 0}'s monitored_barrier reports that rank {failed} alone never "
    return int(failed), Reason(text + "arrived; the ranks that did waited on it", e.source, e.line), "silent_rank"


_HOROVOD_LIST = re.compile(r"\[(ready|missing) ranks: (\d+(?:, ?\d+)*)\]")


def _horovod_missing(events: list[Event], expected: set[int]) -> tuple[int, Reason, str] | None:
    """The rank Horovod's stall inspector (printed by the coordinator's background thread) shows as the one the
    others waited for: the one rank missing from every stalled tensor ("[missing ranks: 1]", or, where it lists the
    ranks that were ready, "[ready ranks: 5, 6, 3, 1, 4, 0]" with rank 2 not among them); or the one rank alone
    ready for a tensor no other rank submitted while every other rank is ready for the rest ("[ready ranks: 3]"
    against "[ready ranks: 2, 0, 1]"): it runs different code, and the others wait on it."""
    lists: list[tuple[str, frozenset[int], Event]] = []
    for e in events:
        for kind, ranks in _HOROVOD_LIST.findall(e.text):
            lists.append((kind, frozenset(int(r) for r in ranks.split(",")), e))
        if e.values.get("failed_ranks") and not _HOROVOD_LIST.search(e.text):  # "Missing ranks:\n0: [Horovod..."
            lists.append(("missing", frozenset(int(r) for r in e.values["failed_ranks"].split(",")), e))
    if not lists:
        return None
    seen = set().union(*(ranks for _, ranks, _ in lists)) | expected  # the job's ranks, where the log shows them
    world = frozenset(range(max(seen) + 1))
    missing = {(ranks if kind == "missing" else world - ranks) for kind, ranks, _ in lists}
    first = lists[0][2]
    if len(missing) == 1 and len(only := next(iter(missing))) == 1:
        (rank,) = only
        text = f"Horovod's stall inspector shows rank {rank} alone missing from every stalled collective"
        reason = Reason(text + ": the other ranks submitted them and waited for it", first.source, first.line)
        return rank, reason, "silent_rank"
    ready = {world - m for m in missing}
    if len(ready) == 2 and frozenset().union(*ready) == world and not frozenset.intersection(*ready):
        alone = [r for r in ready if len(r) == 1]
        if len(alone) == 1 and len(world) >= 3:
            (rank,) = alone[0]
            text = (
                f"Horovod's stall inspector shows rank {rank} alone ready for a collective no other rank submitted, "
                f"while ranks {rank_list(sorted(world - alone[0]))} wait in another: rank {rank} ran different code"
            )
            return rank, Reason(text, first.source, first.line), "collective_odd_one_out"
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
