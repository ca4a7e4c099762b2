"""The Kubernetes fetcher against a fake API server that answers with the real core/v1 shapes.

The fake honours the pod log endpoint's query parameters the way the kubelet does: `previous`,
`tailLines` (the last N lines) and then `limitBytes` (the first N bytes of what is left).
"""

from __future__ import annotations

import json
from urllib.parse import unquote

import httpx
import pytest

import signatures
from bot.config import Config, KubernetesCluster
from bot.fetch import fetch_job, parse_job_ref
from bot.fetch.base import Budget, FetchError, JobRef
from bot.fetch.kubernetes import PROBE_BYTES, STATUS_LOG, fetch_kubernetes, log_name, rank_hints
from signatures._lines import rank_from_path

NS = "team-a"
API = "https://k8s.example.test:6443"
T0 = "2026-12-02T09:58:01Z"


# ---------------------------------------------------------------------------------------------- the fake API


def status_body(code: int, reason: str, message: str) -> dict:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    }


def make_pod(
    name,
    labels,
    *,
    container="pytorch",
    node="gpu-node-1",
    phase="Running",
    state=None,
    last_state=None,
    restarts=0,
    annotations=None,
    env=None,
    pod_reason=None,
    pod_message=None,
    conditions=None,
    statuses=True,
):
    state = state if state is not None else {"running": {"startedAt": T0}}
    cs = {
        "name": container,
        "state": state,
        "lastState": last_state or {},
        "ready": "running" in state,
        "restartCount": restarts,
        "image": "nvcr.io/nvidia/pytorch:24.10-py3",
        "imageID": "nvcr.io/nvidia/pytorch@sha256:0f3c",
        "containerID": f"containerd://{name}-1",
        "started": True,
    }
    status = {
        "phase": phase,
        "hostIP": "10.0.0.7",
        "podIP": "10.1.2.3",
        "startTime": T0,
        "qosClass": "Burstable",
        "conditions": conditions or [{"type": "PodScheduled", "status": "True", "lastTransitionTime": T0}],
        "containerStatuses": [cs] if statuses else [],
    }
    if pod_reason:
        status["reason"] = pod_reason
    if pod_message:
        status["message"] = pod_message
    return {
        "kind": "Pod",
        "apiVersion": "v1",
        "metadata": {
            "name": name,
            "namespace": NS,
            "uid": f"uid-{name}",
            "resourceVersion": "81234",
            "creationTimestamp": T0,
            "labels": labels,
            "annotations": annotations or {},
        },
        "spec": {
            "containers": [
                {
                    "name": container,
                    "image": "nvcr.io/nvidia/pytorch:24.10-py3",
                    "env": env or [],
                    "resources": {"limits": {"memory": "64Gi", "nvidia.com/gpu": "8"}},
                }
            ],
            "restartPolicy": "OnFailure",
            "nodeName": node if phase != "Pending" else None,
            "serviceAccountName": "default",
        },
        "status": status,
    }


def make_event(
    pod, reason, message, *, kind="Pod", etype="Warning", when="2026-12-02T10:14:00Z", count=1, component="kubelet"
):
    return {
        "kind": "Event",
        "apiVersion": "v1",
        "metadata": {"name": f"{pod}.17d1a2b3c4d5e6f7", "namespace": NS, "creationTimestamp": when},
        "involvedObject": {"kind": kind, "namespace": NS, "name": pod, "uid": f"uid-{pod}", "apiVersion": "v1"},
        "reason": reason,
        "message": message,
        "source": {"component": component},
        "firstTimestamp": when,
        "lastTimestamp": when,
        "count": count,
        "type": etype,
        "eventTime": None,
        "reportingComponent": component,
        "reportingInstance": "",
    }


