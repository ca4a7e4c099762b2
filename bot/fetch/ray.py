"""Ray: a job submitted through the Ray Jobs API, by submission id, from the dashboard's REST API.

    GET {address}/api/jobs/{id}        JobDetails: status, message, entrypoint, start/end (ms), driver_exit_code
    GET {address}/api/jobs/{id}/logs   {"logs": "..."}: the entrypoint's (driver's) whole output

Unknown ids answer 404 ("Job ... does not exist"). The logs come whole in one JSON string; only the
newest bytes of the budget are written. Shapes as Ray 2.60 serves them (tests/test_ray_live.py runs a real
head): an entrypoint that never calls ray.init has `driver_info` and `job_id` null, its node is only in
`driver_agent_http_address`; a failed entrypoint's `error_type` is JOB_ENTRYPOINT_COMMAND_ERROR and its message
is one line then the log's tail; a head with token authentication answers 401 without a token, 403 to a
wrong one.
"""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from urllib.parse import quote, urlsplit

import httpx

from bot.config import RayCluster
from bot.fetch.base import (
    Budget,
    FetchedLog,
    FetchResult,
    JobFacts,
    JobRef,
    elapsed,
    new_workdir,
    utc_iso,
    write_tail_of_stream,
)
from bot.fetch.errors import FetchError, NotConfigured, NotFound, Pending, UnknownJob, Unreachable
from bot.fetch.http import JsonApi, bearer, error_detail

TERMINAL = {"STOPPED", "SUCCEEDED", "FAILED"}
STATUS_LOG = "ray-job-message.log"
ADVICE: dict[int | str, str] = {
    401: "the bot's token is expired or wrong",
    403: "the token in token_env is not this cluster's (Ray refuses a wrong token with 403)",
    "timeout": "the head node is slow or overloaded.",
    "unreachable": "is the head node up, and is the dashboard port 8265 reachable from the bot?",
}
# a dashboard with token authentication (RAY_AUTH_MODE=token) answers 401 to a request that carries no token
NO_TOKEN_401 = "the dashboard wants a token: name the environment variable that holds it in token_env"
# the status message of a failed entrypoint: this clause, then the log's tail (which is in the driver log too)
LOG_TAIL_CLAUSE = ", last available logs"


def _ms(value) -> datetime | None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
        return None
    return datetime.fromtimestamp(value / 1000, UTC)


def job_facts(job_id: str, info: dict) -> tuple[JobFacts, list[str]]:
    """Facts from a JobDetails body."""
    notes = []
    status = str(info.get("status") or "UNKNOWN")
    facts = JobFacts(job_id=info.get("submission_id") or job_id, state=status)
    metadata = info.get("metadata") or {}
    facts.name = metadata.get("job_name") or metadata.get("name") or info.get("job_id") or None
    if info.get("driver_exit_code") is not None:
        facts.exit_code = str(info["driver_exit_code"])
    message = str(info.get("message") or "").strip()
    first = message.splitlines()[0].strip() if message else ""
    first = first.split(LOG_TAIL_CLAUSE, 1)[0]
    error_type = str(info.get("error_type") or "")
    if error_type and error_type != "JOB_ENTRYPOINT_COMMAND_ERROR":  # that one only repeats the message
        facts.reason = error_type + (f": {first[:200]}" if first else "")
    elif status in ("FAILED", "STOPPED") and first:
        facts.reason = first[:200]
    if info.get("entrypoint"):
        notes.append(f"entrypoint: {str(info['entrypoint'])[:500]}")
    if status == "RUNNING":
        notes.append("the job is still running: its log was read as it stands")
    elif first and status not in ("FAILED", "STOPPED"):
        notes.append(f"Ray: {first[:300]}")
    node = _driver_node(info)
    if node:
        facts.nodes = [node]
    start, end = _ms(info.get("start_time")), _ms(info.get("end_time"))
    facts.start, facts.end = utc_iso(start), utc_iso(end)
    if start:
        facts.elapsed = elapsed(((end or datetime.now(UTC)) - start).total_seconds())
    if info.get("user"):
        facts.user = str(info["user"])
    return facts, notes


def _driver_node(info: dict) -> str | None:
    """The driver's node: its IP when Ray knows one (a driver that never called ray.init has no driver_info,
    but the agent that ran it has an address), else Ray's node id."""
    driver = info.get("driver_info") or {}
    if driver.get("node_ip_address"):
        return str(driver["node_ip_address"])
    agent = info.get("driver_agent_http_address")
    if isinstance(agent, str) and agent:
        try:
            host = urlsplit(agent).hostname
        except ValueError:
            host = None
        if host:
            return host
    return str(info["driver_node_id"]) if info.get("driver_node_id") else None


