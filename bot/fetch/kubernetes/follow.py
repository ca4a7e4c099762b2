"""Following a running Kubernetes job's logs for a watch, and listing the jobs that ended badly for [[watch.auto]].

A watch reads files as they grow (bot.watching); a pod's log lives behind the API. Each look asks the API for
what each container wrote since the last look (`timestamps=true` and `sinceTime`, which the API takes to the
second: lines of that second already read are skipped by their full timestamp and how many were seen at it),
and appends it to a spool file per container, which the watch then reads like any other log. A container
that restarted since the last look has the rest of its previous attempt read first. A spool file is bounded:
past SPOOL_MAX it starts again empty (the watch reads it from the start; what it said stays said). The cursor
holds the spool file's size too, stored with the watch's state in one transaction: what a look appended but
never recorded (the process died in between) is cut off and read again by the next look, not appended twice.
"""

from __future__ import annotations

import re
from datetime import UTC
from urllib.parse import quote

import httpx

from bot.config import KubernetesCluster
from bot.fetch.base import Budget, JobFacts, JobRef, LogFollow
from bot.fetch.http import JsonApi
from bot.fetch.kubernetes.client import new_client, open_api, read_token
from bot.fetch.kubernetes.facts import job_facts, parse_time
from bot.fetch.kubernetes.jobs import OWNER_KINDS, find_pods, get_owner
from bot.fetch.kubernetes.logs import PLAIN, log_name
from bot.fetch.kubernetes.pods import containers, has_started, pod_name, rank_hints

POLL_BYTES = 8 << 20  # read per container per look (limitBytes); the rest comes at the next look
SPOOL_MAX = 64 << 20  # a spool file this large starts again empty
LIST_PAGE = 500
LIST_PAGES = 20
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
_STAMP = re.compile(rb"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z ")

# the kinds of job [[watch.auto]] lists: (group, version, plural, kind); a missing CRD is passed over
JOB_KINDS = [
    ("batch", "v1", "jobs", "Job"),
    ("kubeflow.org", "v1", "pytorchjobs", "PyTorchJob"),
    ("jobset.x-k8s.io", "v1alpha2", "jobsets", "JobSet"),
]


def _api(
    ref_cluster: str, cluster: KubernetesCluster, ns: str, http: httpx.Client | None
) -> tuple[JsonApi, httpx.Client]:
    token = read_token(cluster, ref_cluster, injected=http is not None)
    client = http or new_client(cluster, ref_cluster)
    return open_api(client, cluster, ref_cluster, ns, token, Budget(cluster.max_bytes, cluster.timeout_seconds)), client


def _split(ref: JobRef, cluster: KubernetesCluster) -> tuple[str, str]:
    ns, _, name = ref.job_id.partition("/")
    return (ns, name) if name else (cluster.namespace, ns)


def stamp_key(stamp: bytes) -> str | None:
    """A kubelet timestamp (RFC 3339 with up to 9 fraction digits, trailing zeros dropped) as a string that
    sorts as the times do."""
    m = _STAMP.match(stamp)
    if m is None:
        return None
    return m.group(1).decode() + "." + (m.group(2) or b"").decode().ljust(9, "0")


def follow_kubernetes(
    ref: JobRef, cluster: KubernetesCluster, follow: LogFollow | None, *, http: httpx.Client | None = None
) -> tuple[JobFacts, list]:
    """The job's facts, and its containers' spool files with what they wrote since the last look appended (none
    without `follow`: the state only)."""
    ns, name = _split(ref, cluster)
    api, client = _api(ref.cluster, cluster, ns, http)
    try:
        pods, _selector, owner_ref = find_pods(api, ns, name)
        owner = get_owner(api, ns, name, owner_ref, [])
        facts, _ = job_facts(ns, name, sorted(pods, key=pod_name), owner)
        if follow is None:
            return facts, []
        ranks = rank_hints(pods)
        follow.spool.mkdir(parents=True, exist_ok=True)
        paths = []
        for pod in sorted(pods, key=pod_name):
            pname = pod_name(pod)
            for cname, cs, is_init in containers(pod):
                if is_init or not has_started(cs):
                    continue
                dest = follow.spool / _SAFE.sub("_", log_name(pname, cname, False, ranks.get(pname)))
                cursor = follow.cursors.setdefault(
                    f"{pname}/{cname}", {"at": None, "seen": 0, "restarts": None, "size": 0}
                )
                restarts = cs.get("restartCount") or 0
                if cursor["restarts"] is not None and restarts > cursor["restarts"]:
                    _pull(api, ns, pname, cname, True, cursor, dest)  # the rest of the attempt that ended
                cursor["restarts"] = restarts
                _pull(api, ns, pname, cname, False, cursor, dest)
                paths.append(dest)
        return facts, paths
    finally:
        if http is None:
            client.close()


