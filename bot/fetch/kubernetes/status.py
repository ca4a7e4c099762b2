"""k8s-status.log: the API's own evidence (terminated states, pod reasons, events) in kubectl's wording, so the
signatures for OOMKilled, evictions and lost nodes match it like any log."""

from __future__ import annotations

from pathlib import Path

from bot.fetch.base import Budget, FetchedLog, write_tail_of_stream
from bot.fetch.kubernetes.pods import containers, pod_name, terminated

STATUS_LOG = "k8s-status.log"
MAX_STATUS_BYTES = 512 << 10  # k8s-status.log is evidence, not a log dump


def write_status(
    ns: str,
    name: str,
    pods: list[dict],
    events: list[dict],
    ranks: dict[str, int | None],
    path: Path,
    budget: Budget,
    notes: list[str],
) -> FetchedLog:
    """k8s-status.log, within MAX_STATUS_BYTES: the oldest events go first, the pod lines stay."""
    cap = max(1, min(MAX_STATUS_BYTES, budget.remaining))
    base = len("\n".join(status_lines(ns, name, pods, [], ranks)).encode()) + 1
    kept_events = list(events)
    size = len("\n".join(status_lines(ns, name, pods, kept_events, ranks)).encode()) + 1
    if size > cap and kept_events:
        room, tail = cap - base, []
        for e in reversed(kept_events):
            line = len(status_lines(ns, name, [], [e], ranks)[-1].encode()) + 1
            if line > room:
                break
            room -= line
            tail.append(e)
        notes.append(f"{len(events) - len(tail)} older event(s) left out of {STATUS_LOG}")
        kept_events = tail[::-1]
    text = ("\n".join(status_lines(ns, name, pods, kept_events, ranks)) + "\n").encode()
    kept, original = write_tail_of_stream([text], path, cap)
    budget.used += kept
    return FetchedLog(STATUS_LOG, path, kept, original, kept < original or len(kept_events) < len(events))


def one_line(text, limit: int = 400) -> str:
    text = " | ".join(part.strip() for part in str(text).splitlines() if part.strip())
    return text if len(text) <= limit else text[:limit] + "…"


def _state_detail(kind: str, body: dict) -> tuple[str, str]:
    """(STATUS column, kubectl describe wording) for one container state."""
    if kind == "terminated":
        code = body.get("exitCode")
        reason = body.get("reason") or ("Completed" if code == 0 else "Error")
        parts = [f"Reason: {reason}", f"Exit Code: {code}"]
        if body.get("signal"):
            parts.append(f"Signal: {body['signal']}")
        parts += [f"Started: {body.get('startedAt') or '-'}", f"Finished: {body.get('finishedAt') or '-'}"]
        if body.get("message"):
            parts.append(f"Message: {one_line(body['message'])}")
        return reason, "  ".join(parts)
    if kind == "waiting":
        reason = body.get("reason") or "Waiting"
        parts = [f"Reason: {reason}"] + ([f"Message: {one_line(body['message'])}"] if body.get("message") else [])
        return reason, "  ".join(parts)
    return "Running", f"Started: {body.get('startedAt') or '-'}"