class FakeApi:
    def __init__(self, pods, logs=None, events=(), objects=None):
        self.pods = pods
        self.logs = logs or {}  # (pod, container, previous) -> bytes
        self.events = list(events)
        self.objects = objects or {}  # API path -> object
        self.requests: list[httpx.Request] = []
        self.override = None  # request -> Response | None

    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self))

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.override is not None:
            resp = self.override(request)
            if resp is not None:
                return resp
        path = unquote(request.url.path)
        q = request.url.params
        parts = path.strip("/").split("/")
        if path == f"/api/v1/namespaces/{NS}/pods":
            key, _, value = q["labelSelector"].partition("=")
            items = [p for p in self.pods if p["metadata"]["labels"].get(key) == value]
            return httpx.Response(
                200,
                json={"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": "81240"}, "items": items},
            )
        if len(parts) == 7 and parts[:5] == ["api", "v1", "namespaces", NS, "pods"] and parts[6] == "log":
            pod, container, previous = parts[5], q.get("container"), q.get("previous") == "true"
            if not any(p["metadata"]["name"] == pod for p in self.pods):
                return httpx.Response(404, json=status_body(404, "NotFound", f'pods "{pod}" not found'))
            data = self.logs.get((pod, container, previous))
            if data is None:
                what = "previous terminated container" if previous else "container"
                return httpx.Response(
                    400, json=status_body(400, "BadRequest", f'{what} "{container}" in pod "{pod}" not found')
                )
            if "tailLines" in q:
                data = b"".join(data.splitlines(keepends=True)[-int(q["tailLines"]) :])
            if "limitBytes" in q:
                data = data[: int(q["limitBytes"])]
            return httpx.Response(200, content=data, headers={"Content-Type": "text/plain"})
        if path == f"/api/v1/namespaces/{NS}/events":
            return httpx.Response(
                200,
                json={
                    "kind": "EventList",
                    "apiVersion": "v1",
                    "metadata": {"resourceVersion": "81241"},
                    "items": self.events,
                },
            )
        if path in self.objects:
            return httpx.Response(200, json=self.objects[path])
        return httpx.Response(
            404, json=status_body(404, "NotFound", f"the server could not find the requested resource ({path})")
        )

    def log_requests(self):
        return [r for r in self.requests if r.url.path.endswith("/log")]


def cluster(**kw) -> KubernetesCluster:
    return KubernetesCluster(kind="kubernetes", api_url=API, **kw)


def fetch(api: FakeApi, job="team-a/llama", max_bytes=64 << 20, seconds=30.0, **kw):
    ref = JobRef("k8s", "kubernetes", job, f"k8s/{job}")
    with api.client() as client:
        return fetch_kubernetes(ref, cluster(**kw), Budget(max_bytes, seconds), http=client)


def diagnose(result) -> signatures.Report:
    sources = (s for log in result.logs for s in signatures.open_path(log.path, log.name))
    return signatures.diagnose_sources(sources)


# ---------------------------------------------------------------------------------------------- a PyTorchJob


def kubeflow_labels(job, rtype, index):
    labels = {
        "training.kubeflow.org/job-name": job,
        "training.kubeflow.org/operator-name": "pytorchjob-controller",
        "training.kubeflow.org/replica-type": rtype,
        "training.kubeflow.org/replica-index": str(index),
    }
    if rtype == "master":
        labels["training.kubeflow.org/job-role"] = "master"
    return labels


def training_log(rank: int, steps: int = 30) -> bytes:
    lines = [
        f"2026-12-02 10:{(i // 60):02d}:{i % 60:02d},000 INFO [rank{rank}] step {i} loss {2.5 - i / 100:.3f}"
        for i in range(steps)
    ]
    return ("\n".join(lines) + "\n").encode()


def nccl_timeout(rank: int) -> bytes:
    return (
        f"[rank{rank}]:[E1202 10:23:41.414640780 ProcessGroupNCCL.cpp:607] [Rank {rank}] Watchdog caught "
        f"collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, "
        f"NumelOut=466119168, Timeout(ms)=600000) ran for 600067 milliseconds before timing out.\n"
    ).encode()


