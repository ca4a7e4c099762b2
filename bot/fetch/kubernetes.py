"""Kubernetes: a batch Job, a Kubeflow PyTorchJob (or another training-operator job) or a JobSet, by namespace/name.

Reads the API server with a bearer token (the pod's service account by default): lists the job's
pods by label, fetches every container's log (the crashed previous attempt first) and writes the
API's own evidence -- terminated states, pod reasons, events -- to `k8s-status.log` in kubectl's
wording, so the signatures for OOMKilled, evictions and lost nodes can match it.

Log sizes are not known in advance and the log endpoint's `limitBytes` returns the *first* bytes of
a log, so each log is fetched in two steps: a small probe (`limitBytes`) that returns short logs
whole and measures long ones, then, for long logs, `tailLines` sized from the probe to the log's
fair share of the byte budget, streamed through `write_tail_of_stream` so the newest bytes are kept.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import ssl
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

import httpx

from bot.config import KubernetesCluster
from bot.fetch.base import (Budget, FetchedLog, FetchError, FetchResult, JobFacts, JobRef, fair_shares, new_workdir,
                            write_tail_of_stream)

IN_CLUSTER_URL = "https://kubernetes.default.svc"
SERVICE_ACCOUNT_DIR = Path("/var/run/secrets/kubernetes.io/serviceaccount")
STATUS_LOG = "k8s-status.log"
PROBE_BYTES = 64 << 10          # logs up to this size come whole from the first request
MAX_STATUS_BYTES = 512 << 10    # k8s-status.log is evidence, not a log dump
EVENT_PAGE = 500
EVENT_PAGES = 10
WORKERS = 8
LINE_MARGIN = 1.5               # ask for this many more lines than the probe's average line length suggests

# (label key, what it means, owner object (group, version, plural) or None when the pods say it)
SELECTORS = [
    ("job-name", "batch Job", ("batch", "v1", "jobs")),
    ("batch.kubernetes.io/job-name", "batch Job", ("batch", "v1", "jobs")),
    ("training.kubeflow.org/job-name", "Kubeflow training job", None),
    ("pytorch-job-name", "PyTorchJob (older training operator)", ("kubeflow.org", "v1", "pytorchjobs")),
    ("jobset.sigs.k8s.io/jobset-name", "JobSet", ("jobset.x-k8s.io", "v1alpha2", "jobsets")),
]
REPLICA_INDEX = ("training.kubeflow.org/replica-index", "pytorch-replica-index")
REPLICA_TYPE = ("training.kubeflow.org/replica-type", "pytorch-replica-type")
COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index"
JOBSET_JOB_INDEX = "jobset.sigs.k8s.io/job-index"
JOBSET_REPLICATED_JOB = "jobset.sigs.k8s.io/replicatedjob-name"
OPERATOR_NAME = "training.kubeflow.org/operator-name"
# condition types of Job / PyTorchJob / JobSet, most telling first
STATE_ORDER = ["Failed", "FailureTarget", "Complete", "Completed", "Succeeded", "SuccessCriteriaMet", "Suspended",
               "Restarting", "Running", "Created"]
OWNER_KINDS = {"Job", "PyTorchJob", "TFJob", "MPIJob", "XGBoostJob", "PaddleJob", "JAXJob", "JobSet", "TrainJob"}
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


# --------------------------------------------------------------------------------------------- the API client

class _Api:
    """GETs against the API server with the error mapping every caller shares."""

    def __init__(self, client: httpx.Client, base: str, token: str | None, budget: Budget, namespace: str,
                 cluster: str):
        self.client = client
        self.base = base.rstrip("/")
        self.headers = {"Accept": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.budget = budget
        self.namespace = namespace
        self.cluster = cluster

    def url(self, path: str) -> str:
        return self.base + path

    def timeout(self) -> httpx.Timeout:
        left = self.budget.time_left()
        return httpx.Timeout(left, connect=min(10.0, left))

    def get_json(self, path: str, params: dict, what: str) -> dict:
        self.budget.check_time(what)
        try:
            resp = self.client.get(self.url(path), params=params, headers=self.headers, timeout=self.timeout())
        except httpx.HTTPError as exc:
            raise self.transport_error(exc, what) from None
        if resp.status_code != 200:
            raise self.status_error(resp.status_code, _api_message(resp), what)
        try:
            data = resp.json()
        except ValueError:
            raise FetchError("unreachable", f"the Kubernetes API at {self.base} answered {what} with something "
                                            "that is not JSON (a proxy or login page?)") from None
        if not isinstance(data, dict):
            raise FetchError("unreachable", f"the Kubernetes API at {self.base} answered {what} with unexpected JSON")
        return data

    def transport_error(self, exc: Exception, what: str) -> FetchError:
        if isinstance(exc, httpx.TimeoutException):
            return FetchError("timeout", f"the Kubernetes API at {self.base} did not answer in time while {what} "
                                         f"({type(exc).__name__}); the API server or the node's kubelet is slow. "
                                         "Try again, or diagnose the log files directly.")
        return FetchError("unreachable", f"cannot reach the Kubernetes API at {self.base} while {what}: "
                                         f"{exc or type(exc).__name__}")

    def status_error(self, code: int, message: str, what: str) -> FetchError:
        detail = f" ({message})" if message else ""
        if code == 401:
            said = f": {message}" if message else ""
            return FetchError("permission", f"the Kubernetes API server of cluster {self.cluster!r} rejected the "
                                            f"bot's token while {what} (401 Unauthorized{said}): the token is "
                                            "expired, revoked or for another cluster; refresh it")
        if code == 403:
            return FetchError("permission", f"the Kubernetes API refused {what} (403 Forbidden{detail}). RBAC: the "
                                            "bot's service account needs get/list on pods, pods/log, events in "
                                            f"namespace {self.namespace!r} (a Role and RoleBinding there)")
        if code == 404:
            return FetchError("unknown_job", f"not found while {what}{detail}: does namespace {self.namespace!r} "
                                             f"exist on cluster {self.cluster!r}?")
        if code == 429:
            return FetchError("unreachable", f"the Kubernetes API server is rate-limiting the bot (429) while {what}; "
                                             "try again in a minute")
        if code >= 500:
            return FetchError("unreachable", f"the Kubernetes API server answered {code} while {what}{detail}; "
                                             "it may be overloaded or restarting, try again")
        return FetchError("unreachable", f"the Kubernetes API answered {code} while {what}{detail}")


def _api_message(resp: httpx.Response) -> str:
    """The `message` of a metav1.Status body, else the start of the body."""
    try:
        data = resp.json()
        if isinstance(data, dict) and data.get("message"):
            return str(data["message"])[:400]
    except ValueError:
        pass
    return resp.text.strip()[:200]


def _token(cluster: KubernetesCluster, name: str, injected: bool) -> str | None:
    if cluster.token_env:
        token = os.environ.get(cluster.token_env, "").strip()
        if not token:
            raise FetchError("not_configured", f"cluster {name!r}: the environment variable {cluster.token_env} "
                                               "(token_env) that should hold the Kubernetes API token is not set")
        return token
    try:
        return (SERVICE_ACCOUNT_DIR / "token").read_text().strip() or None
    except OSError:
        if cluster.api_url is None and not injected:
            raise FetchError("not_configured", f"cluster {name!r}: no api_url is configured and the bot is not "
                                               "running in a Kubernetes pod (no service account token at "
                                               f"{SERVICE_ACCOUNT_DIR}); set api_url and token_env") from None
        return None


def _verify(cluster: KubernetesCluster, name: str):
    if not cluster.verify_tls:
        return False
    ca = cluster.ca_file
    if ca is None and cluster.api_url is None and (SERVICE_ACCOUNT_DIR / "ca.crt").is_file():
        ca = str(SERVICE_ACCOUNT_DIR / "ca.crt")
    if ca is None:
        return True
    try:
        return ssl.create_default_context(cafile=ca)
    except (OSError, ssl.SSLError) as exc:
        raise FetchError("not_configured", f"cluster {name!r}: cannot load the CA bundle {ca} (ca_file): "
                                           f"{exc}") from None


# --------------------------------------------------------------------------------------------- pods and ranks

def _labels(pod: dict) -> dict:
    return (pod.get("metadata") or {}).get("labels") or {}


def _annotations(pod: dict) -> dict:
    return (pod.get("metadata") or {}).get("annotations") or {}


def _pod_name(pod: dict) -> str:
    return (pod.get("metadata") or {}).get("name") or "?"


def _int(value) -> int | None:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


def _env_rank(pod: dict) -> int | None:
    """A literal RANK in the pod spec (the training operator writes one per replica when there is a Master)."""
    for c in (pod.get("spec") or {}).get("containers") or []:
        for env in c.get("env") or []:
            if env.get("name") == "RANK" and "value" in env:
                rank = _int(env["value"])
                if rank is not None:
                    return rank
    return None


def _index(pod: dict, keys) -> int | None:
    for key in keys if isinstance(keys, tuple) else (keys,):
        value = _labels(pod).get(key, _annotations(pod).get(key))
        if value is not None and _int(value) is not None:
            return _int(value)
    return None


def rank_hints(pods: list[dict]) -> dict[str, int | None]:
    """Each pod's rank as far as the API says: a literal RANK env, the replica index, the completion index."""
    has_master = any(str(_labels(p).get(k, "")).lower() == "master" for p in pods for k in REPLICA_TYPE)
    jobset_jobs: dict[str, set[int]] = {}
    per_job: dict[str, int] = {}
    for p in pods:
        rj = _labels(p).get(JOBSET_REPLICATED_JOB) or _annotations(p).get(JOBSET_REPLICATED_JOB)
        ci = _index(p, COMPLETION_INDEX)
        if rj is not None and ci is not None:
            jobset_jobs.setdefault(rj, set()).add(_index(p, JOBSET_JOB_INDEX) or 0)
            per_job[rj] = max(per_job.get(rj, 0), ci + 1)
    out: dict[str, int | None] = {}
    for p in pods:
        rank = _env_rank(p)
        if rank is None:
            idx = _index(p, REPLICA_INDEX)
            if idx is not None:
                rtype = next((str(_labels(p)[k]).lower() for k in REPLICA_TYPE if k in _labels(p)), "")
                rank = idx + 1 if rtype == "worker" and has_master else idx
        if rank is None:
            ci = _index(p, COMPLETION_INDEX)
            if ci is not None:
                rj = _labels(p).get(JOBSET_REPLICATED_JOB) or _annotations(p).get(JOBSET_REPLICATED_JOB)
                if rj is None or len(jobset_jobs) <= 1:
                    job_index = _index(p, JOBSET_JOB_INDEX) or 0
                    rank = job_index * per_job.get(rj, 0) + ci if rj is not None else ci
                # several replicated jobs: no global order we can trust, leave it to the log lines
        out[_pod_name(p)] = rank
    return out


