"""Slurm: job facts from scontrol (or sacct, or slurmrestd), logs from StdOut/StdErr and per-rank templates.

Commands run through an injected runner with argument lists (never a shell);
the job id has been validated before it gets here.
"""

from __future__ import annotations

import glob
import logging
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.config import SlurmCluster, seconds
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
from bot.fetch.errors import (
    FetchError,
    FetchTimeout,
    InvalidJobId,
    LogMissing,
    NotConfigured,
    NotFound,
    Pending,
    UnknownJob,
    Unreachable,
)

log = logging.getLogger("denpex.fetch")
_KEY = re.compile(r"(?:^|(?<=\s))([A-Za-z][A-Za-z0-9_/:]*)=")
_PATTERN = re.compile(r"%(\d*)([%AajJxNutsn])")
SACCT_FIELDS = "JobID,JobName,State,ExitCode,NodeList,Start,End,Elapsed,User,WorkDir,Reason"


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str


Runner = Callable[[list[str], float], Completed]


def run_command(args: list[str], timeout: float) -> Completed:
    try:
        proc = subprocess.run(
            args,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "LC_ALL": "C", "SLURM_TIME_FORMAT": "standard"},
        )
    except FileNotFoundError:
        raise Unreachable(
            f"`{args[0]}` is not installed here: run denpex on a Slurm login node, "
            "or configure slurmrestd (restd_url) for this cluster"
        ) from None
    except subprocess.TimeoutExpired:
        raise FetchTimeout(
            f"`{' '.join(args[:3])}` did not answer within {timeout:.0f}s: the Slurm controller is slow or unreachable"
        ) from None
    return Completed(proc.returncode, proc.stdout, proc.stderr)


def parse_scontrol_line(line: str) -> dict[str, str]:
    """`scontrol show job -o` prints KEY=value pairs; values may contain spaces (Command, Comment)."""
    keys = list(_KEY.finditer(line))
    out = {}
    for i, m in enumerate(keys):
        end = keys[i + 1].start() if i + 1 < len(keys) else len(line)
        out[m.group(1)] = line[m.end() : end].strip()
    return out


def expand_pattern(path: str, job: dict[str, str]) -> str:
    """Slurm's filename patterns (sbatch --output): %j %J %x %A %a %N %u %t %s %n %%; per-task ones become globs."""
    values = {
        "j": job.get("JobId", ""),
        "J": job.get("JobId", ""),
        "x": job.get("JobName", ""),
        "A": job.get("ArrayJobId") or job.get("JobId", ""),
        "a": job.get("ArrayTaskId") or "4294967294",
        "N": (job.get("BatchHost") or job.get("NodeList") or "").split(",")[0],
        "u": (job.get("UserId") or "").split("(")[0],
        "%": "%",
    }

    def sub(m: re.Match) -> str:
        width, code = m.group(1), m.group(2)
        if code in ("t", "s", "n"):  # per task / step / node id: every one of them
            return "*"
        value = values[code]
        return value.zfill(int(width)) if width and value.isdigit() else value

    return _PATTERN.sub(sub, path)


STATUS_LOG = "slurm-status.log"


def _job_facts(job: dict[str, str], job_id: str) -> JobFacts:
    nodes = job.get("NodeList") or ""
    return JobFacts(
        job_id=job_id,
        name=job.get("JobName"),
        state=job.get("JobState"),
        exit_code=job.get("ExitCode"),
        reason=job.get("Reason"),
        nodes=[nodes] if nodes and nodes != "(null)" else [],
        start=_time(job.get("StartTime")),
        end=_time(job.get("EndTime")),
        elapsed=job.get("RunTime"),
        user=(job.get("UserId") or "").split("(")[0] or None,
        workdir=job.get("WorkDir"),
    )


def _time(value: str | None) -> str | None:
    return None if not value or value in ("Unknown", "None", "N/A") else value