def oomkilled_pytorchjob(previous_log: bytes | None = None) -> FakeApi:
    pods, logs = [], {}
    for i in range(4):
        name = f"llama-worker-{i}"
        if i == 2:
            pods.append(
                make_pod(
                    name,
                    kubeflow_labels("llama", "worker", i),
                    node="gpu-node-3",
                    restarts=1,
                    state={"running": {"startedAt": "2026-12-02T10:14:10Z"}},
                    last_state={
                        "terminated": {
                            "exitCode": 137,
                            "reason": "OOMKilled",
                            "startedAt": T0,
                            "finishedAt": "2026-12-02T10:13:38Z",
                            "containerID": "containerd://4f1c",
                        }
                    },
                )
            )
            logs[(name, "pytorch", True)] = previous_log or training_log(2, 20)  # dies mid-training, no error line
            logs[(name, "pytorch", False)] = b"2026-12-02 10:14:12,000 INFO [rank2] waiting for the rendezvous\n"
        else:
            pods.append(make_pod(name, kubeflow_labels("llama", "worker", i), node=f"gpu-node-{i + 1}"))
            logs[(name, "pytorch", False)] = training_log(i, 20) + nccl_timeout(i)
    events = [
        make_event(
            "llama-worker-2",
            "BackOff",
            "Back-off restarting failed container pytorch in pod llama-worker-2_team-a(uid-llama-worker-2)",
        ),
        make_event(
            "llama",
            "JobRestarting",
            "PyTorchJob llama is restarting because 1 Worker replica(s) failed.",
            kind="PyTorchJob",
            component="pytorchjob-controller",
        ),
    ]
    job = {
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": {"name": "llama", "namespace": NS},
        "status": {
            "startTime": T0,
            "conditions": [
                {"type": "Created", "status": "True", "reason": "PyTorchJobCreated", "lastTransitionTime": T0},
                {"type": "Running", "status": "False", "reason": "PyTorchJobRunning", "lastTransitionTime": T0},
                {
                    "type": "Restarting",
                    "status": "True",
                    "reason": "PyTorchJobRestarting",
                    "message": "PyTorchJob llama is restarting because 1 Worker replica(s) failed.",
                    "lastTransitionTime": "2026-12-02T10:13:40Z",
                },
            ],
        },
    }
    return FakeApi(pods, logs, events, {f"/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/llama": job})


def test_pytorchjob_oomkilled_worker_is_the_diagnosis_with_its_rank():
    api = oomkilled_pytorchjob()
    result = fetch(api)
    try:
        names = [log.name for log in result.logs]
        assert names[0] == "rank2/pod/llama-worker-2/pytorch (previous).log"  # the crashed attempt first
        assert names[-1] == STATUS_LOG
        assert "rank0/pod/llama-worker-0/pytorch.log" in names and "rank2/pod/llama-worker-2/pytorch.log" in names
        status = (result.workdir / STATUS_LOG).read_text()
        assert "Reason: OOMKilled  Exit Code: 137" in status
        assert "Warning   BackOff   pod/llama-worker-2" in status
        # the facts
        f = result.facts
        assert (f.job_id, f.name, f.state, f.exit_code, f.reason) == (
            "team-a/llama",
            "llama",
            "Restarting",
            "137",
            "OOMKilled",
        )
        assert f.nodes == ["gpu-node-1", "gpu-node-2", "gpu-node-3", "gpu-node-4"]
        assert f.start == T0
        # the previous attempt was asked for
        previous = [r for r in api.log_requests() if r.url.params.get("previous") == "true"]
        assert [r.url.path.split("/")[-2] for r in previous] == ["llama-worker-2"]
        report = diagnose(result)
    finally:
        result.cleanup()
    top = report.diagnoses[0]
    assert top.class_ == "host_oom_killed", top
    assert top.initiating_rank == 2
    assert top.values.get("pod") == "llama-worker-2"
    assert {c.class_ for c in top.collateral} == {"nccl_timeout"}
    assert not result.workdir.exists()


