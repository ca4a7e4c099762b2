"""The Ray fetcher against a fake dashboard answering with the Jobs REST API's shapes (JobDetails, JobLogsResponse).

The REAL_* bodies are what a Ray 2.60 head answered (tests/test_ray_live.py runs one), addresses changed."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

import signatures
from bot.config import Config, RayCluster
from bot.fetch import fetch_job, parse_job_ref
from bot.fetch.base import Budget, FetchError, JobRef
from bot.fetch.ray import fetch_ray

ADDRESS = "http://ray-head.example.test:8265"
JOB = "raysubmit_Xy12AbCdEfGh34"
START_MS = 1796205481000  # 2026-12-02T09:58:01Z
END_MS = START_MS + 931_500

CUDA_OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
    "79.10 GiB of which 1.20 GiB is free. Of the allocated memory 74.10 GiB is allocated by PyTorch, and "
    "1.90 GiB is reserved by PyTorch but unallocated."
)


def job_details(status="SUCCEEDED", **kw) -> dict:
    """A JobDetails body as GET /api/jobs/{id} returns it."""
    body = {
        "type": "SUBMISSION",
        "job_id": "02000000",
        "submission_id": JOB,
        "driver_info": {"id": "02000000", "node_ip_address": "10.0.3.17", "pid": "4242"},
        "status": status,
        "entrypoint": "python train.py --config llama.yaml",
        "message": {
            "SUCCEEDED": "Job finished successfully.",
            "RUNNING": "Job is currently running.",
            "PENDING": "Job has not started yet. It may be waiting for resources (CPUs, GPUs, memory, custom "
            "resources) to become available. It may be waiting for the runtime environment to be "
            "set up.",
            "STOPPED": "Job was intentionally stopped.",
            "FAILED": "Job entrypoint command failed with exit code 1, last available logs (truncated to "
            "20,000 chars):\n" + CUDA_OOM,
        }[status],
        "error_type": None,
        "start_time": START_MS,
        "end_time": END_MS if status in ("SUCCEEDED", "FAILED", "STOPPED") else None,
        "metadata": {"job_name": "llama-sft"},
        "runtime_env": {"working_dir": "gcs://_ray_pkg_abc.zip"},
        "driver_agent_http_address": "http://10.0.3.17:52365",
        "driver_node_id": "b1f3c0ffee",
        "driver_exit_code": {"SUCCEEDED": 0, "FAILED": 1}.get(status),
    }
    body.update(kw)
    return body


class FakeDashboard:
    def __init__(self, details: dict | None, logs: str | None = "", logs_status: int = 200):
        self.details = details
        self.logs = logs
        self.logs_status = logs_status
        self.requests: list[httpx.Request] = []
        self.override: Callable[[httpx.Request], httpx.Response] | None = None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.override is not None:
            return self.override(request)
        if request.url.path == f"/api/jobs/{JOB}" and self.details is not None:
            return httpx.Response(200, json=self.details)
        if request.url.path == f"/api/jobs/{JOB}/logs" and self.details is not None:
            if self.logs_status != 200:
                return httpx.Response(
                    self.logs_status,
                    text="Traceback (most recent call last):\n  ...\n"
                    "aiohttp.client_exceptions.ClientConnectorError: "
                    "Cannot connect to host 10.0.3.17:52365",
                )
            return httpx.Response(200, json={"logs": self.logs})
        job = request.url.path.split("/")[3]
        return httpx.Response(404, text=f"Job {job} does not exist")


def fetch(dash: FakeDashboard, job=JOB, max_bytes=64 << 20, **kw):
    with httpx.Client(transport=httpx.MockTransport(dash)) as client:
        return fetch_ray(
            JobRef("ray", "ray", job, f"ray/{job}"),
            RayCluster(kind="ray", address=ADDRESS, **kw),
            Budget(max_bytes, 30.0),
            http=client,
        )


def diagnose(result) -> signatures.Report:
    return signatures.diagnose_sources(s for log in result.logs for s in signatures.open_path(log.path, log.name))


def test_succeeded_job_facts_and_log():
    dash = FakeDashboard(job_details("SUCCEEDED"), logs="epoch 1 loss 2.31\nepoch 2 loss 1.87\ndone\n")
    result = fetch(dash)
    try:
        f = result.facts
        assert (f.job_id, f.name, f.state, f.exit_code) == (JOB, "llama-sft", "SUCCEEDED", "0")
        assert (f.start, f.end, f.elapsed) == ("2026-12-02T09:58:01Z", "2026-12-02T10:13:32Z", "00:15:31")
        assert f.nodes == ["10.0.3.17"] and f.reason is None
        assert "entrypoint: python train.py --config llama.yaml" in result.notes
        [log] = result.logs
        assert log.name == f"ray/{JOB}/driver.log" and not log.truncated
        assert log.path.read_text() == "epoch 1 loss 2.31\nepoch 2 loss 1.87\ndone\n"
        assert [r.url.path for r in dash.requests] == [f"/api/jobs/{JOB}", f"/api/jobs/{JOB}/logs"]
    finally:
        result.cleanup()
    assert not result.workdir.exists()


def test_failed_job_is_diagnosed_from_its_driver_log():
    logs = "".join(f"step {i} loss 1.{i:02d}\n" for i in range(50)) + (
        'Traceback (most recent call last):\n  File "train.py", line 88, in <module>\n    loss.backward()\n'
        + CUDA_OOM
        + "\n"
    )
    result = fetch(FakeDashboard(job_details("FAILED"), logs=logs))
    try:
        f = result.facts
        assert (f.state, f.exit_code) == ("FAILED", "1")
        assert f.reason.startswith("Job entrypoint command failed with exit code 1")
        report = diagnose(result)
    finally:
        result.cleanup()
    assert report.diagnoses[0].class_ == "cuda_oom"


def test_failed_job_without_a_driver_log_falls_back_to_the_status_message():
    details = job_details("FAILED")
    result = fetch(FakeDashboard(details, logs_status=500))
    try:
        assert [log.name for log in result.logs] == [f"ray/{JOB}/ray-job-message.log"]
        assert any("no driver log from Ray (500" in n for n in result.notes)
        assert diagnose(result).diagnoses[0].class_ == "cuda_oom"
    finally:
        result.cleanup()


def test_running_job_logs_are_fetched_and_stopped_error_type_is_the_reason():
    result = fetch(FakeDashboard(job_details("RUNNING"), logs="step 1\n"))
    try:
        assert result.facts.state == "RUNNING" and result.facts.end is None and result.facts.elapsed
        assert len(result.logs) == 1
    finally:
        result.cleanup()
    result = fetch(
        FakeDashboard(
            job_details(
                "FAILED",
                error_type="RUNTIME_ENV_SETUP_FAILURE",
                message="runtime_env setup failed: pip install torch==9.9 failed",
            ),
            logs="",
        )
    )
    try:
        assert result.facts.reason == (
            "RUNTIME_ENV_SETUP_FAILURE: runtime_env setup failed: pip install torch==9.9 failed"
        )
        assert "the Ray job's driver log is empty" in result.notes
    finally:
        result.cleanup()


def test_pending_job_is_pending():
    with pytest.raises(FetchError) as err:
        fetch(FakeDashboard(job_details("PENDING")))
    assert err.value.kind == "pending" and "waiting for resources" in str(err.value)


def test_unknown_job_404_and_detail_body():
    with pytest.raises(FetchError) as err:
        fetch(FakeDashboard(None), job="raysubmit_nope")
    assert err.value.kind == "unknown_job" and "raysubmit_nope" in str(err.value)
    assert "does not exist" in str(err.value)
    dash = FakeDashboard(None)
    dash.override = lambda r: httpx.Response(200, json={"detail": "Job raysubmit_nope not found"})
    with pytest.raises(FetchError) as err:
        fetch(dash, job="raysubmit_nope")
    assert err.value.kind == "unknown_job"


@pytest.mark.parametrize(
    "code,kind", [(500, "unreachable"), (502, "unreachable"), (401, "permission"), (403, "permission")]
)
def test_http_errors(code, kind):
    dash = FakeDashboard(None)
    dash.override = lambda r: httpx.Response(code, text="upstream said no")
    with pytest.raises(FetchError) as err:
        fetch(dash)
    assert err.value.kind == kind and str(code) in str(err.value)


def test_timeout_and_connection_refused():
    def slow(request):
        raise httpx.ReadTimeout("timed out", request=request)

    def refused(request):
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    dash = FakeDashboard(None)
    dash.override = slow
    with pytest.raises(FetchError) as err:
        fetch(dash)
    assert err.value.kind == "timeout" and ADDRESS in str(err.value)
    dash.override = refused
    with pytest.raises(FetchError) as err:
        fetch(dash)
    assert err.value.kind == "unreachable" and "Connection refused" in str(err.value)


def test_logs_over_the_budget_keep_the_end():
    logs = "".join(f"2026-12-02 10:00:00 step {i:06d} loss 1.234\n" for i in range(20_000))  # ~840 KB
    result = fetch(FakeDashboard(job_details("FAILED"), logs=logs), max_bytes=50_000)
    try:
        [log] = result.logs
        data = log.path.read_bytes()
        assert log.truncated and log.original_size == len(logs) and log.size == len(data) <= 50_000
        assert data.endswith(b"step 019999 loss 1.234\n") and data.startswith(b"2026-12-02 ")
    finally:
        result.cleanup()


def test_bearer_token_from_env(monkeypatch):
    monkeypatch.setenv("RAY_TEST_TOKEN", "t0ken")
    dash = FakeDashboard(job_details("SUCCEEDED"), logs="ok\n")
    fetch(dash, token_env="RAY_TEST_TOKEN").cleanup()
    assert {r.headers.get("authorization") for r in dash.requests} == {"Bearer t0ken"}
    assert all(str(r.url).startswith(ADDRESS + "/api/jobs/") for r in dash.requests)
    monkeypatch.delenv("RAY_TEST_TOKEN")
    with pytest.raises(FetchError) as err:
        fetch(dash, token_env="RAY_TEST_TOKEN")
    assert err.value.kind == "not_configured"


def test_through_fetch_job():
    config = Config.model_validate({"clusters": {"ray": {"kind": "ray", "address": ADDRESS}}})
    ref = parse_job_ref(f"ray/{JOB}", config)
    with httpx.Client(transport=httpx.MockTransport(FakeDashboard(job_details("SUCCEEDED"), logs="ok\n"))) as client:
        result = fetch_job(ref, config, http=client)
    try:
        assert result.cluster == "ray" and result.facts.state == "SUCCEEDED"
    finally:
        result.cleanup()


# an entrypoint that never called ray.init (a plain script, a launcher): no driver_info, no job_id
REAL_FAILED: dict = {
    "type": "SUBMISSION",
    "job_id": None,
    "submission_id": "raysubmit_mr6NkDhycWcigyS3",
    "driver_info": None,
    "status": "FAILED",
    "entrypoint": "/opt/venv/bin/python /work/fail.py",
    "message": "Job entrypoint command failed with exit code 1, last available logs (truncated to 20,000 chars):\n"
    "2026-12-03 18:23:51,759\tINFO job_manager.py:581 -- Runtime env is setting up.\n"
    "Running entrypoint for job raysubmit_mr6NkDhycWcigyS3: /opt/venv/bin/python /work/fail.py\n"
    "step 1 loss 2.000\n"
    'Traceback (most recent call last):\n  File "/work/fail.py", line 4, in <module>\n'
    "FileNotFoundError: [Errno 2] No such file or directory: 'data/shard_00017.jsonl'\n",
    "error_type": "JOB_ENTRYPOINT_COMMAND_ERROR",
    "start_time": 1796322231755,
    "end_time": 1796322233834,
    "metadata": {"job_name": "denpex-missing-shard"},
    "runtime_env": None,
    "driver_agent_http_address": "http://10.0.3.17:52365",
    "driver_node_id": "0d15c61598fbcec2e5328874e9b1323197692383f25a99a39581ec93",
    "driver_exit_code": 1,
}
REAL_PENDING_MESSAGE = (
    "Job has not started yet. It may be waiting for resources (CPUs, GPUs, memory, custom resources) to become "
    "available."
)


def test_real_failed_entrypoint_reason_and_node():
    """The reason is the message's first line without its log-tail clause, not prefixed with the error_type that
    only repeats it; a driver that never called ray.init is placed by its agent's address."""
    job = REAL_FAILED["submission_id"]
    logs = REAL_FAILED["message"].split("\n", 1)[1]

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == f"/api/jobs/{job}":
            return httpx.Response(200, json=REAL_FAILED)
        return httpx.Response(200, json={"logs": logs})

    dash = FakeDashboard(None)
    dash.override = answer
    result = fetch(dash, job=job)
    try:
        f = result.facts
        assert (f.state, f.exit_code, f.name) == ("FAILED", "1", "denpex-missing-shard")
        assert f.reason == "Job entrypoint command failed with exit code 1"
        assert f.nodes == ["10.0.3.17"]
        assert diagnose(result).diagnoses[0].class_ == "tokenizer_or_data_error"
    finally:
        result.cleanup()