def _containers(pod: dict) -> list[tuple[str, dict, bool]]:
    """(name, status, is_init) for the pod's containers, in spec order; status {} when none yet."""
    spec = pod.get("spec") or {}
    status = pod.get("status") or {}
    regular = {s.get("name"): s for s in status.get("containerStatuses") or []}
    init = {s.get("name"): s for s in status.get("initContainerStatuses") or []}
    out = [(c.get("name"), init.get(c.get("name"), {}), True) for c in spec.get("initContainers") or []]
    out += [(c.get("name"), regular.get(c.get("name"), {}), False) for c in spec.get("containers") or []]
    return [(n, s, i) for n, s, i in out if n]


def _terminated(cs: dict, key: str) -> dict | None:
    return ((cs.get(key) or {}).get("terminated")) or None


def _started(cs: dict) -> bool:
    state = cs.get("state") or {}
    return bool(state.get("running") or state.get("terminated") or _terminated(cs, "lastState")
                or (cs.get("restartCount") or 0) > 0)


@dataclass
class _Target:
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


def _targets(pods: list[dict], ranks: dict[str, int | None]) -> list[_Target]:
    previous, current = [], []
    for p in pods:
        pod, rank = _pod_name(p), ranks.get(_pod_name(p))
        for cname, cs, is_init in _containers(p):
            if not _started(cs):
                continue
            restarts = cs.get("restartCount") or 0
            term = _terminated(cs, "state")
            if is_init and restarts == 0 and term and term.get("exitCode") == 0:
                continue  # an init container that did its job
            if restarts > 0:
                previous.append(_Target(pod, cname, True, rank))
            current.append(_Target(pod, cname, False, rank))

    def order(t: _Target):
        return (t.rank is None, t.rank if t.rank is not None else 0, t.pod, t.container)

    out = sorted(previous, key=order) + sorted(current, key=order)
    for t in out:
        t.name = log_name(t.pod, t.container, t.previous, t.rank)
    return out