def test_cuda_oom_in_the_previous_log_gets_its_rank_from_the_log_name():
    crash = training_log(2, 20) + (
        b'Traceback (most recent call last):\n  File "/workspace/train.py", line 88, in <module>\n'
        b"    loss.backward()\n"
        b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
        b"79.10 GiB of which 1.20 GiB is free. Of the allocated memory 74.10 GiB is allocated by PyTorch, and "
        b"1.90 GiB is reserved by PyTorch but unallocated.\n"
    )
    api = oomkilled_pytorchjob(previous_log=crash)
    pod = api.pods[2]["status"]["containerStatuses"][0]
    pod["lastState"]["terminated"].update(exitCode=1, reason="Error")
    result = fetch(api)
    try:
        report = diagnose(result)
    finally:
        result.cleanup()
    top = report.diagnoses[0]
    assert top.class_ == "cuda_oom", top
    assert top.initiating_rank == 2
    assert result.facts.exit_code == "1" and result.facts.reason == "Error"


def test_rank_comes_from_the_pods_rank_env_and_leads_the_name():
    master = make_pod("llama-master-0", kubeflow_labels("llama", "master", 0), env=[{"name": "RANK", "value": "0"}])
    worker = make_pod("llama-worker-1", kubeflow_labels("llama", "worker", 1), env=[{"name": "RANK", "value": "2"}])
    elastic = make_pod("llama-worker-2", kubeflow_labels("llama", "worker", 2))  # no literal RANK: index + 1
    indexed = make_pod(
        "train-3-x8k2p", {"job-name": "train"}, annotations={"batch.kubernetes.io/job-completion-index": "3"}
    )
    ranks = rank_hints([master, worker, elastic])
    assert ranks == {"llama-master-0": 0, "llama-worker-1": 2, "llama-worker-2": 3}
    assert rank_hints([indexed]) == {"train-3-x8k2p": 3}
    name = log_name("llama-worker-1", "pytorch", False, 2)
    assert name == "rank2/pod/llama-worker-1/pytorch.log"
    assert rank_from_path(name) == 2  # the pod name's "worker-1" does not win
    assert rank_from_path(log_name("llama-worker-1", "pytorch", True, 2)) == 2
    assert log_name("train-x8k2p", "main", False, None) == "pod/train-x8k2p/main.log"


def test_jobset_ranks_combine_job_index_and_completion_index():
    def pod(job_index, ci):
        labels = {
            "jobset.sigs.k8s.io/jobset-name": "js",
            "jobset.sigs.k8s.io/replicatedjob-name": "workers",
            "jobset.sigs.k8s.io/job-index": str(job_index),
            "batch.kubernetes.io/job-completion-index": str(ci),
        }
        return make_pod(f"js-workers-{job_index}-{ci}-abcde", labels)

    pods = [pod(j, c) for j in range(2) for c in range(2)]
    assert rank_hints(pods) == {
        "js-workers-0-0-abcde": 0,
        "js-workers-0-1-abcde": 1,
        "js-workers-1-0-abcde": 2,
        "js-workers-1-1-abcde": 3,
    }
    api = FakeApi(pods, {(p["metadata"]["name"], "pytorch", False): b"hello\n" for p in pods})
    result = fetch(api, "team-a/js")
    try:
        assert "jobset.sigs.k8s.io/jobset-name=js" in result.notes[0]
        assert [r.url.params["labelSelector"] for r in api.requests if r.url.path.endswith("/pods")][
            -1
        ] == "jobset.sigs.k8s.io/jobset-name=js"
        assert any(r.url.path == f"/apis/jobset.x-k8s.io/v1alpha2/namespaces/{NS}/jobsets/js" for r in api.requests)
        assert result.facts.state == "Running"  # no JobSet object readable: from the pod phases
    finally:
        result.cleanup()