def _scontrol(ref: JobRef, cluster: SlurmCluster, budget: Budget, run: Runner) -> list[dict[str, str]] | None:
    done = run([cluster.scontrol, "show", "job", "-o", ref.job_id], budget.time_left())
    text = (done.stdout + done.stderr).strip()
    if done.returncode == 0 and "JobId=" in done.stdout:
        return [parse_scontrol_line(line) for line in done.stdout.splitlines() if "JobId=" in line]
    if "Invalid job id" in text:
        return None  # not (or no longer) known to the controller: ask accounting
    if "Unable to contact" in text or "Connection refused" in text or "connect failure" in text.lower():
        raise Unreachable(f"the Slurm controller did not answer `scontrol show job`: {text[:300]}")
    raise Unreachable(f"`scontrol show job {ref.job_id}` failed: {text[:300] or done.returncode}")


def _sacct(ref: JobRef, cluster: SlurmCluster, budget: Budget, run: Runner) -> list[dict[str, str]] | None:
    try:
        done = run([cluster.sacct, "-j", ref.job_id, "-X", "-n", "-P", "-o", SACCT_FIELDS], budget.time_left())
    except FetchTimeout:  # accounting is slow, not silent about the job: say so, not "unknown job"
        raise
    except FetchError as exc:
        log.info("sacct cannot help with job %s: %s", ref.job_id, exc)
        return None
    if done.returncode != 0 or not done.stdout.strip():
        return None
    names = SACCT_FIELDS.split(",")
    rows = []
    for line in done.stdout.strip().splitlines():
        # -P separates fields with "|" and does not escape one inside a field: a "|" in a job name or work
        # dir shifts the columns after it (a known gap, not fixed here; extra fields are dropped)
        row = dict(zip(names, line.split("|"), strict=False))
        task = row["JobID"].split("_", 1)
        rows.append(
            {
                "JobId": row["JobID"],
                "JobName": row["JobName"],
                "JobState": row["State"].split()[0],
                "ExitCode": row["ExitCode"],
                "NodeList": row["NodeList"],
                "StartTime": row["Start"],
                "EndTime": row["End"],
                "RunTime": row["Elapsed"],
                "UserId": row["User"],
                "WorkDir": row["WorkDir"],
                "Reason": row["Reason"],
                "ArrayJobId": task[0] if len(task) == 2 else "",
                "ArrayTaskId": task[1] if len(task) == 2 else "",
            }
        )
    return rows


def _restd(ref: JobRef, cluster: SlurmCluster, budget: Budget, http) -> list[dict[str, str]]:
    """The job from slurmrestd's `GET /slurm/{version}/job/{id}`; [] when it does not know the job."""
    import httpx  # only clusters with slurmrestd need it

    from bot.fetch.http import JsonApi

    token = os.environ.get(cluster.restd_token_env, "")
    headers = {"X-SLURM-USER-TOKEN": token} if token else {}
    if cluster.restd_user:
        headers["X-SLURM-USER-NAME"] = cluster.restd_user
    client = http or httpx.Client(
        transport=httpx.HTTPTransport(uds=cluster.restd_socket) if cluster.restd_socket else None
    )
    api = JsonApi(
        client,
        cluster.restd_url or "http://localhost",
        budget,
        service="slurmrestd",
        cluster=ref.cluster,
        headers=headers,
        location=f"{cluster.restd_socket} (unix socket)" if cluster.restd_socket else None,
        advice={
            401: f"check the JWT in ${cluster.restd_token_env}",
            403: f"check the JWT in ${cluster.restd_token_env} and the user it may act for",
            "timeout": "slurmrestd or the controller behind it is slow.",
            "unreachable": "is slurmrestd running, at restd_url or restd_socket?",
        },
    )
    try:
        data = api.get_json(f"/slurm/{cluster.restd_version}/job/{ref.job_id}", what=f"reading job {ref.job_id}")
    except NotFound:
        return []
    except Unreachable as exc:
        if "Invalid job id" in exc.detail:  # some versions answer 500 for a job the controller does not know
            return []
        raise
    finally:
        if http is None:
            client.close()
    return [_restd_row(job) for job in data.get("jobs") or [] if isinstance(job, dict)]