# --------------------------------------------------------------------------------------------- times and facts

def _parse_time(value) -> datetime | None:
    if not value or not isinstance(value, str):
        return None
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


def _iso(dt: datetime | None) -> str | None:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def elapsed(seconds: float) -> str:
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return (f"{days}-" if days else "") + f"{h:02d}:{m:02d}:{s:02d}"


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
        for cname, cs, _ in _containers(p):
            for key in ("lastState", "state"):
                t = _terminated(cs, key)
                if t and t.get("exitCode") not in (None, 0):
                    finished = _parse_time(t.get("finishedAt")) or datetime.max.replace(tzinfo=timezone.utc)
                    found.append((finished, str(t.get("exitCode")), t.get("reason"), _pod_name(p), cname))
    if not found:
        return None
    found.sort(key=lambda f: f[0])
    return found[0]


def _facts(ns: str, name: str, pods: list[dict], owner: dict | None) -> tuple[JobFacts, list[str]]:
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
    facts.nodes = sorted({(p.get("spec") or {}).get("nodeName") for p in pods} - {None, ""})
    starts = [_parse_time((p.get("status") or {}).get("startTime")) for p in pods]
    owner_status = (owner or {}).get("status") or {}
    start = _parse_time(owner_status.get("startTime")) or min((s for s in starts if s), default=None)
    end = _parse_time(owner_status.get("completionTime"))
    if end is None and pods and all((p.get("status") or {}).get("phase") in ("Succeeded", "Failed") for p in pods):
        finishes = [_parse_time(t.get("finishedAt")) for p in pods for _, cs, _ in _containers(p)
                    for t in [_terminated(cs, "state")] if t]
        end = max((f for f in finishes if f), default=None)
    facts.start, facts.end = _iso(start), _iso(end)
    if start:
        facts.elapsed = elapsed(((end or datetime.now(timezone.utc)) - start).total_seconds())
    return facts, notes


