"""A `paths` cluster: job ids map to path templates on a shared filesystem."""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

from bot.config import PathsCluster
from bot.fetch.base import (
    Budget,
    FetchedLog,
    FetchResult,
    JobFacts,
    JobRef,
    copy_tail_of_file,
    fair_shares,
    new_workdir,
)
from bot.fetch.errors import LogMissing, NotConfigured, UnknownJob


def fetch_paths(ref: JobRef, cluster: PathsCluster, budget: Budget) -> FetchResult:
    found: list[Path] = []
    for template in cluster.templates:
        try:
            pattern = template.format(job_id=ref.job_id)
        except (KeyError, IndexError):
            raise NotConfigured(f"path template {template!r} may only use {{job_id}}") from None
        found += [Path(p) for p in sorted(glob.glob(pattern)) if os.path.isfile(p)]
    if not found:
        raise UnknownJob(
            f"no logs for job {ref.job_id} under {', '.join(t.format(job_id=ref.job_id) for t in cluster.templates)}"
        )
    readable = [p for p in found if os.access(p, os.R_OK)]
    if not readable:
        raise LogMissing(
            f"the logs of job {ref.job_id} exist but are not readable by denpex: {', '.join(map(str, found[:3]))}"
        )
    workdir = new_workdir()
    logs: list[FetchedLog] = []
    try:
        common = os.path.commonpath([str(p.parent) for p in readable])
        for path, share in zip(
            readable, fair_shares([p.stat().st_size for p in readable], budget.remaining), strict=True
        ):
            budget.check_time(str(path))
            name = os.path.relpath(path, common)
            kept, original = copy_tail_of_file(path, workdir / f"{len(logs):03d}_{path.name}", share)
            budget.used += kept
            logs.append(FetchedLog(name, workdir / f"{len(logs):03d}_{path.name}", kept, original, kept < original))
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    notes = [f"{log.name} truncated to its newest {log.size / 1e6:.0f} MB" for log in logs if log.truncated]
    return FetchResult(ref.cluster, JobFacts(job_id=ref.job_id), logs, notes, workdir)