# ---------------------------------------------------------------------------------------------- a batch Job


def test_batch_job_found_by_the_second_label_with_job_status():
    labels = {"batch.kubernetes.io/job-name": "train", "batch.kubernetes.io/controller-uid": "c0ffee"}
    failed = {"terminated": {"exitCode": 1, "reason": "Error", "startedAt": T0, "finishedAt": "2026-12-02T10:30:00Z"}}
    pod = make_pod("train-x8k2p", labels, container="main", phase="Failed", state=failed)
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "train", "namespace": NS},
        "status": {
            "startTime": T0,
            "completionTime": None,
            "failed": 1,
            "conditions": [
                {
                    "type": "FailureTarget",
                    "status": "True",
                    "reason": "BackoffLimitExceeded",
                    "message": "Job has reached the specified backoff limit",
                    "lastTransitionTime": "2026-12-02T10:30:01Z",
                },
                {
                    "type": "Failed",
                    "status": "True",
                    "reason": "BackoffLimitExceeded",
                    "message": "Job has reached the specified backoff limit",
                    "lastTransitionTime": "2026-12-02T10:30:01Z",
                },
            ],
        },
    }
    api = FakeApi(
        [pod],
        {("train-x8k2p", "main", False): b"ValueError: bad shard index 7\n"},
        objects={f"/apis/batch/v1/namespaces/{NS}/jobs/train": job},
    )
    result = fetch(api, "team-a/train")
    try:
        selectors = [r.url.params["labelSelector"] for r in api.requests if r.url.path.endswith("/pods")]
        assert selectors == ["job-name=train", "batch.kubernetes.io/job-name=train"]
        assert [log.name for log in result.logs] == ["pod/train-x8k2p/main.log", STATUS_LOG]
        f = result.facts
        assert (f.state, f.exit_code, f.reason, f.start, f.end, f.elapsed) == (
            "Failed",
            "1",
            "Error",
            T0,
            "2026-12-02T10:30:00Z",
            "00:31:59",
        )
        assert any("Job has reached the specified backoff limit" in n for n in result.notes)
        assert result.logs[0].path.read_bytes() == b"ValueError: bad shard index 7\n"
        assert f.line().startswith("job team-a/train (train), Failed, exit 1, on gpu-node-1")
    finally:
        result.cleanup()


# ---------------------------------------------------------------------------------------------- the byte budget


def numbered(n: int) -> bytes:
    return b"".join(b"2026-12-02 10:00:00,000 INFO line %06d of the training log\n" % i for i in range(n))


def test_long_log_keeps_the_newest_bytes_within_its_share():
    big = numbered(40_000)  # ~2 MB
    api = FakeApi([make_pod("train-abc", {"job-name": "train"})], {("train-abc", "pytorch", False): big})
    budget = 100_000
    result = fetch(api, "team-a/train", max_bytes=budget)
    try:
        log = result.logs[0]
        data = log.path.read_bytes()
        assert log.truncated and log.size == len(data) <= budget
        assert data.endswith(b"line 039999 of the training log\n")  # the newest bytes
        assert data.startswith(b"2026-12-02")  # a whole first line
        assert len(data) > budget * 0.8  # the share is used, not wasted
        assert log.size + result.logs[-1].size <= budget
        probe, tail = api.log_requests()
        assert probe.url.params["limitBytes"] == str(PROBE_BYTES + 1)  # the probe: the head, capped
        assert "limitBytes" not in tail.url.params and int(tail.url.params["tailLines"]) < 40_000
    finally:
        result.cleanup()