# --------------------------------------------------------------------------------------------- k8s-status.log

def _one_line(text, limit: int = 400) -> str:
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
            parts.append(f"Message: {_one_line(body['message'])}")
        return reason, "  ".join(parts)
    if kind == "waiting":
        reason = body.get("reason") or "Waiting"
        parts = [f"Reason: {reason}"] + ([f"Message: {_one_line(body['message'])}"] if body.get("message") else [])
        return reason, "  ".join(parts)
    return "Running", f"Started: {body.get('startedAt') or '-'}"


def status_lines(ns: str, name: str, pods: list[dict], events: list[dict], ranks: dict[str, int | None]) -> list[str]:
    """The API's evidence, one fact a line: `POD READY STATUS RESTARTS TIME [rankN] detail` for containers and
    pods (kubectl get pods columns, then kubectl describe wording), `TIME [rankN] TYPE REASON OBJECT MESSAGE`
    for events (kubectl get events columns, with the time instead of the age)."""
    lines = [f"# Kubernetes job {ns}/{name}: pod and container status and events from the API server (denpex)",
             "# NAME  READY  STATUS  RESTARTS  TIME  RANK  DETAIL"]
    for p in pods:
        pod = _pod_name(p)
        status = p.get("status") or {}
        rank = ranks.get(pod)
        tag = f"[rank{rank}]" if rank is not None else "-"
        node = (p.get("spec") or {}).get("nodeName") or "-"
        regular = [s for _, s, init in _containers(p) if not init]
        ready = f"{sum(1 for s in regular if s.get('ready'))}/{len(regular)}"
        if status.get("reason") or status.get("phase") == "Failed":
            t = next((c["lastTransitionTime"] for c in status.get("conditions") or []
                      if c.get("type") in ("DisruptionTarget", "Ready") and c.get("lastTransitionTime")), None)
            if t is None:  # else when its containers stopped
                t = max((term.get("finishedAt") for _, cs, _ in _containers(p) for term in [_terminated(cs, "state")]
                         if term and term.get("finishedAt")), default=None)
            detail = f"Status: {status.get('phase') or '-'}"
            if status.get("reason"):
                detail += f"  Reason: {status['reason']}"
            if status.get("message"):
                detail += f"  Message: {_one_line(status['message'])}"
            lines.append(f"{pod}   {ready}   {status.get('reason') or status.get('phase')}   -   {t or '-'}   {tag}   "
                         f"pod {pod} on node {node}: {detail}")
        for c in status.get("conditions") or []:
            if c.get("type") == "DisruptionTarget" and str(c.get("status")) == "True":
                lines.append(f"{pod}   {ready}   {c.get('reason') or 'DisruptionTarget'}   -   "
                             f"{c.get('lastTransitionTime') or '-'}   {tag}   pod {pod} condition DisruptionTarget: "
                             f"Reason: {c.get('reason') or '-'}  Message: {_one_line(c.get('message') or '-')}")
            elif c.get("type") == "PodScheduled" and str(c.get("status")) == "False":
                lines.append(f"{pod}   {ready}   Pending   -   {c.get('lastTransitionTime') or '-'}   {tag}   "
                             f"pod {pod} not scheduled: Reason: {c.get('reason') or '-'}  "
                             f"Message: {_one_line(c.get('message') or '-')}")
        for cname, cs, is_init in _containers(p):
            restarts = cs.get("restartCount") or 0
            what = f"{'init container' if is_init else 'container'} {cname}"
            last = _terminated(cs, "lastState")
            if last:
                col, detail = _state_detail("terminated", last)
                lines.append(f"{pod}   {ready}   {col}   {restarts}   {last.get('finishedAt') or '-'}   {tag}   "
                             f"{what} (previous) on node {node}: Last State: Terminated  {detail}")
            state = cs.get("state") or {}
            for kind in ("terminated", "waiting", "running"):
                if kind in state and state[kind] is not None:
                    body = state[kind] or {}
                    col, detail = _state_detail(kind, body)
                    when = body.get("finishedAt") or body.get("startedAt") or "-"
                    lines.append(f"{pod}   {ready}   {col}   {restarts}   {when}   {tag}   {what} on node {node}: "
                                 f"State: {kind.capitalize()}  {detail}")
                    break
    for e in events:
        obj = e.get("involvedObject") or {}
        rank = ranks.get(obj.get("name")) if obj.get("kind") == "Pod" else None
        tag = f"[rank{rank}]" if rank is not None else "-"
        count = e.get("count") or ((e.get("series") or {}).get("count"))
        target = f"{(obj.get('kind') or '?').lower()}/{obj.get('name') or '?'}"
        lines.append(f"{_event_time(e) or '-'}   {tag}   {e.get('type') or 'Normal'}   {e.get('reason') or '-'}   "
                     f"{target}   {_one_line(e.get('message') or '', 600)}"
                     + (f" (x{count})" if count and count > 1 else ""))
    return lines