@pytest.mark.parametrize(
    "details,node",
    [
        ({"driver_info": None, "driver_agent_http_address": None}, "b1f3c0ffee"),
        ({"driver_info": None, "driver_agent_http_address": "http://10.0.3.18:52365"}, "10.0.3.18"),
        ({}, "10.0.3.17"),  # driver_info's IP first
    ],
)
def test_driver_node(details, node):
    result = fetch(FakeDashboard(job_details("SUCCEEDED", **details), logs="ok\n"))
    result.cleanup()
    assert result.facts.nodes == [node]


def test_real_running_and_pending_words():
    result = fetch(FakeDashboard(job_details("RUNNING"), logs="step 1\n"))
    result.cleanup()
    assert "the job is still running: its log was read as it stands" in result.notes
    assert not any(n.startswith("Ray: ") for n in result.notes)
    with pytest.raises(FetchError) as err:
        fetch(FakeDashboard(job_details("PENDING", message=REAL_PENDING_MESSAGE, start_time=None)))
    assert err.value.kind == "pending" and "waiting for resources" in str(err.value)


@pytest.mark.parametrize(
    "token,status,body,advice",
    [
        (None, 401, "Unauthorized: Missing authentication token", "name the environment variable that holds it"),
        ("wrong", 403, "Forbidden: Invalid authentication token", "not this cluster's"),
    ],
)
def test_token_authentication_refusals(monkeypatch, token, status, body, advice):
    """A head with RAY_AUTH_MODE=token: 401 without a token (so token_env is missing), 403 to a wrong one."""
    dash = FakeDashboard(None)
    dash.override = lambda r: httpx.Response(status, text=body)
    kw = {}
    if token:
        monkeypatch.setenv("RAY_TEST_TOKEN", token)
        kw["token_env"] = "RAY_TEST_TOKEN"
    with pytest.raises(FetchError) as err:
        fetch(dash, **kw)
    assert err.value.kind == "permission" and str(status) in str(err.value) and advice in str(err.value)
    assert body in str(err.value)
