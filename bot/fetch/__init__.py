"""Turning a job reference into log files and job facts, from the scheduler that ran it.

    812345, 812345_7            the default (first) cluster; an array task
    NAME/812345                 a named cluster
    NAME/namespace/job-name     a Kubernetes Job / PyTorchJob / JobSet
    NAME/raysubmit_...          a Ray job

Job ids are validated per backend and never reach a shell. A fetch that fails raises a FetchError
subclass (bot.fetch.errors); the fetchers that read a JSON API share bot.fetch.http.
"""

from __future__ import annotations

import re

from bot.config import Config, KubernetesCluster, SlurmCluster
from bot.fetch.base import Budget, FetchedLog, FetchResult, JobFacts, JobRef, LogFollow
from bot.fetch.errors import (
    CannotConnect,
    FetchError,
    FetchTimeout,
    InvalidJobId,
    LogMissing,
    NotConfigured,
    NotFound,
    Pending,
    PermissionDenied,
    RateLimited,
    UnknownCluster,
    UnknownJob,
    Unreachable,
)

__all__ = [
    "Budget",
    "CannotConnect",
    "FetchError",
    "FetchResult",
    "FetchTimeout",
    "FetchedLog",
    "InvalidJobId",
    "JobFacts",
    "JobRef",
    "LogFollow",
    "LogMissing",
    "NotConfigured",
    "NotFound",
    "Pending",
    "PermissionDenied",
    "RateLimited",
    "UnknownCluster",
    "UnknownJob",
    "Unreachable",
    "ended_jobs",
    "fetch_job",
    "job_status",
    "parse_job_ref",
    "previous_good_run",
]

_VALID = {
    # ASCII digits only (Python's \d takes "１２３" and "٣٤"), and never 0 (`scontrol show job 0` lists every job)
    "slurm": re.compile(r"^[1-9][0-9]{0,11}(?:_[0-9]{1,9})?$"),
    "paths": re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"),
    "ray": re.compile(r"^(?:raysubmit_[A-Za-z0-9]{1,64}|[A-Za-z0-9_-]{1,128})$"),
    "kubernetes": re.compile(r"^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?/[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?$"),
}
_HINT = {
    "slurm": "a Slurm job id such as 812345 or 812345_7",
    "paths": "a job id of letters, digits, dots, dashes or underscores",
    "ray": "a Ray submission id such as raysubmit_AbC123",
    "kubernetes": "namespace/job-name (lower-case DNS names)",
}


def parse_job_ref(text: str, config: Config) -> JobRef:
    raw = text.strip()
    if not config.clusters:
        raise NotConfigured(
            "fetching logs by job id needs a [clusters] section in DENPEX_CONFIG, "
            "and none is configured: pass the log files instead"
        )
    first, _, rest = raw.partition("/")
    if rest and first in config.clusters:
        name, job_id = first, rest
    elif rest and not (first.isascii() and first.isdigit()) and "/" in rest and first not in config.clusters:
        raise UnknownCluster(f"no cluster named {first!r}; configured: {', '.join(config.clusters)}")
    else:
        name, job_id = next(iter(config.clusters)), raw
    cluster = config.clusters[name]
    if not _VALID[cluster.kind].match(job_id):
        raise InvalidJobId(
            f"{job_id!r} is not a valid job reference for cluster {name!r} "
            f"({cluster.kind}): expected {_HINT[cluster.kind]}"
        )
    return JobRef(name, cluster.kind, job_id, raw)


def fetch_job(ref: JobRef, config: Config, *, runner=None, http=None) -> FetchResult:
    """Fetch the job's logs and facts. `runner` (commands) and `http` (an httpx.Client) are injectable."""
    cluster = config.clusters[ref.cluster]
    budget = Budget(cluster.max_bytes, cluster.timeout_seconds)
    if cluster.kind == "slurm":
        from bot.fetch.slurm import fetch_slurm

        return fetch_slurm(ref, cluster, budget, runner=runner, http=http)
    if cluster.kind == "paths":
        from bot.fetch.paths import fetch_paths

        return fetch_paths(ref, cluster, budget)
    if cluster.kind == "kubernetes":
        from bot.fetch.kubernetes import fetch_kubernetes

        return fetch_kubernetes(ref, cluster, budget, http=http)
    from bot.fetch.ray import fetch_ray

    return fetch_ray(ref, cluster, budget, http=http)