def _pull(api: JsonApi, ns: str, pod: str, container: str, previous: bool, cursor: dict, dest) -> None:
    params: dict = {"container": container, "timestamps": "true", "limitBytes": POLL_BYTES}
    if previous:
        params["previous"] = "true"
    if cursor["at"]:
        params["sinceTime"] = cursor["at"][:19] + "Z"  # the API reads whole seconds
    what = f"reading the log of {pod}"
    resp = api.request(
        "GET", f"/api/v1/namespaces/{quote(ns)}/pods/{quote(pod)}/log", params=params, headers=PLAIN, what=what
    )
    if resp.status_code == 400 and previous:
        return  # the previous attempt is gone already
    if resp.status_code != 200:
        raise api.status_error(resp, what)
    body = resp.content
    if not body.endswith(b"\n"):  # limitBytes cut a line: it comes whole at the next look
        body = body[: body.rfind(b"\n") + 1]
    out = []
    at, seen = cursor["at"], cursor["seen"]  # the last line read: its timestamp, and how many were read at it
    count, taking = 0, False  # lines at `at` in this answer; whether the line above was taken
    for line in body.splitlines(keepends=True):
        key = stamp_key(line)
        if key is None:  # not stamped: part of the line above (the API stamps every line it has)
            if taking:
                out.append(line)
            continue
        taking = False
        if at is not None and key < at:
            continue
        if key == at:
            count += 1
            if count <= seen:
                continue
            seen = count
        else:
            at, seen, count = key, 1, 1
        taking = True
        out.append(line[line.index(b" ") + 1 :])
    cursor["at"], cursor["seen"] = at, seen
    try:
        size = dest.stat().st_size
    except OSError:
        size = 0
    kept = cursor.get("size", 0)
    if size > kept:  # appended by a look whose state was never stored (the process died): the next look reads it
        with open(dest, "r+b") as fh:
            fh.truncate(kept)
        size = kept
    if out:
        fresh = size + sum(map(len, out)) > SPOOL_MAX
        with open(dest, "wb" if fresh else "ab") as fh:
            fh.writelines(out)
        size = (0 if fresh else size) + sum(map(len, out))
    cursor["size"] = size


# ---- [[watch.auto]] -------------------------------------------------------------------------------------------


def ended_kubernetes(
    cluster_name: str,
    cluster: KubernetesCluster,
    states: set[str],
    namespace: str | None,
    selector: str | None,
    *,
    http: httpx.Client | None = None,
) -> list[dict]:
    """The jobs (batch Jobs, PyTorchJobs, JobSets) in `namespace` matching `selector` in one of `states` (see
    job_state), in the shape Slurm's listing has: JobId (namespace/name), JobName, JobState, end (epoch seconds)."""
    ns = namespace or cluster.namespace
    api, client = _api(cluster_name, cluster, ns, http)
    try:
        found = []
        for group, version, plural, kind in JOB_KINDS:
            for obj in _list(api, f"/apis/{group}/{version}/namespaces/{quote(ns)}/{plural}", selector, plural, kind):
                meta = obj.get("metadata") or {}
                owners = {o.get("kind") for o in meta.get("ownerReferences") or []}
                if kind == "Job" and owners & (OWNER_KINDS - {"Job"}):
                    continue  # a JobSet's (or an operator's) child: its owner is listed and answered for
                state, end = job_state(obj)
                if state is None or state not in states or not meta.get("name"):
                    continue
                found.append(
                    {
                        "JobId": f"{ns}/{meta['name']}",
                        "ref": f"{cluster_name}/{ns}/{meta['name']}",
                        "JobName": meta["name"],
                        "JobState": state,
                        "Kind": kind,
                        "end": end,
                        "labels": meta.get("labels") or {},
                    }
                )
        return found
    finally:
        if http is None:
            client.close()


