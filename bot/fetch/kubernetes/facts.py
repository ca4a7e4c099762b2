"""Times and facts: the job's state, exit, reason, nodes and times, from its pods and its owner object."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from bot.fetch.base import JobFacts, elapsed, utc_iso
from bot.fetch.kubernetes.pods import containers, pod_name, terminated

# condition types of Job / PyTorchJob / JobSet, most telling first
STATE_ORDER = [
    "Failed",
    "FailureTarget",
    "Complete",
    "Completed",
    "Succeeded",
    "SuccessCriteriaMet",
    "Suspended",
    "Restarting",
    "Running",
    "Created",
]


def parse_time(value) -> datetime | None:
    if not value or not isinstance(value, str):
        return None
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def _phase_summary(pods: list[dict]) -> str:
    counts = Counter((p.get("status") or {}).get("phase") or "Unknown" for p in pods)
    if counts["Failed"]:
        state = "Failed"
    elif counts["Running"]:
        state = "Running"
    elif counts["Pending"]:
        state = "Pending"
    elif counts["Succeeded"] == len(pods):
        state = "Succeeded"
    else:
        state = "Unknown"
    if len(counts) > 1:
        state += " (" + ", ".join(f"{n} {ph}" for ph, n in sorted(counts.items(), key=lambda kv: -kv[1])) + ")"
    return state


def _owner_state(obj: dict) -> tuple[str | None, str | None, str | None]:
    """(state, reason, message) from a Job / PyTorchJob / JobSet status."""
    status = obj.get("status") or {}
    true = {c.get("type"): c for c in status.get("conditions") or [] if str(c.get("status")) == "True"}
    for kind in STATE_ORDER:
        if kind in true:
            c = true[kind]
            state = "Failed" if kind == "FailureTarget" else kind
            return state, c.get("reason") or None, c.get("message") or None
    if status.get("active"):
        return "Running", None, None
    return None, None, None


def _first_failure(pods: list[dict]):
    """The earliest non-zero container exit: (exit code, reason, pod, container, finished)."""
    found = []
    for p in pods:
        for cname, cs, _ in containers(p):
            for key in ("lastState", "state"):
                t = terminated(cs, key)
                if t and t.get("exitCode") not in (None, 0):
                    finished = parse_time(t.get("finishedAt")) or datetime.max.replace(tzinfo=UTC)
                    found.append((finished, str(t.get("exitCode")), t.get("reason"), pod_name(p), cname))
    if not found:
        return None
    found.sort(key=lambda f: f[0])
    return found[0]


def job_facts(ns: str, name: str, pods: list[dict], owner: dict | None) -> tuple[JobFacts, list[str]]:
    notes = []
    facts = JobFacts(job_id=f"{ns}/{name}", name=name)
    state = reason = None
    if owner:
        state, reason, message = _owner_state(owner)
        if message:
            notes.append(f"{owner.get('kind') or 'job'} condition: {reason or state}: {message}")
    facts.state = state or _phase_summary(pods)
    failure = _first_failure(pods)
    if failure:
        _, facts.exit_code, container_reason, _, _ = failure
        facts.reason = container_reason or reason
    if not facts.reason:
        pod_reasons = [(p.get("status") or {}).get("reason") for p in pods]
        facts.reason = next((r for r in pod_reasons if r), None) or reason
    facts.nodes = sorted({node for p in pods if (node := (p.get("spec") or {}).get("nodeName"))})
    starts = [parse_time((p.get("status") or {}).get("startTime")) for p in pods]
    owner_status = (owner or {}).get("status") or {}
    start = parse_time(owner_status.get("startTime")) or min((s for s in starts if s), default=None)
    end = parse_time(owner_status.get("completionTime"))
    if end is None and pods and all((p.get("status") or {}).get("phase") in ("Succeeded", "Failed") for p in pods):
        finishes = [
            parse_time(t.get("finishedAt"))
            for p in pods
            for _, cs, _ in containers(p)
            for t in [terminated(cs, "state")]
            if t
        ]
        end = max((f for f in finishes if f), default=None)
    facts.start, facts.end = utc_iso(start), utc_iso(end)
    if start:
        facts.elapsed = elapsed(((end or datetime.now(UTC)) - start).total_seconds())
    return facts, notes