def test_short_logs_come_whole_from_one_request_and_share_the_budget():
    small, big = numbered(100), numbered(40_000)
    pods = [make_pod("train-a", {"job-name": "train"}), make_pod("train-b", {"job-name": "train"})]
    api = FakeApi(pods, {("train-a", "pytorch", False): small, ("train-b", "pytorch", False): big})
    result = fetch(api, "team-a/train", max_bytes=200_000)
    try:
        a, b = result.logs[0], result.logs[1]
        assert a.path.read_bytes() == small and not a.truncated and a.original_size == len(small)
        assert b.truncated and b.path.read_bytes().endswith(b"line 039999 of the training log\n")
        assert a.size + b.size + result.logs[2].size <= 200_000
        assert len([r for r in api.log_requests() if r.url.path.split("/")[-2] == "train-a"]) == 1
    finally:
        result.cleanup()


def test_log_that_fits_its_share_after_the_probe_is_not_marked_truncated():
    medium = numbered(3_000)  # ~150 KB: more than the probe, less than the budget
    api = FakeApi([make_pod("train-abc", {"job-name": "train"})], {("train-abc", "pytorch", False): medium})
    result = fetch(api, "team-a/train", max_bytes=10 << 20)
    try:
        log = result.logs[0]
        assert log.path.read_bytes() == medium and not log.truncated and log.original_size == len(medium)
    finally:
        result.cleanup()


# ---------------------------------------------------------------------------------------------- errors


def one_pod_api() -> FakeApi:
    return FakeApi([make_pod("train-abc", {"job-name": "train"})], {("train-abc", "pytorch", False): b"ok\n"})


@pytest.mark.parametrize(
    "code,reason,kind,words",
    [
        (401, "Unauthorized", "permission", ["token", "401"]),
        (
            403,
            "Forbidden",
            "permission",
            ["RBAC", "get/list on pods, pods/log, events", "team-a", 'cannot list resource "pods"'],
        ),
        (404, "NotFound", "unknown_job", ["team-a", "namespace"]),
        (500, "InternalError", "unreachable", ["500", "etcdserver: request timed out"]),
        (503, "ServiceUnavailable", "unreachable", ["503"]),
    ],
)
def test_api_errors_map_to_fetch_error_kinds(code, reason, kind, words):
    api = one_pod_api()
    message = {
        401: "Unauthorized",
        403: 'pods is forbidden: User "system:serviceaccount:denpex:denpex" cannot list resource "pods" in '
        'API group "" in the namespace "team-a"',
        404: 'namespaces "team-a" not found',
        500: "etcdserver: request timed out",
        503: "the server is currently unable to handle the request",
    }[code]
    api.override = lambda request: httpx.Response(code, json=status_body(code, reason, message))
    with pytest.raises(FetchError) as err:
        fetch(api, "team-a/train")
    assert err.value.kind == kind
    for word in words:
        assert word in str(err.value), (word, str(err.value))


def test_connect_error_is_unreachable_and_timeout_is_timeout():
    def refuse(request):
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    def slow(request):
        raise httpx.ReadTimeout("timed out", request=request)

    api = one_pod_api()
    api.override = refuse
    with pytest.raises(FetchError) as err:
        fetch(api, "team-a/train")
    assert err.value.kind == "unreachable" and API in str(err.value) and "Connection refused" in str(err.value)
    api.override = slow
    with pytest.raises(FetchError) as err:
        fetch(api, "team-a/train")
    assert err.value.kind == "timeout" and "did not answer in time" in str(err.value)


def test_no_pods_under_any_label_is_unknown_job_naming_the_labels():
    with pytest.raises(FetchError) as err:
        fetch(FakeApi([]), "team-a/ghost")
    assert err.value.kind == "unknown_job"
    for label in (
        "job-name=ghost",
        "batch.kubernetes.io/job-name=ghost",
        "training.kubeflow.org/job-name=ghost",
        "pytorch-job-name=ghost",
        "jobset.sigs.k8s.io/jobset-name=ghost",
    ):
        assert label in str(err.value)


