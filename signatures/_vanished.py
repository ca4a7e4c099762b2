"""A node that went away under the job: its ranks stopped mid-training with no error, and nobody saw them exit.

When a machine dies (power, kernel panic, a hypervisor reclaiming it, an OOM that took the agent too), its
processes print nothing more: no traceback, no signal, no launcher record, since the launcher on that node died
with them. What the log shows is the other nodes' side: their collectives lose the connection to the vanished
ranks, and an elastic launcher that tries to restart waits at the re-rendezvous for a node that never comes back
until the rendezvous times out. Read in order, the rendezvous timeout or the lost peers look like the cause;
they are how the others noticed.

The evidence, all from the scan: the lost peers (class nccl_remote_peer_exited, knock-on), the sources whose
ranks logged training progress and then nothing at all (no event, no completion line, their last words their
last progress lines), and a rendezvous failure that came after the peers were lost. A vanished node's own log
makes it medium confidence; without one, lost peers that no rank's own failure or launcher record explains,
followed by a re-rendezvous that timed out, are low.

One layout tells a node loss from a process killed alone: torchrun --log-dir writes each worker's output under
its agent's attempt directory (attempt_0/<local rank>/), and an agent's workers share its node. When a rank that
lost its peer sits in the same attempt directory as the silent one, the node and its launcher were still there:
the silent process alone was killed without a word, which is what SIGKILL does (most often the kernel OOM
killer or a cgroup memory limit). That finding is `process.killed_alone` (class host_oom_killed, low).
"""

from __future__ import annotations

import dataclasses

from ._events import Event, ScanResult
from ._lines import TORCHRUN_ATTEMPT, host_from_path
from ._schema import Signature

NODE_LOST = "elastic.node_lost"  # the finding this rule makes
KILLED_ALONE = "process.killed_alone"  # ... when a rank's own launcher, on its node, outlived it
LOST_PEER_CLASS = "nccl_remote_peer_exited"
RENDEZVOUS_CLASS = "rendezvous_failure"
SLACK_SECONDS = 30.0  # a vanished source's last line came at most this long after the first lost peer


def node_lost(
    roots: list[Event], collateral: list[Event], launcher: list[Event], scan: ScanResult, sigs: dict[str, Signature]
) -> Event | None:
    """The finding a vanished node makes, or None. Every root failure must be a rendezvous failure after the lost
    peers (or there is none), and every rank with a failure record of its own must be one that lost a peer."""
    lost = [e for e in collateral if sigs[e.sig_id].cls == LOST_PEER_CLASS]
    if not lost or any(sigs[e.sig_id].cls != RENDEZVOUS_CLASS for e in roots):
        return None
    if not scan.progress:
        return None  # no training step was ever logged: a node that never came is the start-up's rendezvous failure
    reporters = {e.rank for e in lost if e.rank is not None}
    first_lost = min((e.at for e in lost if e.at is not None), default=None)
    if any(not _after_lost(r, lost, first_lost) for r in roots):
        return None  # a rendezvous that failed before anyone lost a peer is the start-up's own failure
    recorded = {e.rank for e in launcher + collateral + roots if e.rank is not None}
    if not recorded <= reporters:
        return None  # some other rank failed, or was seen to exit, on its own: that is the story
    vanished = _vanished_sources(scan, recorded, first_lost)
    peer = min(lost, key=lambda e: (e.source_index, e.line))
    facts = {
        "lost": ", ".join(map(str, sorted(reporters))),
        "lost_at": f"{peer.line}:{peer.source}",
        "rendezvous_at": f"{roots[0].line}:{roots[0].source}" if roots else "",
    }
    if not vanished:
        if not roots:
            return None  # lost peers alone: the launcher's log of the peer is simply not in the paste
        return dataclasses.replace(roots[0], sig_id=NODE_LOST, rank=None, values={**facts, "ranks": ""})
    src, _, line, time, text = vanished[0]
    every = sorted(r for v in vanished for r in v[1])
    beside = _launcher_survived(scan, [v[0] for v in vanished], lost)
    if beside is not None:  # its own launcher, on its node, went on: the process was killed, not the node
        facts["beside"], facts["beside_at"] = str(beside.rank), f"{beside.line}:{beside.source}"
    return dataclasses.replace(
        lost[0],
        sig_id=NODE_LOST if beside is None else KILLED_ALONE,
        source=scan.sources[src],
        source_index=src,
        line=line,
        rank=every[0] if len(every) == 1 else None,  # one rank vanished: it is where the job broke
        host=host_from_path(scan.sources[src]),
        time=time,
        eff_time=time if time is not None else lost[0].eff_time,
        text=text,
        values={**facts, "ranks": ", ".join(map(str, every))},
        context=[],
        frames=[],
    )


def _launcher_survived(scan: ScanResult, vanished: list[int], lost: list[Event]) -> Event | None:
    """A rank that lost its peer and was started by the same torchrun agent as every vanished source (the same
    --log-dir attempt directory: one agent, one node), or None. Had the node gone, that rank would have gone
    with it, and its launcher too; it lived to report the loss, so only the vanished processes died."""
    agents = {_agent(scan.sources[src]) for src in vanished}
    if len(agents) != 1 or None in agents:
        return None
    (agent,) = agents
    beside = [e for e in lost if e.rank is not None and _agent(e.source) == agent]
    return min(beside, key=lambda e: (e.source_index, e.line)) if beside else None


def _agent(source: str) -> str | None:
    """The torchrun agent that started a worker whose log is `source`: its attempt directory."""
    m = TORCHRUN_ATTEMPT.search(source)
    return source[: m.start(2)] if m else None


def _after_lost(e: Event, lost: list[Event], first_lost: float | None) -> bool:
    if e.at is not None and first_lost is not None:
        return e.at >= first_lost
    return any(x.source_index == e.source_index and x.line < e.line for x in lost)


def _vanished_sources(
    scan: ScanResult, recorded: set[int], first_lost: float | None
) -> list[tuple[int, list[int], int, float | None, str]]:
    """The sources whose ranks trained and then fell silent: no event in the source, no rank of it with a failure
    record anywhere, no completion line, each rank's last word its last progress line, and (when both are timed)
    their last line not long after the first lost peer. Each (source index, ranks, last line, its time, text)."""
    with_events = {e.source_index for e in scan.events}
    ranks: dict[int, list[int]] = {}
    for src, rank in scan.progress:
        if rank is not None and src not in with_events:
            ranks.setdefault(src, []).append(rank)
    out = []
    for src, mine in sorted(ranks.items()):
        if set(mine) & recorded or any(s == src for s, _ in scan.finished):
            continue
        last = []
        for rank in mine:
            word, (line, _, time) = scan.last_words.get((src, rank)), scan.progress[(src, rank)]
            if word is not None and word.line > line:
                break  # it printed something after its last step: not cut off mid-training
            last.append((line, time, word.text if word is not None else ""))
        else:
            line, time, text = max(last)
            if time is not None and first_lost is not None and time > first_lost + SLACK_SECONDS:
                continue
            out.append((src, sorted(mine), line, time, text))
    return out
