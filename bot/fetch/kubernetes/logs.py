"""Logs: which containers' logs to read (the crashed previous attempt first), and reading them within the budget.

Log sizes are not known in advance and the log endpoint's `limitBytes` returns the *first* bytes of
a log, so each log is fetched in two steps: a small probe (`limitBytes`) that returns short logs
whole and measures long ones, then, for long logs, `tailLines` sized from the probe to the log's
fair share of the byte budget, streamed so that only the newest bytes are kept.

A log the API will not give is skipped with a note: 400 (no previous attempt, not started), 404 (pod
gone), kubelet errors (5xx from a lost node), a read that times out. No connection at all, or refused
credentials, stop the fetch.
"""

from __future__ import annotations

import math
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from bot.fetch.base import FetchedLog, fair_shares, write_tail_of_stream
from bot.fetch.errors import CannotConnect, FetchError, PermissionDenied
from bot.fetch.http import JsonApi
from bot.fetch.kubernetes.pods import containers, has_started, pod_name, terminated
from bot.fetch.kubernetes.status import one_line

PROBE_BYTES = 64 << 10  # logs up to this size come whole from the first request
WORKERS = 8
LINE_MARGIN = 1.5  # ask for this many more lines than the probe's average line length suggests
PLAIN = {"Accept": "*/*"}
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass
class LogTarget:
    pod: str
    container: str
    previous: bool
    rank: int | None
    name: str = ""
    probe: bytes | None = None
    complete: bool = False
    note: str | None = None
    fatal: FetchError | None = None
    log: FetchedLog | None = None


def log_name(pod: str, container: str, previous: bool, rank: int | None) -> str:
    """`rank3/pod/llama-worker-2/pytorch (previous).log`: the rank leads so the matcher reads it before any
    digits in the pod name (a PyTorchJob's worker-2 is RANK 3 when there is a Master)."""
    name = f"pod/{pod}/{container}" + (" (previous)" if previous else "") + ".log"
    return f"rank{rank}/{name}" if rank is not None else name


def log_targets(pods: list[dict], ranks: dict[str, int | None]) -> list[LogTarget]:
    previous, current = [], []
    for p in pods:
        pod, rank = pod_name(p), ranks.get(pod_name(p))
        for cname, cs, is_init in containers(p):
            if not has_started(cs):
                continue
            restarts = cs.get("restartCount") or 0
            term = terminated(cs, "state")
            if is_init and restarts == 0 and term and term.get("exitCode") == 0:
                continue  # an init container that did its job
            if restarts > 0:
                previous.append(LogTarget(pod, cname, True, rank))
            current.append(LogTarget(pod, cname, False, rank))

    def order(t: LogTarget):
        return (t.rank is None, t.rank if t.rank is not None else 0, t.pod, t.container)

    out = sorted(previous, key=order) + sorted(current, key=order)
    for t in out:
        t.name = log_name(t.pod, t.container, t.previous, t.rank)
    return out


def fetch_logs(api: JsonApi, ns: str, targets: list[LogTarget], workdir: Path, notes: list[str]) -> None:
    budget = api.budget
    if not targets:
        notes.append("no container of the job has started, or all of them are finished init containers")
        return
    with ThreadPoolExecutor(max_workers=min(WORKERS, len(targets))) as pool:
        list(pool.map(lambda t: _probe(api, ns, t), targets))
        _raise_fatal(targets)
        live = [(t, t.probe) for t in targets if t.probe is not None]
        big = 1 << 62
        shares = fair_shares([len(probe) if t.complete else big for t, probe in live], budget.remaining)
        jobs = []
        for i, ((t, probe), share) in enumerate(zip(live, shares, strict=True)):
            dest = workdir / f"{i:04d}-{_SAFE.sub('_', t.name.removesuffix('.log'))}.log"
            if share <= 0:
                t.note = f"skipped log {t.name}: the {budget.max_bytes} byte budget is used up"
            elif t.complete:
                kept, original = write_tail_of_stream([probe], dest, share)
                t.log = FetchedLog(t.name, dest, kept, original, kept < original)
            else:
                jobs.append((t, share, dest))
        list(pool.map(lambda job: _tail(api, ns, *job), jobs))
        _raise_fatal(targets)
    for t in targets:
        t.probe = None
        if t.log is not None:
            budget.used += t.log.size


def _log_path(ns: str, pod: str) -> str:
    return f"/api/v1/namespaces/{quote(ns)}/pods/{quote(pod)}/log"


def _params(t: LogTarget, **extra) -> dict:
    params = {"container": t.container, **extra}
    if t.previous:
        params["previous"] = "true"
    return params


def _probe(api: JsonApi, ns: str, t: LogTarget) -> None:
    if time.monotonic() > api.budget.deadline:
        t.note = f"skipped log {t.name}: the {api.budget.seconds:.0f}s time budget ran out"
        return
    what = f"reading the log of {t.pod}"
    try:
        resp = api.request(
            "GET", _log_path(ns, t.pod), params=_params(t, limitBytes=PROBE_BYTES + 1), headers=PLAIN, what=what
        )
        if resp.status_code != 200:
            raise api.status_error(resp, what)
    except FetchError as err:
        _skip_or_raise(t, err)
        return
    t.probe = resp.content
    t.complete = len(t.probe) <= PROBE_BYTES


def _tail(api: JsonApi, ns: str, t: LogTarget, share: int, dest: Path) -> None:
    probe = t.probe or b""
    avg = max(1.0, len(probe) / max(1, probe.count(b"\n")))
    lines = min(50_000_000, math.ceil(share / avg * LINE_MARGIN) + 16)
    try:
        tail = api.get_tail(
            _log_path(ns, t.pod),
            dest,
            share,
            params=_params(t, tailLines=lines),
            headers=PLAIN,
            what=f"reading the log of {t.pod}",
        )
    except FetchError as err:
        _skip_or_raise(t, err)
        return
    whole = tail.lines < lines  # the server ran out of lines before our tailLines: this is the whole log
    t.log = FetchedLog(t.name, dest, tail.kept, max(tail.received, len(probe)), tail.kept < tail.received or not whole)


def _skip_or_raise(t: LogTarget, err: FetchError) -> None:
    """No connection or refused credentials stop the fetch; anything else skips this log with a note."""
    if isinstance(err, (CannotConnect, PermissionDenied)):
        t.fatal = err
    elif err.status == 400 and "previous terminated container" in err.detail:
        t.note = f"skipped log {t.name}: Kubernetes no longer has the previous attempt ({err.detail})"
    elif err.status is not None:
        t.note = f"skipped log {t.name}: the API answered {err.status}" + (
            f" ({one_line(err.detail, 300)})" if err.detail else ""
        )
    else:
        t.note = f"skipped log {t.name}: {err}"


def _raise_fatal(targets: list[LogTarget]) -> None:
    for t in targets:
        if t.fatal is not None:
            raise t.fatal
