"""Finding the job: its pods by label (batch Job, Kubeflow training job, JobSet), its owner object and its events."""

from __future__ import annotations

from urllib.parse import quote

from bot.fetch.errors import FetchError, FetchTimeout, Pending, UnknownJob
from bot.fetch.http import JsonApi
from bot.fetch.kubernetes.pods import containers, pod_labels
from bot.fetch.kubernetes.status import event_time, one_line

EVENT_PAGE = 500
EVENT_PAGES = 10
# (label key, what it means, owner object (group, version, plural) or None when the pods say it)
SELECTORS = [
    ("job-name", "batch Job", ("batch", "v1", "jobs")),
    ("batch.kubernetes.io/job-name", "batch Job", ("batch", "v1", "jobs")),
    ("training.kubeflow.org/job-name", "Kubeflow training job", None),
    ("pytorch-job-name", "PyTorchJob (older training operator)", ("kubeflow.org", "v1", "pytorchjobs")),
    ("jobset.sigs.k8s.io/jobset-name", "JobSet", ("jobset.x-k8s.io", "v1alpha2", "jobsets")),
]
OPERATOR_NAME = "training.kubeflow.org/operator-name"
OWNER_KINDS = {"Job", "PyTorchJob", "TFJob", "MPIJob", "XGBoostJob", "PaddleJob", "JAXJob", "JobSet", "TrainJob"}


def find_pods(api: JsonApi, ns: str, name: str) -> tuple[list[dict], str, tuple | None]:
    tried = []
    for key, _kind, owner in SELECTORS:
        if len(name) > 63:  # label values are at most 63 characters: no pod can carry this one
            break
        selector = f"{key}={name}"
        tried.append(selector)
        data = api.get_json(
            f"/api/v1/namespaces/{quote(ns)}/pods",
            params={"labelSelector": selector},
            what=f"listing the pods of {ns}/{name} ({selector})",
        )
        pods = [p for p in data.get("items") or [] if isinstance(p, dict)]
        if pods:
            if owner is None:  # a training-operator job: which kind the operator label says
                op = str(pod_labels(pods[0]).get(OPERATOR_NAME, "pytorchjob-controller"))
                owner = ("kubeflow.org", "v1", op.removesuffix("-controller") + "s")
            return pods, selector, owner
    searched = ", ".join(tried) or "(none: the name is too long for a label)"
    raise UnknownJob(
        f"no pods of a job named {name!r} in namespace {ns!r} on cluster {api.cluster!r}: searched "
        f"the labels {searched} (batch Job, Kubeflow PyTorchJob, JobSet). The job may not exist, or its "
        "pods were already deleted (ttlSecondsAfterFinished, cleanPodPolicy)."
    )


def get_owner(api: JsonApi, ns: str, name: str, owner: tuple | None, notes: list[str]) -> dict | None:
    if owner is None:
        return None
    group, version, plural = owner
    try:
        return api.get_json(
            f"/apis/{group}/{version}/namespaces/{quote(ns)}/{plural}/{quote(name)}",
            what=f"reading {plural} {ns}/{name}",
        )
    except FetchTimeout:
        raise
    except FetchError as exc:
        notes.append(f"job status from the pods only: could not read {plural}/{name} ({exc.kind})")
        return None


def list_events(api: JsonApi, ns: str, name: str, pods: set[str], notes: list[str]) -> list[dict]:
    """The events of the job's pods and of the job object, oldest first (one namespace list, filtered here)."""
    events: list[dict] = []
    params: dict = {"limit": EVENT_PAGE}
    try:
        for _ in range(EVENT_PAGES):
            data = api.get_json(
                f"/api/v1/namespaces/{quote(ns)}/events", params=params, what=f"listing the events in {ns}"
            )
            events += [e for e in data.get("items") or [] if isinstance(e, dict) and _ours(e, name, pods)]
            cont = (data.get("metadata") or {}).get("continue")
            if not cont:
                break
            params = {"limit": EVENT_PAGE, "continue": cont}
    except FetchTimeout:
        raise
    except FetchError as exc:
        notes.append(f"no events: {exc}")
    events.sort(key=lambda e: event_time(e) or "")
    return events


def _ours(event: dict, name: str, pods: set[str]) -> bool:
    obj = event.get("involvedObject") or {}
    if obj.get("kind") == "Pod":
        return obj.get("name") in pods
    return obj.get("name") == name and obj.get("kind") in OWNER_KINDS


def pending_error(ns: str, name: str, pods: list[dict], events: list[dict]) -> Pending:
    why = []
    for p in pods:
        for c in (p.get("status") or {}).get("conditions") or []:
            if c.get("type") == "PodScheduled" and str(c.get("status")) == "False" and c.get("message"):
                why.append(f"{c.get('reason') or 'Unschedulable'}: {one_line(c['message'], 200)}")
        for _, cs, _ in containers(p):
            waiting = (cs.get("state") or {}).get("waiting") or {}
            if waiting.get("reason") and waiting["reason"] not in ("ContainerCreating", "PodInitializing"):
                why.append(
                    f"{waiting['reason']}"
                    + (f": {one_line(waiting['message'], 200)}" if waiting.get("message") else "")
                )
    if not why:
        why = [
            f"{e.get('reason')}: {one_line(e.get('message') or '', 200)}"
            for e in reversed(events)
            if e.get("type") == "Warning"
        ][:1]
    reason = f" Kubernetes says: {why[0]}" if why else ""
    return Pending(
        f"{ns}/{name} has not started: its {len(pods)} pod(s) are Pending and no container "
        f"has run yet, so there is no log to diagnose.{reason}"
    )
