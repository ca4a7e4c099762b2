"""Diagnosing a job by reference: fetch its logs and facts, scan them as one job, attach the facts."""

from __future__ import annotations

from collections.abc import Callable

import signatures
from bot.config import Config
from bot.fetch import FetchResult, JobRef, fetch_job, parse_job_ref


def job_report(
    ref: JobRef,
    fetched: FetchResult,
    matcher: signatures.Matcher | None = None,
    progress: Callable[[int], None] | None = None,
    budget: signatures.Budget | None = None,
) -> signatures.Report:
    """Scan fetched logs as one job; the report gains a `job` section (fields may be added to the contract)."""
    budget = budget or signatures.Budget()
    sources = (source for log in fetched.logs for source in signatures.open_path(log.path, log.name, budget))
    report = signatures.diagnose_sources(sources, matcher, progress)
    job = signatures.JobInfo(
        cluster=ref.cluster,
        kind=ref.kind,
        reference=ref.raw,
        **fetched.facts.as_dict(),
        summary=fetched.facts.line(),
        logs=[
            signatures.JobLog(name=log.name, bytes=log.size, original_bytes=log.original_size, truncated=log.truncated)
            for log in fetched.logs
        ],
        notes=fetched.notes,
    )
    return report.model_copy(update={"job": job})


def diagnose_job(
    reference: str,
    config: Config,
    matcher: signatures.Matcher | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    runner=None,
    http=None,
) -> signatures.Report:
    """Raises FetchError (with a user-facing message) when the job cannot be fetched."""
    ref = parse_job_ref(reference, config)
    fetched = fetch_job(ref, config, runner=runner, http=http)
    try:
        return job_report(ref, fetched, matcher, progress, config.inputs.budget())
    finally:
        fetched.cleanup()