def _event_time(e: dict) -> str | None:
    return (e.get("lastTimestamp") or (e.get("series") or {}).get("lastObservedTime") or e.get("eventTime")
            or e.get("firstTimestamp") or (e.get("metadata") or {}).get("creationTimestamp"))


# --------------------------------------------------------------------------------------------- the fetch

def fetch_kubernetes(ref: JobRef, cluster: KubernetesCluster, budget: Budget, http: httpx.Client | None = None
                     ) -> FetchResult:
    ns, _, name = ref.job_id.partition("/")
    if not name:
        ns, name = cluster.namespace, ns
    token = _token(cluster, ref.cluster, http is not None)
    base = cluster.api_url or IN_CLUSTER_URL
    client = http
    if client is None:
        client = httpx.Client(verify=_verify(cluster, ref.cluster), follow_redirects=False,
                              timeout=httpx.Timeout(budget.time_left(), connect=min(10.0, budget.time_left())))
    api = _Api(client, base, token, budget, ns, ref.cluster)
    workdir = new_workdir()
    try:
        return _fetch(api, ref, ns, name, budget, workdir)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    finally:
        if http is None:
            client.close()


def _find_pods(api: _Api, ns: str, name: str) -> tuple[list[dict], str, tuple | None]:
    tried = []
    for key, kind, owner in SELECTORS:
        if len(name) > 63:  # label values are at most 63 characters: no pod can carry this one
            break
        selector = f"{key}={name}"
        tried.append(selector)
        data = api.get_json(f"/api/v1/namespaces/{quote(ns)}/pods", {"labelSelector": selector},
                            f"listing the pods of {ns}/{name} ({selector})")
        pods = [p for p in data.get("items") or [] if isinstance(p, dict)]
        if pods:
            if owner is None:  # a training-operator job: which kind the operator label says
                op = str(_labels(pods[0]).get(OPERATOR_NAME, "pytorchjob-controller"))
                owner = ("kubeflow.org", "v1", op.removesuffix("-controller") + "s")
            return pods, selector, owner
    searched = ", ".join(tried) or "(none: the name is too long for a label)"
    raise FetchError("unknown_job", f"no pods of a job named {name!r} in namespace {ns!r} on cluster "
                                    f"{api.cluster!r}: searched the labels {searched} "
                                    "(batch Job, Kubeflow PyTorchJob, JobSet). The job may not exist, or its pods were "
                                    "already deleted (ttlSecondsAfterFinished, cleanPodPolicy).")