def _list(api: JsonApi, path: str, selector: str | None, plural: str, kind: str) -> list[dict]:
    items: list[dict] = []
    params: dict = {"limit": LIST_PAGE}
    if selector:
        params["labelSelector"] = selector
    for _ in range(LIST_PAGES):
        what = f"listing the {plural}"
        resp = api.request("GET", path, params=params, what=what)
        if resp.status_code == 404 and kind != "Job":
            return items  # the CRD is not installed on this cluster
        if not resp.is_success:
            raise api.status_error(resp, what)
        data = api.json_body(resp, what)
        items += [o for o in data.get("items") or [] if isinstance(o, dict)]
        cont = (data.get("metadata") or {}).get("continue")
        if not cont:
            break
        params = {**params, "continue": cont}
    return items


ENDED = {"Complete", "Completed", "Succeeded", "SuccessCriteriaMet"}


def job_state(obj: dict) -> tuple[str | None, float | None]:
    """(state, when it ended) of a Job / PyTorchJob / JobSet in Slurm's words: "FAILED" or "TIMEOUT" (a Job's
    activeDeadlineSeconds: reason DeadlineExceeded) for a Failed condition that is True, "COMPLETED" for a
    completed one, "RUNNING" for one with no such condition and active pods (or a Running condition), else None."""
    status = obj.get("status") or {}
    true = [c for c in status.get("conditions") or [] if str(c.get("status")) == "True"]
    for c in true:
        if c.get("type") in ("Failed", "FailureTarget"):
            state = "TIMEOUT" if c.get("reason") == "DeadlineExceeded" else "FAILED"
            when = parse_time(c.get("lastTransitionTime") or c.get("lastUpdateTime"))
            return state, when.astimezone(UTC).timestamp() if when else None
    if any(c.get("type") in ENDED for c in true):
        return "COMPLETED", None
    active = status.get("active")
    if (isinstance(active, int) and active > 0) or any(c.get("type") == "Running" for c in true):
        return "RUNNING", None
    return None, None


# ---- the last good run of a job, for a baseline ----------------------------------------------------------------

# labels that name one job object rather than the workload: left out of "the same labels"
PER_JOB_LABELS = (
    "controller-uid",
    "batch.kubernetes.io/controller-uid",
    "job-name",
    "batch.kubernetes.io/job-name",
    "training.kubeflow.org/job-name",
    "pytorch-job-name",
    "jobset.sigs.k8s.io/jobset-name",
    "jobset.sigs.k8s.io/jobset-uid",
)


def previous_good_kubernetes(
    ref: JobRef, cluster: KubernetesCluster, *, http: httpx.Client | None = None
) -> JobRef | None:
    """The latest job of the same kind with the same labels (those that name the workload, not this one object)
    that completed before this one was created: a Job, PyTorchJob or JobSet launched again under a new name."""
    ns, name = _split(ref, cluster)
    api, client = _api(ref.cluster, cluster, ns, http)
    try:
        _pods, _selector, owner_ref = find_pods(api, ns, name)
        owner = get_owner(api, ns, name, owner_ref, [])
        if owner is None or owner_ref is None:
            return None
        meta = owner.get("metadata") or {}
        labels = {k: v for k, v in (meta.get("labels") or {}).items() if k not in PER_JOB_LABELS}
        created = parse_time(meta.get("creationTimestamp"))
        if not labels or created is None:
            return None
        group, version, plural = owner_ref
        selector = ",".join(f"{k}={v}" for k, v in sorted(labels.items()))
        found = []
        for obj in _list(api, f"/apis/{group}/{version}/namespaces/{quote(ns)}/{plural}", selector, plural, "Job"):
            other = obj.get("metadata") or {}
            state, _ = job_state(obj)
            ended = _completed_at(obj)
            if other.get("name") != name and state == "COMPLETED" and ended is not None and ended <= created:
                found.append((ended, other["name"]))
        if not found:
            return None
        good = max(found)[1]
        return JobRef(ref.cluster, ref.kind, f"{ns}/{good}", f"{ref.cluster}/{ns}/{good}")
    finally:
        if http is None:
            client.close()


def _completed_at(obj: dict):
    status = obj.get("status") or {}
    for c in status.get("conditions") or []:
        if c.get("type") in ENDED and str(c.get("status")) == "True":
            return parse_time(c.get("lastTransitionTime")) or parse_time(status.get("completionTime"))
    return parse_time(status.get("completionTime"))