def test_all_pods_pending_is_pending_with_the_schedulers_reason():
    unschedulable = [
        {
            "type": "PodScheduled",
            "status": "False",
            "reason": "Unschedulable",
            "lastTransitionTime": T0,
            "message": "0/8 nodes are available: 8 Insufficient nvidia.com/gpu. preemption: 0/8 nodes are "
            "available: 8 No preemption victims found for incoming pod.",
        }
    ]
    pods = [
        make_pod(
            f"llama-worker-{i}",
            kubeflow_labels("llama", "worker", i),
            phase="Pending",
            statuses=False,
            conditions=unschedulable,
        )
        for i in range(2)
    ]
    api = FakeApi(
        pods,
        events=[
            make_event("llama-worker-0", "FailedScheduling", unschedulable[0]["message"], component="default-scheduler")
        ],
    )
    with pytest.raises(FetchError) as err:
        fetch(api)
    assert err.value.kind == "pending"
    assert "Insufficient nvidia.com/gpu" in str(err.value) and "team-a/llama" in str(err.value)
    assert not api.log_requests()


def test_image_pull_backoff_is_pending_with_the_reason():
    waiting = {
        "waiting": {"reason": "ImagePullBackOff", "message": 'Back-off pulling image "registry.example/llama:v9"'}
    }
    api = FakeApi([make_pod("train-abc", {"job-name": "train"}, phase="Pending", state=waiting)])
    with pytest.raises(FetchError) as err:
        fetch(api, "team-a/train")
    assert err.value.kind == "pending" and "ImagePullBackOff" in str(err.value)


def test_missing_previous_log_and_kubelet_errors_are_skipped_with_notes():
    api = oomkilled_pytorchjob()
    del api.logs[("llama-worker-2", "pytorch", True)]  # the runtime already garbage-collected it

    def kubelet_down(request):
        if request.url.path.endswith("/pods/llama-worker-3/log"):
            return httpx.Response(
                500,
                json=status_body(
                    500,
                    "InternalError",
                    'Get "https://10.0.0.4:10250/'
                    'containerLogs/team-a/llama-worker-3/pytorch": dial tcp '
                    "10.0.0.4:10250: connect: connection refused",
                ),
            )
        return None

    api.override = kubelet_down
    result = fetch(api)
    try:
        names = [log.name for log in result.logs]
        assert "rank2/pod/llama-worker-2/pytorch (previous).log" not in names
        assert "rank3/pod/llama-worker-3/pytorch.log" not in names
        assert "rank0/pod/llama-worker-0/pytorch.log" in names and STATUS_LOG in names
        notes = "\n".join(result.notes)
        assert 'previous terminated container "pytorch" in pod "llama-worker-2" not found' in notes
        assert "connection refused" in notes
        # the API's own evidence still names the OOM kill
        assert diagnose(result).diagnoses[0].class_ == "host_oom_killed"
    finally:
        result.cleanup()


def test_forbidden_pod_logs_are_a_permission_error():
    api = one_pod_api()
    api.override = lambda r: (
        httpx.Response(
            403,
            json=status_body(
                403,
                "Forbidden",
                'pods "train-abc" is forbidden: User "system:serviceaccount:denpex:denpex" cannot get '
                'resource "pods/log" in API group "" in the namespace "team-a"',
            ),
        )
        if r.url.path.endswith("/log")
        else None
    )
    with pytest.raises(FetchError) as err:
        fetch(api, "team-a/train")
    assert err.value.kind == "permission" and "pods/log" in str(err.value)


def test_token_from_env_is_sent_as_bearer(monkeypatch):
    monkeypatch.setenv("K8S_TEST_TOKEN", "s3cret")
    api = one_pod_api()
    result = fetch(api, "team-a/train", token_env="K8S_TEST_TOKEN")
    result.cleanup()
    assert {r.headers.get("authorization") for r in api.requests} == {"Bearer s3cret"}
    assert all(str(r.url).startswith(API + "/") for r in api.requests)
    monkeypatch.delenv("K8S_TEST_TOKEN")
    with pytest.raises(FetchError) as err:
        fetch(api, "team-a/train", token_env="K8S_TEST_TOKEN")
    assert err.value.kind == "not_configured" and "K8S_TEST_TOKEN" in str(err.value)