def _get_owner(api: _Api, ns: str, name: str, owner: tuple | None, notes: list[str]) -> dict | None:
    if owner is None:
        return None
    group, version, plural = owner
    try:
        return api.get_json(f"/apis/{group}/{version}/namespaces/{quote(ns)}/{plural}/{quote(name)}", {},
                            f"reading {plural} {ns}/{name}")
    except FetchError as exc:
        if exc.kind == "timeout":
            raise
        notes.append(f"job status from the pods only: could not read {plural}/{name} ({exc.kind})")
        return None


def _list_events(api: _Api, ns: str, name: str, pods: set[str], notes: list[str]) -> list[dict]:
    """The events of the job's pods and of the job object, oldest first (one namespace list, filtered here)."""
    events: list[dict] = []
    params: dict = {"limit": EVENT_PAGE}
    try:
        for _ in range(EVENT_PAGES):
            data = api.get_json(f"/api/v1/namespaces/{quote(ns)}/events", params, f"listing the events in {ns}")
            events += [e for e in data.get("items") or [] if isinstance(e, dict) and _ours(e, name, pods)]
            cont = (data.get("metadata") or {}).get("continue")
            if not cont:
                break
            params = {"limit": EVENT_PAGE, "continue": cont}
    except FetchError as exc:
        if exc.kind == "timeout":
            raise
        notes.append(f"no events: {exc}")
    events.sort(key=lambda e: _event_time(e) or "")
    return events


def _ours(event: dict, name: str, pods: set[str]) -> bool:
    obj = event.get("involvedObject") or {}
    if obj.get("kind") == "Pod":
        return obj.get("name") in pods
    return obj.get("name") == name and obj.get("kind") in OWNER_KINDS


