"""Ray: a job submitted through the Ray Jobs API, by submission id, from the dashboard's REST API.

    GET {address}/api/jobs/{id}        JobDetails: status, message, entrypoint, start/end (ms), driver_exit_code
    GET {address}/api/jobs/{id}/logs   {"logs": "..."}: the entrypoint's (driver's) whole output

Unknown ids answer 404 ("Job ... does not exist"). The logs come whole in one JSON string; only the
newest bytes of the budget are written.
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timezone
from urllib.parse import quote

import httpx

from bot.config import RayCluster
from bot.fetch.base import (Budget, FetchedLog, FetchError, FetchResult, JobFacts, JobRef, new_workdir,
                            write_tail_of_stream)

TERMINAL = {"STOPPED", "SUCCEEDED", "FAILED"}
STATUS_LOG = "ray-job-message.log"


class _Ray:
    def __init__(self, client: httpx.Client, address: str, token: str | None, budget: Budget, cluster: str):
        self.client = client
        self.base = address.rstrip("/")
        self.headers = {"Accept": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.budget = budget
        self.cluster = cluster

    def get(self, path: str, what: str) -> httpx.Response:
        self.budget.check_time(what)
        left = self.budget.time_left()
        try:
            return self.client.get(self.base + path, headers=self.headers,
                                   timeout=httpx.Timeout(left, connect=min(10.0, left)))
        except httpx.TimeoutException as exc:
            raise FetchError("timeout", f"the Ray dashboard at {self.base} did not answer in time while {what} "
                                        f"({type(exc).__name__}); the head node is slow or overloaded. Try again, "
                                        "or diagnose the log files directly.") from None
        except httpx.HTTPError as exc:
            raise FetchError("unreachable", f"cannot reach the Ray dashboard at {self.base} while {what}: "
                                            f"{exc or type(exc).__name__} (is the head node up, and is the "
                                            "dashboard port 8265 reachable from the bot?)") from None

    def error(self, resp: httpx.Response, what: str, job_id: str) -> FetchError:
        code, message = resp.status_code, _message(resp)
        detail = f" ({message})" if message else ""
        if code == 404:
            return FetchError("unknown_job", f"Ray cluster {self.cluster!r} has no job {job_id!r}{detail}: check the "
                                             "submission id (`ray job list`)")
        if code == 401:
            return FetchError("permission", f"the Ray dashboard at {self.base} rejected the bot's token while {what} "
                                            f"(401 Unauthorized{detail}): the token is expired or wrong")
        if code == 403:
            return FetchError("permission", f"the Ray dashboard at {self.base} refused {what} (403 Forbidden{detail}): "
                                            "the bot's token is not allowed to read jobs")
        if code >= 500:
            return FetchError("unreachable", f"the Ray dashboard at {self.base} answered {code} while {what}{detail}; "
                                             "it may be overloaded or restarting, try again")
        return FetchError("unreachable", f"the Ray dashboard at {self.base} answered {code} while {what}{detail}")


def _message(resp: httpx.Response) -> str:
    try:
        data = resp.json()
        if isinstance(data, dict):
            for key in ("detail", "message", "msg"):
                if data.get(key):
                    return str(data[key])[:300]
    except ValueError:
        pass
    return resp.text.strip().splitlines()[-1][:300] if resp.text.strip() else ""


def _ms(value) -> datetime | None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
        return None
    return datetime.fromtimestamp(value / 1000, timezone.utc)


def _iso(dt: datetime | None) -> str | None:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def _elapsed(seconds: float) -> str:
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return (f"{days}-" if days else "") + f"{h:02d}:{m:02d}:{s:02d}"


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
    if info.get("error_type"):
        facts.reason = str(info["error_type"]) + (f": {first[:200]}" if first else "")
    elif status in ("FAILED", "STOPPED") and first:
        facts.reason = first[:200]
    if info.get("entrypoint"):
        notes.append(f"entrypoint: {str(info['entrypoint'])[:500]}")
    if first and status not in ("FAILED", "STOPPED"):
        notes.append(f"Ray: {first[:300]}")
    driver = info.get("driver_info") or {}
    node = driver.get("node_ip_address") or info.get("driver_node_id")
    if node:
        facts.nodes = [str(node)]
    start, end = _ms(info.get("start_time")), _ms(info.get("end_time"))
    facts.start, facts.end = _iso(start), _iso(end)
    if start:
        facts.elapsed = _elapsed(((end or datetime.now(timezone.utc)) - start).total_seconds())
    if info.get("user"):
        facts.user = str(info["user"])
    return facts, notes


def _token(cluster: RayCluster, name: str) -> str | None:
    if not cluster.token_env:
        return None
    token = os.environ.get(cluster.token_env, "").strip()
    if not token:
        raise FetchError("not_configured", f"cluster {name!r}: the environment variable {cluster.token_env} "
                                           "(token_env) that should hold the Ray dashboard token is not set")
    return token


def fetch_ray(ref: JobRef, cluster: RayCluster, budget: Budget, http: httpx.Client | None = None) -> FetchResult:
    client = http or httpx.Client(follow_redirects=False, timeout=httpx.Timeout(budget.time_left(),
                                                                                connect=min(10.0, budget.time_left())))
    ray = _Ray(client, cluster.address, _token(cluster, ref.cluster), budget, ref.cluster)
    try:
        return _fetch(ray, ref, budget)
    finally:
        if http is None:
            client.close()


def _fetch(ray: _Ray, ref: JobRef, budget: Budget) -> FetchResult:
    job_id = ref.job_id
    path = f"/api/jobs/{quote(job_id, safe='')}"
    what = f"reading Ray job {job_id}"
    resp = ray.get(path, what)
    if resp.status_code != 200:
        raise ray.error(resp, what, job_id)
    try:
        info = resp.json()
    except ValueError:
        raise FetchError("unreachable", f"the Ray dashboard at {ray.base} answered {what} with something that is "
                                        "not JSON (a proxy or login page?)") from None
    if not isinstance(info, dict) or "status" not in info:
        detail = info.get("detail") if isinstance(info, dict) else None
        if detail:
            raise FetchError("unknown_job", f"Ray cluster {ray.cluster!r} has no job {job_id!r} ({str(detail)[:300]}): "
                                            "check the submission id (`ray job list`)")
        raise FetchError("unreachable", f"the Ray dashboard at {ray.base} answered {what} with JSON that is not a "
                                        "job's details")
    facts, notes = job_facts(job_id, info)
    if facts.state == "PENDING":
        message = str(info.get("message") or "").strip()
        raise FetchError("pending", f"Ray job {job_id} is PENDING: it has not started, so there is no log to diagnose"
                                    + (f" (Ray says: {message.splitlines()[0][:300]})" if message else "")
                                    + ". Waiting for resources or for its runtime environment to install.")

    workdir = new_workdir()
    try:
        logs = _fetch_logs(ray, path, job_id, info, budget, workdir, notes)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    return FetchResult(ref.cluster, facts, logs, notes, workdir)


def _fetch_logs(ray: _Ray, path: str, job_id: str, info: dict, budget: Budget, workdir, notes: list[str]
                ) -> list[FetchedLog]:
    what = f"reading the logs of Ray job {job_id}"
    resp = ray.get(path + "/logs", what)
    text = None
    if resp.status_code == 200:
        try:
            body = resp.json()
            text = body.get("logs") if isinstance(body, dict) else None
        except ValueError:
            text = None
        if not isinstance(text, str):
            notes.append("the Ray dashboard answered the logs request without a `logs` string")
            text = None
    elif resp.status_code in (400, 404) or (resp.status_code >= 500 and info.get("status") in TERMINAL):
        # driver jobs have no submission logs (400); a finished job's agent may be gone (500)
        notes.append(f"no driver log from Ray ({resp.status_code}: {_message(resp)[:200]})")
    else:
        raise ray.error(resp, what, job_id)

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
            kept, original = write_tail_of_stream([(message + "\n").encode("utf-8", "replace")], dest,
                                                  budget.remaining)
            budget.used += kept
            logs.append(FetchedLog(f"ray/{job_id}/{STATUS_LOG}", dest, kept, original, kept < original))
    return logs