def _restd_row(job: dict) -> dict[str, str]:
    """A slurmrestd job in scontrol's keys."""
    exit_code = job.get("exit_code")
    if isinstance(exit_code, dict):
        exit_code = exit_code.get("return_code", exit_code)
    state = job.get("job_state")
    return {
        "JobId": str(job.get("job_id")),
        "JobName": job.get("name", ""),
        "JobState": state[0] if isinstance(state, list) else str(state or ""),
        "ExitCode": str(exit_code),
        "NodeList": job.get("nodes", ""),
        "WorkDir": job.get("current_working_directory", ""),
        "StdOut": job.get("standard_output", ""),
        "StdErr": job.get("standard_error", ""),
        "UserId": job.get("user_name", ""),
        "Reason": job.get("state_reason", ""),
        "StartTime": str(job.get("start_time", "")),
        "EndTime": str(job.get("end_time", "")),
        "ArrayJobId": str(job.get("array_job_id") or ""),
        "ArrayTaskId": str(job.get("array_task_id") or ""),
    }


def _log_paths(job: dict[str, str], cluster: SlurmCluster, ref: JobRef) -> list[tuple[str, Path]]:
    workdir = job.get("WorkDir") or ""
    found: list[tuple[str, Path]] = []
    outputs = [job.get("StdOut"), job.get("StdErr")]
    if not any(outputs):  # accounting does not record them: Slurm's default name in the working directory
        array = job.get("ArrayTaskId")
        default = f"slurm-{job.get('ArrayJobId')}_{array}.out" if array else f"slurm-{job.get('JobId')}.out"
        outputs = [os.path.join(workdir, default)]
    for raw in outputs:
        if not raw or raw in ("/dev/null", "(null)"):
            continue
        pattern = expand_pattern(raw, job)
        if not os.path.isabs(pattern):
            pattern = os.path.join(workdir, pattern)
        for hit in sorted(glob.glob(pattern)) or [pattern]:
            found.append((os.path.basename(hit), Path(hit)))
    fields = {
        "job_id": ref.job_id.split("_")[0],
        "array_job_id": job.get("ArrayJobId") or job.get("JobId", ""),
        "array_task_id": job.get("ArrayTaskId", ""),
        "workdir": workdir,
        "name": job.get("JobName", ""),
        "user": (job.get("UserId") or "").split("(")[0],
    }
    for template in cluster.log_templates:
        try:
            pattern = template.format(**fields)
        except (KeyError, IndexError):
            raise NotConfigured(
                f"log template {template!r} uses an unknown field; available: {', '.join(fields)}"
            ) from None
        for hit in sorted(glob.glob(pattern)):
            found.append((os.path.relpath(hit, workdir) if workdir and hit.startswith(workdir) else hit, Path(hit)))
    unique: list[tuple[str, Path]] = []
    seen: set[str] = set()
    for name, path in found:
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            unique.append((name, path))
    return unique


def _is_job(job: dict[str, str], job_id: str) -> bool:
    """Is this scontrol/sacct/slurmrestd row the job asked for (or one of its array tasks or het components)?"""
    base, _, task = job_id.partition("_")
    own = job.get("JobId", "")
    if task:
        return own == job_id or (job.get("ArrayJobId") == base and job.get("ArrayTaskId") == task)
    return own == base or own.startswith(base + "_") or job.get("ArrayJobId") == base or job.get("HetJobId") == base


def _jobs(ref: JobRef, cluster: SlurmCluster, budget: Budget, run: Runner, http) -> list[dict[str, str]]:
    """The scheduler's rows for the job (its array tasks or het components), checked to be that job's only."""
    jobs: list[dict[str, str]]
    if cluster.restd_url or cluster.restd_socket:
        jobs = _restd(ref, cluster, budget, http)
    else:
        known = _scontrol(ref, cluster, budget, run)
        jobs = known if known is not None else _sacct(ref, cluster, budget, run) or []
    strangers = [j.get("JobId", "?") for j in jobs if not _is_job(j, ref.job_id)]
    if strangers:  # `scontrol show job 0` lists every job: never diagnose other people's jobs as this one
        raise InvalidJobId(
            f"Slurm answered for job {ref.job_id} with other jobs too "
            f"({', '.join(strangers[:5])}): refusing to read their logs"
        )
    if not jobs:
        raise UnknownJob(
            f"Slurm does not know job {ref.job_id} on cluster {ref.cluster!r} (finished "
            "jobs leave scontrol after MinJobAge; without accounting sacct cannot help)"
        )
    return jobs