def _token(cluster: RayCluster, name: str) -> str | None:
    if not cluster.token_env:
        return None
    token = os.environ.get(cluster.token_env, "").strip()
    if not token:
        raise NotConfigured(
            f"cluster {name!r}: the environment variable {cluster.token_env} "
            "(token_env) that should hold the Ray dashboard token is not set"
        )
    return token


def fetch_ray(ref: JobRef, cluster: RayCluster, budget: Budget, http: httpx.Client | None = None) -> FetchResult:
    token = _token(cluster, ref.cluster)
    client = http or httpx.Client(follow_redirects=False)
    api = JsonApi(
        client,
        cluster.address,
        budget,
        service="the Ray dashboard",
        cluster=ref.cluster,
        headers=bearer(token),
        advice=ADVICE if token else {**ADVICE, 401: NO_TOKEN_401},
    )
    try:
        return _fetch(api, ref, budget)
    finally:
        if http is None:
            client.close()


def _unknown(api: JsonApi, job_id: str, detail: str) -> UnknownJob:
    said = f" ({detail[:300]})" if detail else ""
    return UnknownJob(
        f"Ray cluster {api.cluster!r} has no job {job_id!r}{said}: check the submission id (`ray job list`)"
    )


def _fetch(api: JsonApi, ref: JobRef, budget: Budget) -> FetchResult:
    job_id = ref.job_id
    path = f"/api/jobs/{quote(job_id, safe='')}"
    what = f"reading Ray job {job_id}"
    try:
        info = api.get_json(path, what=what)
    except NotFound as exc:
        raise _unknown(api, job_id, exc.detail) from None
    if "status" not in info:
        if info.get("detail"):
            raise _unknown(api, job_id, str(info["detail"]))
        raise Unreachable(f"{api.where} answered {what} with JSON that is not a job's details")
    facts, notes = job_facts(job_id, info)
    if facts.state == "PENDING":
        message = str(info.get("message") or "").strip()
        raise Pending(
            f"Ray job {job_id} is PENDING: it has not started, so there is no log to diagnose"
            + (f" (Ray says: {message.splitlines()[0][:300]})" if message else "")
            + ". Waiting for resources or for its runtime environment to install."
        )

    workdir = new_workdir()
    try:
        logs = _fetch_logs(api, path, job_id, info, budget, workdir, notes)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    return FetchResult(ref.cluster, facts, logs, notes, workdir)


def _fetch_logs(
    api: JsonApi, path: str, job_id: str, info: dict, budget: Budget, workdir, notes: list[str]
) -> list[FetchedLog]:
    what = f"reading the logs of Ray job {job_id}"
    resp = api.request("GET", path + "/logs", what=what)
    text = None
    if resp.status_code == 200:
        try:
            text = api.json_body(resp, what).get("logs")
        except FetchError:
            text = None
        if not isinstance(text, str):
            notes.append("the Ray dashboard answered the logs request without a `logs` string")
            text = None
    elif resp.status_code in (400, 404) or (resp.status_code >= 500 and info.get("status") in TERMINAL):
        # driver jobs have no submission logs (400); a finished job's agent may be gone (500)
        notes.append(f"no driver log from Ray ({resp.status_code}: {error_detail(resp)[:200]})")
    else:
        raise api.status_error(resp, what)

    logs = []
    if text:
        data = text.encode("utf-8", "replace")
        keep = budget.remaining
        if keep <= 0:
            notes.append("skipped the driver log: the byte budget is used up")
        else:
            dest = workdir / "driver.log"
            kept, original = write_tail_of_stream([data], dest, keep)
            budget.used += kept
            logs.append(FetchedLog(f"ray/{job_id}/driver.log", dest, kept, original, kept < original))
    else:
        if text is not None:
            notes.append("the Ray job's driver log is empty")
        message = str(info.get("message") or "").strip()
        if message and budget.remaining > 0:
            # with no driver log, the status message (which carries the last lines of output on failure) is the evidence
            dest = workdir / STATUS_LOG
            kept, original = write_tail_of_stream([(message + "\n").encode("utf-8", "replace")], dest, budget.remaining)
            budget.used += kept
            logs.append(FetchedLog(f"ray/{job_id}/{STATUS_LOG}", dest, kept, original, kept < original))
    return logs