def _pending_error(ns: str, name: str, pods: list[dict], events: list[dict]) -> FetchError:
    why = []
    for p in pods:
        for c in (p.get("status") or {}).get("conditions") or []:
            if c.get("type") == "PodScheduled" and str(c.get("status")) == "False" and c.get("message"):
                why.append(f"{c.get('reason') or 'Unschedulable'}: {_one_line(c['message'], 200)}")
        for _, cs, _ in _containers(p):
            waiting = (cs.get("state") or {}).get("waiting") or {}
            if waiting.get("reason") and waiting["reason"] not in ("ContainerCreating", "PodInitializing"):
                why.append(f"{waiting['reason']}" + (f": {_one_line(waiting['message'], 200)}"
                                                     if waiting.get("message") else ""))
    if not why:
        why = [f"{e.get('reason')}: {_one_line(e.get('message') or '', 200)}" for e in reversed(events)
               if e.get("type") == "Warning"][:1]
    reason = f" Kubernetes says: {why[0]}" if why else ""
    return FetchError("pending", f"{ns}/{name} has not started: its {len(pods)} pod(s) are Pending and no container "
                                 f"has run yet, so there is no log to diagnose.{reason}")


def _fetch(api: _Api, ref: JobRef, ns: str, name: str, budget: Budget, workdir: Path) -> FetchResult:
    pods, selector, owner_ref = _find_pods(api, ns, name)
    pods.sort(key=_pod_name)
    notes = [f"{len(pods)} pod(s) found by label {selector}"]
    pod_names = {_pod_name(p) for p in pods}
    started = any(_started(cs) for p in pods for _, cs, _ in _containers(p))
    if not started and all((p.get("status") or {}).get("phase") == "Pending" for p in pods):
        raise _pending_error(ns, name, pods, _list_events(api, ns, name, pod_names, []))
    owner = _get_owner(api, ns, name, owner_ref, notes)
    events = _list_events(api, ns, name, pod_names, notes)
    ranks = rank_hints(pods)
    facts, fact_notes = _facts(ns, name, pods, owner)
    notes += fact_notes

    status_log = _write_status(ns, name, pods, events, ranks, workdir / STATUS_LOG, budget, notes)

    targets = _targets(pods, ranks)
    _fetch_logs(api, ns, targets, budget, workdir, notes)
    logs = [t.log for t in targets if t.log is not None] + [status_log]
    skipped = [t for t in targets if t.note]
    notes += [t.note for t in skipped]
    return FetchResult(ref.cluster, facts, logs, notes, workdir)


def _write_status(ns: str, name: str, pods: list[dict], events: list[dict], ranks: dict[str, int | None],
                  path: Path, budget: Budget, notes: list[str]) -> FetchedLog:
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


# --------------------------------------------------------------------------------------------- logs

def _log_path(ns: str, pod: str) -> str:
    return f"/api/v1/namespaces/{quote(ns)}/pods/{quote(pod)}/log"


def _params(t: _Target, **extra) -> dict:
    params = {"container": t.container, **extra}
    if t.previous:
        params["previous"] = "true"
    return params


def _skip_or_raise(api: _Api, t: _Target, code: int, message: str) -> None:
    """A log the API will not give: 400 (no previous attempt, not started), 404 (pod gone) and kubelet errors
    (5xx from a lost node) skip that log with a note; 401/403 stop the fetch."""
    what = f"log {t.name}"
    if code in (401, 403):
        t.fatal = api.status_error(code, message, f"reading pod logs ({t.pod})")
    elif code == 400 and "previous terminated container" in message:
        t.note = f"skipped {what}: Kubernetes no longer has the previous attempt ({message})"
    else:
        t.note = f"skipped {what}: the API answered {code}" + (f" ({_one_line(message, 300)})" if message else "")


