"""Kubernetes: a batch Job, a Kubeflow PyTorchJob (or another training-operator job) or a JobSet, by namespace/name.

Reads the API server with a bearer token (the pod's service account by default): lists the job's
pods by label, fetches every container's log (the crashed previous attempt first) and writes the
API's own evidence -- terminated states, pod reasons, events -- to `k8s-status.log` in kubectl's
wording, so the signatures for OOMKilled, evictions and lost nodes can match it.

    client.py   the API server, the token and the CA (requests and errors: bot.fetch.http)
    jobs.py     finding the job: its pods by label, its owner object, its events; "pending"
    pods.py     pods and ranks: labels, containers, each pod's rank
    facts.py    the job's state, exit, reason, nodes and times
    status.py   k8s-status.log
    logs.py     which logs, and reading them within the byte and time budget
"""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx

from bot.config import KubernetesCluster
from bot.fetch.base import Budget, FetchResult, JobRef, new_workdir
from bot.fetch.http import JsonApi
from bot.fetch.kubernetes.client import new_client, open_api, read_token
from bot.fetch.kubernetes.facts import job_facts
from bot.fetch.kubernetes.jobs import SELECTORS, find_pods, get_owner, list_events, pending_error
from bot.fetch.kubernetes.logs import PROBE_BYTES, fetch_logs, log_name, log_targets
from bot.fetch.kubernetes.pods import containers, has_started, pod_name, rank_hints
from bot.fetch.kubernetes.status import MAX_STATUS_BYTES, STATUS_LOG, status_lines, write_status

__all__ = [
    "MAX_STATUS_BYTES",
    "PROBE_BYTES",
    "SELECTORS",
    "STATUS_LOG",
    "fetch_kubernetes",
    "log_name",
    "rank_hints",
    "status_lines",
]


def fetch_kubernetes(
    ref: JobRef, cluster: KubernetesCluster, budget: Budget, http: httpx.Client | None = None
) -> FetchResult:
    ns, _, name = ref.job_id.partition("/")
    if not name:
        ns, name = cluster.namespace, ns
    token = read_token(cluster, ref.cluster, injected=http is not None)
    client = http or new_client(cluster, ref.cluster)
    api = open_api(client, cluster, ref.cluster, ns, token, budget)
    workdir = new_workdir()
    try:
        return _fetch(api, ref, ns, name, workdir)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    finally:
        if http is None:
            client.close()


def _fetch(api: JsonApi, ref: JobRef, ns: str, name: str, workdir: Path) -> FetchResult:
    pods, selector, owner_ref = find_pods(api, ns, name)
    pods.sort(key=pod_name)
    notes = [f"{len(pods)} pod(s) found by label {selector}"]
    pod_names = {pod_name(p) for p in pods}
    started = any(has_started(cs) for p in pods for _, cs, _ in containers(p))
    if not started and all((p.get("status") or {}).get("phase") == "Pending" for p in pods):
        raise pending_error(ns, name, pods, list_events(api, ns, name, pod_names, []))
    owner = get_owner(api, ns, name, owner_ref, notes)
    events = list_events(api, ns, name, pod_names, notes)
    ranks = rank_hints(pods)
    facts, fact_notes = job_facts(ns, name, pods, owner)
    notes += fact_notes

    status_log = write_status(ns, name, pods, events, ranks, workdir / STATUS_LOG, api.budget, notes)

    targets = log_targets(pods, ranks)
    fetch_logs(api, ns, targets, workdir, notes)
    logs = [t.log for t in targets if t.log is not None] + [status_log]
    notes += [t.note for t in targets if t.note]
    return FetchResult(ref.cluster, facts, logs, notes, workdir)