def _slurm(name: str, config: Config, why: str) -> SlurmCluster:
    """The Slurm cluster `name`; NotConfigured, saying `why`, for a cluster of another kind."""
    cluster = config.clusters[name]
    if not isinstance(cluster, SlurmCluster):
        raise NotConfigured(f"cluster {name!r} is a {cluster.kind} cluster: {why}")
    return cluster


def job_status(
    ref: JobRef, config: Config, *, runner=None, http=None, follow: LogFollow | None = None
) -> tuple[JobFacts, list]:
    """What a watch needs: the job's facts (its state) and the paths of its growing logs. A Slurm job's logs are
    files on a filesystem this machine shares with the job; a Kubernetes job's come from the API, appended to
    spool files under `follow` at each look (without `follow`, its state only). Ray serves a job's log whole, not as it grows: not watched."""
    cluster = config.clusters[ref.cluster]
    if isinstance(cluster, KubernetesCluster):
        from bot.fetch.kubernetes.follow import follow_kubernetes

        return follow_kubernetes(ref, cluster, follow, http=http)
    cluster = _slurm(
        ref.cluster,
        config,
        "watching follows the log files of Slurm jobs on a shared filesystem and Kubernetes jobs through the API "
        "(or `denpex watch PATH` on a login node)",
    )
    from bot.fetch.slurm import slurm_status

    return slurm_status(ref, cluster, Budget(cluster.max_bytes, cluster.timeout_seconds), runner=runner, http=http)


def ended_jobs(
    cluster_name: str,
    config: Config,
    states: set[str],
    *,
    runner=None,
    http=None,
    namespace: str | None = None,
    selector: str | None = None,
) -> list[dict]:
    """The jobs of a cluster that ended in one of `states`, as far as its scheduler still knows them: a Slurm
    controller's, or a Kubernetes namespace's Jobs, PyTorchJobs and JobSets (by label selector)."""
    cluster = config.clusters[cluster_name]
    if isinstance(cluster, KubernetesCluster):
        from bot.fetch.kubernetes.follow import ended_kubernetes

        return ended_kubernetes(cluster_name, cluster, states, namespace, selector, http=http)
    cluster = _slurm(cluster_name, config, "[[watch.auto]] needs a Slurm or Kubernetes cluster")
    from bot.fetch.slurm import ended_jobs as slurm_ended

    return slurm_ended(cluster, states, runner=runner, timeout=cluster.timeout_seconds)


def previous_good_run(ref: JobRef, config: Config, facts: JobFacts, *, runner=None, http=None) -> JobRef | None:
    """An earlier successful run of the same job, to compare the failed run with: Slurm, the same name and user,
    COMPLETED, ended before this one started; Kubernetes, the same kind of job with the same workload labels,
    completed before this one was created. None when there is none or the scheduler cannot say (Ray: a job has
    no "previous run")."""
    cluster = config.clusters[ref.cluster]
    if not getattr(cluster, "baseline", False):
        return None
    try:
        if isinstance(cluster, KubernetesCluster):
            from bot.fetch.kubernetes.follow import previous_good_kubernetes

            return previous_good_kubernetes(ref, cluster, http=http)
        if not isinstance(cluster, SlurmCluster):
            return None
        from bot.fetch.slurm import previous_good

        job_id = previous_good(cluster, facts, runner=runner, timeout=min(30.0, cluster.timeout_seconds))
    except FetchError:
        return None
    return JobRef(ref.cluster, ref.kind, job_id, f"{ref.cluster}/{job_id}") if job_id else None