def slurm_status(
    ref: JobRef, cluster: SlurmCluster, budget: Budget, runner: Runner | None = None, http=None
) -> tuple[JobFacts, list[Path]]:
    """What a watch needs of a job: its facts (state first) and the paths of its logs as they grow on the
    shared filesystem, existing or not yet (a pending job has none yet)."""
    jobs = _jobs(ref, cluster, budget, runner or run_command, http)
    facts = _job_facts(jobs[0], ref.job_id)
    if len(jobs) > 1:
        facts.state = "/".join(sorted({j.get("JobState", "") for j in jobs}))
    paths = [path for job in jobs if job.get("JobState") != "PENDING" for _, path in _log_paths(job, cluster, ref)]
    return facts, paths


def fetch_slurm(
    ref: JobRef, cluster: SlurmCluster, budget: Budget, runner: Runner | None = None, http=None
) -> FetchResult:
    run = runner or run_command
    jobs = _jobs(ref, cluster, budget, run, http)
    budget.check_time(f"job {ref.job_id}")
    main = jobs[0]
    facts = _job_facts(main, ref.job_id)
    if len(jobs) > 1:
        facts.array_tasks = [j.get("ArrayTaskId", "") for j in jobs if j.get("ArrayTaskId")]
        states = sorted({j.get("JobState", "") for j in jobs})
        facts.state = "/".join(states)
    if all(j.get("JobState") == "PENDING" for j in jobs):
        raise Pending(
            f"job {ref.job_id} is still pending (Reason={main.get('Reason', '?')}): it has "
            "no log yet. Ask again once it has started."
        )
    candidates: list[tuple[str, Path]] = []
    for job in jobs:
        if job.get("JobState") == "PENDING":
            continue
        prefix = f"task{job['ArrayTaskId']}/" if len(jobs) > 1 and job.get("ArrayTaskId") else ""
        candidates += [(prefix + name, path) for name, path in _log_paths(job, cluster, ref)]
    existing, notes = [], []
    for name, path in candidates:
        if path.is_file() and os.access(path, os.R_OK):
            existing.append((name, path))
        elif path.exists():
            notes.append(f"{path} is not readable by denpex")
        else:
            notes.append(f"{path} does not exist on this machine")
    if not existing:
        raise LogMissing(
            f"job {ref.job_id} is {facts.state}, but none of its logs can be read here: "
            + "; ".join(notes[:4])
            + ". Logs on a node-local disk need a log_templates "
            "entry pointing at the shared filesystem."
        )
    workdir = new_workdir()
    sizes = [path.stat().st_size for _, path in existing]
    logs: list[FetchedLog] = []
    try:
        for (name, path), share in zip(existing, fair_shares(sizes, budget.remaining), strict=True):
            budget.check_time(str(path))
            dest = workdir / f"{len(logs):03d}_{Path(name).name}"
            kept, original = copy_tail_of_file(path, dest, share)
            budget.used += kept
            logs.append(FetchedLog(name, dest, kept, original, kept < original))
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    truncated = [log.name for log in logs if log.truncated]
    if truncated:
        notes.append(
            f"kept the newest {budget.max_bytes / 1e9:.1f} GB in all: {', '.join(truncated[:4])} truncated at the start"
        )
    if main.get("JobState") in ("RUNNING", "COMPLETING"):
        notes.append("the job is still running: its logs were read as they stand")
        if main.get("JobState") == "RUNNING":
            status = _silence(facts, [path for _, path in existing], seconds(cluster.silent_after), workdir)
            if status:
                logs.append(status)
    return FetchResult(ref.cluster, facts, logs, notes, workdir)