def _probe(api: _Api, ns: str, t: _Target) -> None:
    if time.monotonic() > api.budget.deadline:
        t.note = f"skipped log {t.name}: the {api.budget.seconds:.0f}s time budget ran out"
        return
    try:
        resp = api.client.get(api.url(_log_path(ns, t.pod)), params=_params(t, limitBytes=PROBE_BYTES + 1),
                              headers={**api.headers, "Accept": "*/*"}, timeout=api.timeout())
    except httpx.ConnectError as exc:
        t.fatal = api.transport_error(exc, f"reading the log of {t.pod}")
        return
    except httpx.HTTPError as exc:
        t.note = f"skipped log {t.name}: {type(exc).__name__} {exc}".rstrip()
        return
    if resp.status_code != 200:
        _skip_or_raise(api, t, resp.status_code, _api_message(resp))
        return
    t.probe = resp.content
    t.complete = len(t.probe) <= PROBE_BYTES


def _tail(api: _Api, ns: str, t: _Target, share: int, dest: Path) -> None:
    probe = t.probe or b""
    avg = max(1.0, len(probe) / max(1, probe.count(b"\n")))
    lines = min(50_000_000, math.ceil(share / avg * LINE_MARGIN) + 16)
    deadline = api.budget.deadline
    received_lines = 0

    def chunks(resp: httpx.Response):
        nonlocal received_lines
        for chunk in resp.iter_bytes():
            received_lines += chunk.count(b"\n")
            yield chunk
            if time.monotonic() > deadline:
                raise _OutOfTime()

    try:
        with api.client.stream("GET", api.url(_log_path(ns, t.pod)), params=_params(t, tailLines=lines),
                               headers={**api.headers, "Accept": "*/*"}, timeout=api.timeout()) as resp:
            if resp.status_code != 200:
                resp.read()
                _skip_or_raise(api, t, resp.status_code, _api_message(resp))
                return
            kept, received = write_tail_of_stream(chunks(resp), dest, share)
    except _OutOfTime:
        dest.unlink(missing_ok=True)
        t.note = f"skipped log {t.name}: the {api.budget.seconds:.0f}s time budget ran out while reading it"
        return
    except httpx.ConnectError as exc:
        t.fatal = api.transport_error(exc, f"reading the log of {t.pod}")
        return
    except httpx.HTTPError as exc:
        dest.unlink(missing_ok=True)
        t.note = f"skipped log {t.name}: {type(exc).__name__} {exc}".rstrip()
        return
    whole = received_lines < lines  # the server ran out of lines before our tailLines: this is the whole log
    t.log = FetchedLog(t.name, dest, kept, max(received, len(probe)), kept < received or not whole)


class _OutOfTime(Exception):
    pass


def _fetch_logs(api: _Api, ns: str, targets: list[_Target], budget: Budget, workdir: Path, notes: list[str]) -> None:
    if not targets:
        notes.append("no container of the job has started, or all of them are finished init containers")
        return
    with ThreadPoolExecutor(max_workers=min(WORKERS, len(targets))) as pool:
        list(pool.map(lambda t: _probe(api, ns, t), targets))
        _raise_fatal(targets)
        live = [t for t in targets if t.probe is not None]
        big = 1 << 62
        shares = fair_shares([len(t.probe) if t.complete else big for t in live], budget.remaining)
        jobs = []
        for i, (t, share) in enumerate(zip(live, shares)):
            dest = workdir / f"{i:04d}-{_SAFE.sub('_', t.name.removesuffix('.log'))}.log"
            if share <= 0:
                t.note = f"skipped log {t.name}: the {budget.max_bytes} byte budget is used up"
            elif t.complete:
                kept, original = write_tail_of_stream([t.probe], dest, share)
                t.log = FetchedLog(t.name, dest, kept, original, kept < original)
            else:
                jobs.append((t, share, dest))
        list(pool.map(lambda job: _tail(api, ns, *job), jobs))
        _raise_fatal(targets)
    for t in targets:
        t.probe = None
        if t.log is not None:
            budget.used += t.log.size


def _raise_fatal(targets: list[_Target]) -> None:
    for t in targets:
        if t.fatal is not None:
            raise t.fatal