def status_lines(ns: str, name: str, pods: list[dict], events: list[dict], ranks: dict[str, int | None]) -> list[str]:
    """The API's evidence, one fact a line: `POD READY STATUS RESTARTS TIME [rankN] detail` for containers and
    pods (kubectl get pods columns, then kubectl describe wording), `TIME [rankN] TYPE REASON OBJECT MESSAGE`
    for events (kubectl get events columns, with the time instead of the age)."""
    lines = [
        f"# Kubernetes job {ns}/{name}: pod and container status and events from the API server (denpex)",
        "# NAME  READY  STATUS  RESTARTS  TIME  RANK  DETAIL",
    ]
    for p in pods:
        pod = pod_name(p)
        status = p.get("status") or {}
        rank = ranks.get(pod)
        tag = f"[rank{rank}]" if rank is not None else "-"
        node = (p.get("spec") or {}).get("nodeName") or "-"
        regular = [s for _, s, init in containers(p) if not init]
        ready = f"{sum(1 for s in regular if s.get('ready'))}/{len(regular)}"
        if status.get("reason") or status.get("phase") == "Failed":
            t = next(
                (
                    c["lastTransitionTime"]
                    for c in status.get("conditions") or []
                    if c.get("type") in ("DisruptionTarget", "Ready") and c.get("lastTransitionTime")
                ),
                None,
            )
            if t is None:  # else when its containers stopped
                t = max(
                    (
                        term["finishedAt"]
                        for _, cs, _ in containers(p)
                        for term in [terminated(cs, "state")]
                        if term and term.get("finishedAt")
                    ),
                    default=None,
                )
            detail = f"Status: {status.get('phase') or '-'}"
            if status.get("reason"):
                detail += f"  Reason: {status['reason']}"
            if status.get("message"):
                detail += f"  Message: {one_line(status['message'])}"
            lines.append(
                f"{pod}   {ready}   {status.get('reason') or status.get('phase')}   -   {t or '-'}   {tag}   "
                f"pod {pod} on node {node}: {detail}"
            )
        for c in status.get("conditions") or []:
            if c.get("type") == "DisruptionTarget" and str(c.get("status")) == "True":
                lines.append(
                    f"{pod}   {ready}   {c.get('reason') or 'DisruptionTarget'}   -   "
                    f"{c.get('lastTransitionTime') or '-'}   {tag}   pod {pod} condition DisruptionTarget: "
                    f"Reason: {c.get('reason') or '-'}  Message: {one_line(c.get('message') or '-')}"
                )
            elif c.get("type") == "PodScheduled" and str(c.get("status")) == "False":
                lines.append(
                    f"{pod}   {ready}   Pending   -   {c.get('lastTransitionTime') or '-'}   {tag}   "
                    f"pod {pod} not scheduled: Reason: {c.get('reason') or '-'}  "
                    f"Message: {one_line(c.get('message') or '-')}"
                )
        for cname, cs, is_init in containers(p):
            restarts = cs.get("restartCount") or 0
            what = f"{'init container' if is_init else 'container'} {cname}"
            last = terminated(cs, "lastState")
            if last:
                col, detail = _state_detail("terminated", last)
                lines.append(
                    f"{pod}   {ready}   {col}   {restarts}   {last.get('finishedAt') or '-'}   {tag}   "
                    f"{what} (previous) on node {node}: Last State: Terminated  {detail}"
                )
            state = cs.get("state") or {}
            for kind in ("terminated", "waiting", "running"):
                if kind in state and state[kind] is not None:
                    body = state[kind] or {}
                    col, detail = _state_detail(kind, body)
                    when = body.get("finishedAt") or body.get("startedAt") or "-"
                    lines.append(
                        f"{pod}   {ready}   {col}   {restarts}   {when}   {tag}   {what} on node {node}: "
                        f"State: {kind.capitalize()}  {detail}"
                    )
                    break
    for e in events:
        obj = e.get("involvedObject") or {}
        involved = obj.get("name")
        rank = ranks.get(involved) if obj.get("kind") == "Pod" and involved else None
        tag = f"[rank{rank}]" if rank is not None else "-"
        count = e.get("count") or ((e.get("series") or {}).get("count"))
        target = f"{(obj.get('kind') or '?').lower()}/{obj.get('name') or '?'}"
        lines.append(
            f"{event_time(e) or '-'}   {tag}   {e.get('type') or 'Normal'}   {e.get('reason') or '-'}   "
            f"{target}   {one_line(e.get('message') or '', 600)}" + (f" (x{count})" if count and count > 1 else "")
        )
    return lines


def event_time(e: dict) -> str | None:
    return (
        e.get("lastTimestamp")
        or (e.get("series") or {}).get("lastObservedTime")
        or e.get("eventTime")
        or e.get("firstTimestamp")
        or (e.get("metadata") or {}).get("creationTimestamp")
    )