def _silence(facts: JobFacts, paths: list[Path], silent_after: float, workdir: Path) -> FetchedLog | None:
    """A status line when a running job's logs have all been quiet for `silent_after` seconds.

    Read by the matcher like any log (the slurm.running_job_silent signature): a job that is RUNNING
    but has stopped writing is hung, and the answer says so instead of "healthy"."""
    now = time.time()
    times = []
    for path in paths:
        try:
            times.append(path.stat().st_mtime)
        except OSError:  # rotated or deleted since it was copied
            continue
    if not times:
        return None
    newest = max(times)
    started = _local_time(facts.start)
    if started is not None:  # a requeued job appending to its old log: quiet only since it (re)started
        newest = max(newest, started)
    quiet = now - newest
    if quiet < silent_after:
        return None
    stamp = datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    last = datetime.fromtimestamp(newest, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    where = f" on {','.join(facts.nodes)}" if facts.nodes else ""
    line = (
        f"{stamp} denpex: slurm job {facts.job_id} is RUNNING{where} (run time {facts.elapsed or '?'}) but none of "
        f"its {len(paths)} log file(s) has been written for {_minutes(quiet)} (last write {last})\n"
    )
    dest = workdir / STATUS_LOG
    dest.write_text(line)
    size = len(line.encode())
    return FetchedLog(STATUS_LOG, dest, size, size, False)


def _local_time(value: str | None) -> float | None:
    """Slurm's StartTime ("2026-12-02T14:00:00", the controller's local time) as epoch seconds."""
    try:
        return datetime.fromisoformat(value).timestamp() if value else None
    except ValueError:
        return None


def _minutes(secs: float) -> str:
    minutes = int(secs // 60)
    return f"{minutes // 60}h{minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m{int(secs % 60):02d}s"


def ended_jobs(
    cluster: SlurmCluster, states: set[str], runner: Runner | None = None, timeout: float = 60
) -> list[dict[str, Any]]:
    """The jobs the controller still knows (`scontrol show job -o`: finished ones for MinJobAge) that ended
    in one of `states`: JobId, JobName, Partition, Account, user, JobState, and EndTime as epoch seconds."""
    done = (runner or run_command)([cluster.scontrol, "show", "job", "-o"], timeout)
    text = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        if "No jobs in the system" in text:
            return []
        raise Unreachable(f"`scontrol show job -o` failed: {text[:300] or done.returncode}")
    jobs: list[dict[str, Any]] = []
    for line in done.stdout.splitlines():
        if "JobId=" not in line:
            continue
        job = parse_scontrol_line(line)
        if job.get("JobState") in states:
            user = (job.get("UserId") or "").split("(")[0]
            jobs.append({**job, "user": user, "end": _local_time(job.get("EndTime"))})
    return jobs


def previous_good(
    cluster: SlurmCluster, facts: JobFacts, runner: Runner | None = None, timeout: float = 30
) -> str | None:
    """The latest COMPLETED run of the same job name by the same user that ended before this job started: from
    accounting (`sacct --name --user --state COMPLETED`, the last 30 days) when there is one, else among the
    jobs the controller still remembers (`scontrol show job -o`, for MinJobAge). None when there is none."""
    if not facts.name or not facts.user:
        return None
    run = runner or run_command
    start = _local_time(facts.start) or float("inf")
    found: list[tuple[float, str]] = []
    try:
        done = run(
            [cluster.sacct, "-n", "-P", "-X", "--name", facts.name, "--user", facts.user, "--state", "COMPLETED",
             "--starttime", "now-30days", "-o", "JobID,End"],
            timeout,
        )  # fmt: skip
        if done.returncode == 0:
            for line in done.stdout.strip().splitlines():
                job_id, _, end = line.partition("|")
                ended = _local_time(end)
                if job_id and ended is not None and ended <= start and job_id != facts.job_id:
                    found.append((ended, job_id))
    except FetchError as exc:
        log.info("sacct cannot name an earlier run of %s: %s", facts.name, exc)
    if not found:
        done = run([cluster.scontrol, "show", "job", "-o"], timeout)
        for line in done.stdout.splitlines() if done.returncode == 0 else ():
            job = parse_scontrol_line(line)
            user = (job.get("UserId") or "").split("(")[0]
            ended = _local_time(job.get("EndTime"))
            if (
                job.get("JobName") == facts.name
                and user == facts.user
                and job.get("JobState") == "COMPLETED"
                and not job.get("ArrayTaskId")
                and ended is not None
                and ended <= start
                and job.get("JobId") != facts.job_id
            ):
                found.append((ended, job["JobId"]))
    return max(found)[1] if found else None