# ---------------------------------------------------------------------------------------------- evidence from the API


def test_evicted_pod_and_lost_node_are_diagnosed_from_the_status_log():
    evicted = make_pod(
        "train-0-abc",
        {"job-name": "train"},
        phase="Failed",
        pod_reason="Evicted",
        pod_message="The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. "
        "Container pytorch was using 60Gi, request is 32Gi, has larger consumption of "
        "memory.",
        annotations={"batch.kubernetes.io/job-completion-index": "0"},
        state={
            "terminated": {
                "exitCode": 137,
                "reason": "ContainerStatusUnknown",
                "startedAt": T0,
                "finishedAt": "2026-12-02T10:40:00Z",
            }
        },
    )
    api = FakeApi(
        [evicted],
        {("train-0-abc", "pytorch", False): training_log(0, 5)},
        events=[
            make_event(
                "train-0-abc",
                "Evicted",
                "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi.",
                when="2026-12-02T10:39:58Z",
            )
        ],
    )
    result = fetch(api, "team-a/train")
    try:
        status = (result.workdir / STATUS_LOG).read_text()
        assert "Reason: Evicted  Message: The node was low on resource: memory." in status
        top = diagnose(result).diagnoses[0]
        assert top.signature == "k8s.pod_evicted" and top.values["resource"] == "memory"
        assert result.facts.state == "Failed"
    finally:
        result.cleanup()

    lost = make_pod("train-0-abc", {"job-name": "train"}, node="gpu-node-9")
    api = FakeApi(
        [lost],
        {("train-0-abc", "pytorch", False): training_log(0, 5)},
        events=[make_event("train-0-abc", "NodeNotReady", "Node is not ready", component="node-controller")],
    )
    result = fetch(api, "team-a/train")
    try:
        top = diagnose(result).diagnoses[0]
        assert top.signature == "k8s.node_not_ready", top
    finally:
        result.cleanup()


def test_through_fetch_job_and_diagnose_job():
    from bot.jobs import diagnose_job

    config = Config.model_validate({"clusters": {"k8s": {"kind": "kubernetes", "api_url": API}}})
    ref = parse_job_ref("k8s/team-a/llama", config)
    assert (ref.kind, ref.job_id) == ("kubernetes", "team-a/llama")
    api = oomkilled_pytorchjob()
    with api.client() as client:
        result = fetch_job(ref, config, http=client)
        result.cleanup()
        report = diagnose_job("k8s/team-a/llama", config, http=client)
    assert report.diagnoses[0].class_ == "host_oom_killed"
    assert report.job is not None
    assert report.job.exit_code == "137"
    assert report.job.logs[0].name.endswith("(previous).log")
    json.dumps(report.to_json())


def test_status_log_keeps_the_pod_lines_and_the_newest_events_within_its_cap(monkeypatch):
    import bot.fetch.kubernetes.status as k8s_status

    monkeypatch.setattr(k8s_status, "MAX_STATUS_BYTES", 4000)
    api = oomkilled_pytorchjob()
    noise = [
        make_event(
            "llama-worker-1",
            "Unhealthy",
            f"Readiness probe failed: attempt {i}",
            when=f"2026-12-02T10:{i // 60:02d}:{i % 60:02d}Z",
        )
        for i in range(600)
    ]
    api.events = noise + [make_event("llama-service", "Created", "not ours", kind="Service")]
    result = fetch(api)
    try:
        status = (result.workdir / STATUS_LOG).read_text()
        assert len(status.encode()) <= 4000 and result.logs[-1].truncated
        assert "Reason: OOMKilled  Exit Code: 137" in status
        assert "attempt 599" in status and "attempt 0\n" not in status and "not ours" not in status
        assert any("older event(s) left out" in n for n in result.notes)
    finally:
        result.cleanup()
