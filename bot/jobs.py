"""Diagnosing a job by reference: fetch its logs and facts, scan them as one job, attach the facts."""

from __future__ import annotations

import re
from collections.abc import Callable

import signatures
from bot.config import AUTO_STATES, Config
from bot.fetch import FetchError, FetchResult, JobFacts, JobRef, fetch_job, parse_job_ref, previous_good_run


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
    update: dict = {"job": job}
    if report.outcome == "healthy" and failed_by_scheduler(fetched.facts):
        update.update(scheduler_failure(ref, fetched.facts))
    return report.model_copy(update=update)


# A job the scheduler records as failed is never answered "no failure found", whatever its logs say (issue 11:
# "a non-zero exit makes it a failure"): killed from outside, its node lost, or its output written elsewhere,
# the logs fetched can be silent. States: Slurm's failed ones (the auto-diagnosis default), which also name
# Kubernetes' "Failed" phase and Ray's FAILED status once upper-cased, and a Job's FailureTarget condition.
FAILED_STATES = frozenset(AUTO_STATES) | {"FAILURETARGET"}
# what the scheduler's own words say the failure was: a class hint, stated as the scheduler's, not the logs'
SCHEDULER_HINTS = [
    (re.compile(r"(?i)OUT_OF_MEMORY|OOMKilled"), "memory", "host_oom_killed"),
    (re.compile(r"(?i)TIMEOUT|DEADLINE|DeadlineExceeded"), "scheduler", "slurm_time_limit"),
    (re.compile(r"(?i)NODE_FAIL|BOOT_FAIL|NodeLost|NodeShutdown"), "scheduler", "node_failure"),
    (re.compile(r"(?i)PREEMPT"), "scheduler", "preemption_sigterm"),
]


def failed_by_scheduler(facts: JobFacts) -> bool:
    """The scheduler's record says the job failed: a failed state, or a non-zero exit (Slurm's `code:signal`)."""
    words = (facts.state or "").split("/")[0].split()
    if words and words[0].upper() in FAILED_STATES:
        return True
    code = (facts.exit_code or "").strip()
    return bool(code) and any(part.strip() not in ("", "0") for part in code.split(":"))


def scheduler_failure(ref: JobRef, facts: JobFacts) -> dict:
    """A failed job whose logs name no failure: the scheduler's record is the one error line (an unrecognised
    failure, never "healthy"), with the class its state or reason names, if any."""
    line = signatures.LogLine(source=f"{ref.kind} {signatures.SCHEDULER_RECORD}", line=1, text=facts.line())
    said = " ".join(filter(None, [facts.state, facts.reason]))
    family, cls = next(((f, c) for words, f, c in SCHEDULER_HINTS if words.search(said)), (None, None))
    if cls is None and (facts.exit_code or "").strip() in ("137", "0:9", "9"):
        family, cls = "memory", "host_oom_killed"  # SIGKILL: most often an OOM kill (low confidence)
    hint = signatures.UnrecognisedHint(rank=None, first_error=line, family=family, class_=cls, confidence="low")
    return {"unrecognised": [signatures.RankLines(rank=None, lines=[line])], "unrecognised_hint": hint}


FINISHED = re.compile("|".join(signatures.COMPLETION_MARKERS))
FINISHED_TAIL = 64 << 10  # bytes read from the end of each log for a line saying training finished


def finished_line(fetched: FetchResult) -> str | None:
    """The last line of the fetched logs saying training finished (a completion message as the matcher knows
    them), read from the end of each plain-text log: what a job with no scheduler state has instead of
    COMPLETED."""
    for log in fetched.logs:
        try:
            with open(log.path, "rb") as fh:
                fh.seek(max(0, log.size - FINISHED_TAIL))
                tail = fh.read(FINISHED_TAIL).decode("utf-8", "replace")
        except OSError:
            continue
        found = [line.strip() for line in tail.splitlines() if FINISHED.search(line)]
        if found:
            return found[-1][:300]
    return None


def fetched_report(
    ref: JobRef,
    config: Config,
    matcher: signatures.Matcher | None = None,
    fetch: Callable[[JobRef, Config], FetchResult] = fetch_job,
) -> signatures.Report:
    """Fetch a job's logs, diagnose them as one job, and let the fetched files go (FetchError when it cannot be
    fetched): the whole job, for a watch's closing message or an unasked diagnosis."""
    fetched = fetch(ref, config)
    try:
        return job_report(ref, fetched, matcher, budget=config.inputs.budget())
    finally:
        fetched.cleanup()


def with_baseline(
    report: signatures.Report,
    ref: JobRef,
    fetched: FetchResult,
    config: Config,
    budget: signatures.Budget | None = None,
    *,
    runner=None,
    http=None,
) -> signatures.Report:
    """A failed job's report with what it printed that its last good run (the scheduler's last COMPLETED run of
    the same job, see previous_good_run) never did; the report as it was when there is no such run or it cannot
    be read (a note says why)."""
    if report.outcome == "healthy":
        return report
    good_ref = previous_good_run(ref, config, fetched.facts, runner=runner, http=http)
    if good_ref is None:
        return report
    budget = budget or signatures.Budget()
    try:
        good = fetch_job(good_ref, config, runner=runner, http=http)
    except FetchError as exc:
        note = f"no comparison with the last good run {good_ref.job_id}: {exc}"
        return report.model_copy(update={"notes": [*(report.notes or []), note]})
    try:
        named = [f"job {good_ref.job_id}: {log.name}" for log in good.logs]
        compared = signatures.compare_sources_with_baseline(
            report,
            (
                s
                for log, name in zip(good.logs, named, strict=True)
                for s in signatures.open_path(log.path, name, budget)
            ),
            (s for log in fetched.logs for s in signatures.open_path(log.path, log.name, budget)),
        )
    finally:
        good.cleanup()
    return compared


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
        report = job_report(ref, fetched, matcher, progress, config.inputs.budget())
        return with_baseline(report, ref, fetched, config, config.inputs.budget(), runner=runner, http=http)
    finally:
        fetched.cleanup()
