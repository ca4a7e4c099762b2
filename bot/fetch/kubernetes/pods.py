"""Pods and ranks: what the API says about a pod's labels, containers and (training) rank."""

from __future__ import annotations

REPLICA_INDEX = ("training.kubeflow.org/replica-index", "pytorch-replica-index")
REPLICA_TYPE = ("training.kubeflow.org/replica-type", "pytorch-replica-type")
COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index"
JOBSET_JOB_INDEX = "jobset.sigs.k8s.io/job-index"
JOBSET_REPLICATED_JOB = "jobset.sigs.k8s.io/replicatedjob-name"


def pod_labels(pod: dict) -> dict:
    return (pod.get("metadata") or {}).get("labels") or {}


def pod_annotations(pod: dict) -> dict:
    return (pod.get("metadata") or {}).get("annotations") or {}


def pod_name(pod: dict) -> str:
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
        value = pod_labels(pod).get(key, pod_annotations(pod).get(key))
        if value is not None and _int(value) is not None:
            return _int(value)
    return None


def rank_hints(pods: list[dict]) -> dict[str, int | None]:
    """Each pod's rank as far as the API says: a literal RANK env, the replica index, the completion index."""
    has_master = any(str(pod_labels(p).get(k, "")).lower() == "master" for p in pods for k in REPLICA_TYPE)
    jobset_jobs: dict[str, set[int]] = {}
    per_job: dict[str, int] = {}
    for p in pods:
        rj = pod_labels(p).get(JOBSET_REPLICATED_JOB) or pod_annotations(p).get(JOBSET_REPLICATED_JOB)
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
                rtype = next((str(pod_labels(p)[k]).lower() for k in REPLICA_TYPE if k in pod_labels(p)), "")
                rank = idx + 1 if rtype == "worker" and has_master else idx
        if rank is None:
            ci = _index(p, COMPLETION_INDEX)
            if ci is not None:
                rj = pod_labels(p).get(JOBSET_REPLICATED_JOB) or pod_annotations(p).get(JOBSET_REPLICATED_JOB)
                if rj is None or len(jobset_jobs) <= 1:
                    job_index = _index(p, JOBSET_JOB_INDEX) or 0
                    rank = job_index * per_job.get(rj, 0) + ci if rj is not None else ci
                # several replicated jobs: no global order we can trust, leave it to the log lines
        out[pod_name(p)] = rank
    return out


def containers(pod: dict) -> list[tuple[str, dict, bool]]:
    """(name, status, is_init) for the pod's containers, in spec order; status {} when none yet."""
    spec = pod.get("spec") or {}
    status = pod.get("status") or {}
    regular = {s.get("name"): s for s in status.get("containerStatuses") or []}
    init = {s.get("name"): s for s in status.get("initContainerStatuses") or []}
    out = [(c.get("name"), init.get(c.get("name"), {}), True) for c in spec.get("initContainers") or []]
    out += [(c.get("name"), regular.get(c.get("name"), {}), False) for c in spec.get("containers") or []]
    return [(n, s, i) for n, s, i in out if n]


def terminated(cs: dict, key: str) -> dict | None:
    return ((cs.get(key) or {}).get("terminated")) or None


def has_started(cs: dict) -> bool:
    state = cs.get("state") or {}
    return bool(
        state.get("running")
        or state.get("terminated")
        or terminated(cs, "lastState")
        or (cs.get("restartCount") or 0) > 0
    )
