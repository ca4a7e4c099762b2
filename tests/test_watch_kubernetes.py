"""Watching Kubernetes jobs (`/denpex watch ns/job` on a kubernetes cluster) and [[watch.auto]] over a
namespace, against a fake API server with the real core/v1, batch/v1, Kubeflow and JobSet shapes.

The fake's pod log endpoint honours `timestamps`, `sinceTime` (to the second, as the API server does:
https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#get-read-log-of-the-specified-pod),
`previous` and `limitBytes`, and the logs grow between looks.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from urllib.parse import unquote

import httpx
import pytest
from test_fetch_kubernetes import API, NS, FakeApi, kubeflow_labels, make_pod, status_body

from bot.config import Config, load_config
from bot.fetch import LogFollow, ended_jobs, fetch_job, job_status, parse_job_ref
from bot.fetch.kubernetes.follow import POLL_BYTES, job_state, stamp_key
from bot.store import Store
from bot.watching.jobs import AutoDiagnosis, JobWatches, state_of
from signatures import default_matcher

T = datetime(2026, 12, 3, 10, 0, 0, tzinfo=UTC)
JOB = "llama"
OOM = (
    "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity "
    "of 79.10 GiB of which 1.20 GiB is free. Including non-PyTorch memory, this process has 77.80 GiB memory in use."
)


def config(**auto) -> Config:
    watch: dict = {"interval": "1s", "stall_after": "1h", "idle_exit": "1h"}
    if auto:
        watch["auto"] = [{"cluster": "k8s", "channel": "C0123", **auto}]
    return Config.model_validate(
        {"clusters": {"k8s": {"kind": "kubernetes", "api_url": API, "namespace": NS}}, "watch": watch}
    )


class GrowingApi(FakeApi):
    """FakeApi whose logs are lists of (time, line) that grow, served with kubelet-style timestamps."""

    def __init__(self, pods, objects=None, lists=None):
        super().__init__(pods, objects=objects)
        self.stamped: dict[tuple[str, str | None, bool], list[tuple[datetime, str]]] = {}
        self.lists = lists or {}  # API path of a list -> items (404 when absent)

    def write(self, pod, when, *lines, container="pytorch", previous=False):
        self.stamped.setdefault((pod, container, previous), []).extend((when, line) for line in lines)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path, q = unquote(request.url.path), request.url.params
        if path in self.lists:
            self.requests.append(request)
            items = self.lists[path]
            for term in q["labelSelector"].split(",") if "labelSelector" in q else ():
                key, _, value = term.partition("=")
                items = [o for o in items if o["metadata"].get("labels", {}).get(key) == value]
            return httpx.Response(200, json={"kind": "List", "apiVersion": "v1", "metadata": {}, "items": items})
        if path.endswith("/log") and q.get("timestamps") == "true":
            self.requests.append(request)
            pod = path.split("/")[-2]
            log = (pod, q.get("container"), q.get("previous") == "true")
            if log not in self.stamped and log[2]:
                return httpx.Response(
                    400, json=status_body(400, "BadRequest", f'previous terminated container "{log[1]}" not found')
                )
            since = datetime.fromisoformat(q["sinceTime"].replace("Z", "+00:00")) if "sinceTime" in q else None
            body = "".join(
                f"{when.isoformat(timespec='microseconds').replace('+00:00', 'Z')} {line}\n"
                for when, line in self.stamped.get(log, [])
                if since is None or when >= since
            ).encode()
            if "limitBytes" in q:
                body = body[: int(q["limitBytes"])]
            return httpx.Response(200, content=body, headers={"Content-Type": "text/plain"})
        return super().__call__(request)


def pytorchjob(state="Running", restarts=(0, 0), reason=None):
    pods = [
        make_pod(
            f"{JOB}-{rtype.lower()}-{i}",
            kubeflow_labels(JOB, rtype, i),
            restarts=restarts[rank],
            env=[{"name": "RANK", "value": str(rank)}],
        )
        for rank, (rtype, i) in enumerate([("Master", 0), ("Worker", 0)])
    ]
    conditions = [{"type": "Running", "status": "True" if state == "Running" else "False"}]
    if state != "Running":
        conditions.append(
            {"type": state, "status": "True", "reason": reason or state, "lastTransitionTime": "2026-12-03T10:05:00Z"}
        )
    owner = {
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": {"name": JOB, "namespace": NS},
        "status": {"conditions": conditions, "startTime": "2026-12-03T09:59:00Z"},
    }
    return pods, {f"/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{JOB}": owner}


def steps(api, pod, rank, first, last, at):
    for s in range(first, last + 1):
        api.write(pod, at + timedelta(seconds=s), f"[rank{rank}]: step {s} | loss 2.31 | lr 3.0e-04")


# ---- following the logs ------------------------------------------------------------------------------------


def test_stamps_sort_as_times_whatever_fraction_digits_the_kubelet_kept():
    a = stamp_key(b"2026-12-03T10:00:00.12345Z x")
    b = stamp_key(b"2026-12-03T10:00:00.123456789Z x")
    c = stamp_key(b"2026-12-03T10:00:01Z x")
    assert a is not None and b is not None and c is not None and a < b < c
    assert stamp_key(b"no stamp here") is None


def test_each_look_appends_only_what_was_written_since_the_last_even_within_one_second(tmp_path):
    pods, objects = pytorchjob()
    api = GrowingApi(pods, objects)
    cfg = config()
    ref = parse_job_ref(f"k8s/{NS}/{JOB}", cfg)
    follow = LogFollow(tmp_path / "spool", {})
    master = f"{JOB}-master-0"
    api.write(master, T, "[rank0]: step 1 | loss 2.5", "[rank0]: step 2 | loss 2.4")  # same second
    api.write(f"{JOB}-worker-0", T, "[rank1]: step 1 | loss 2.5")
    facts, paths = job_status(ref, cfg, http=api.client(), follow=follow)
    assert state_of(facts) == "RUNNING" and len(paths) == 2
    assert paths[0].name.startswith("rank0") and paths[0].read_text().splitlines() == [
        "[rank0]: step 1 | loss 2.5",
        "[rank0]: step 2 | loss 2.4",
    ]
    # more in the same second, and later; the cursors survive a round trip through JSON (the watch's state)
    api.write(master, T, "[rank0]: step 3 | loss 2.3")
    api.write(master, T + timedelta(seconds=5), "[rank0]: step 4 | loss 2.2")
    follow = LogFollow(tmp_path / "spool", json.loads(json.dumps(follow.cursors)))
    _, paths = job_status(ref, cfg, http=api.client(), follow=follow)
    assert paths[0].read_text().splitlines()[2:] == ["[rank0]: step 3 | loss 2.3", "[rank0]: step 4 | loss 2.2"]
    _, paths = job_status(ref, cfg, http=api.client(), follow=follow)
    assert len(paths[0].read_text().splitlines()) == 4  # nothing new: nothing appended
    # a look whose state was never stored (the bot died before its transaction): the next look, from the
    # stored cursors, cuts what it had appended and reads it again, once
    stored = json.loads(json.dumps(follow.cursors))
    api.write(master, T + timedelta(seconds=9), "[rank0]: step 5 | loss 2.1")
    job_status(ref, cfg, http=api.client(), follow=follow)  # appended, then lost
    _, paths = job_status(ref, cfg, http=api.client(), follow=LogFollow(tmp_path / "spool", stored))
    assert paths[0].read_text().splitlines()[3:] == ["[rank0]: step 4 | loss 2.2", "[rank0]: step 5 | loss 2.1"]
    logs = [r for r in api.requests if r.url.path.endswith(f"{master}/log")][:-2]
    assert logs[-1].url.params["sinceTime"] == "2026-12-03T10:00:05Z"  # whole seconds, as the API takes them
    assert logs[-1].url.params["limitBytes"] == str(POLL_BYTES)


def test_a_container_that_restarted_has_the_rest_of_its_previous_attempt_read_first(tmp_path):
    pods, objects = pytorchjob()
    api = GrowingApi(pods, objects)
    cfg = config()
    ref = parse_job_ref(f"k8s/{NS}/{JOB}", cfg)
    follow = LogFollow(tmp_path / "spool", {})
    worker = f"{JOB}-worker-0"
    api.write(worker, T, "[rank1]: step 1 | loss 2.5")
    job_status(ref, cfg, http=api.client(), follow=follow)
    # the attempt went on, crashed, and the kubelet restarted the container: its log is now `previous`
    api.stamped[(worker, "pytorch", True)] = api.stamped.pop((worker, "pytorch", False)) + [
        (T + timedelta(seconds=3), OOM)
    ]
    api.write(worker, T + timedelta(seconds=20), "[rank1]: resuming from checkpoint step 0")
    api.pods, _ = pytorchjob(restarts=(0, 1))
    _, paths = job_status(ref, cfg, http=api.client(), follow=follow)
    assert paths[1].read_text().splitlines() == [
        "[rank1]: step 1 | loss 2.5",
        OOM,
        "[rank1]: resuming from checkpoint step 0",
    ]


# ---- /denpex watch on a Kubernetes job -------------------------------------------------------------------------


class Clock:
    def __init__(self):
        self.now = T.timestamp()

    def __call__(self):
        return self.now


def look(watches: JobWatches, store: Store, clock: Clock) -> list[str]:
    """One tick of the ticker, an interval later: what it posted (the new rows of the outbox)."""
    before = store.db.execute("SELECT COALESCE(MAX(id), 0) FROM outbox").fetchone()[0]
    clock.now += 2
    watches.tick()
    return [r["text"] for r in store.db.query("SELECT text FROM outbox WHERE id > ? ORDER BY id", [before])]


def test_a_watched_pytorchjob_alerts_once_on_its_oom_and_closes_with_the_diagnosis(tmp_path):
    pods, objects = pytorchjob()
    api = GrowingApi(pods, objects)
    cfg = config()
    store, clock = Store(tmp_path / "denpex.db"), Clock()

    def status(ref, config, follow=None):
        return job_status(ref, config, http=api.client(), follow=follow)

    def fetch(ref, config):
        return fetch_job(ref, config, http=api.client())

    watches = JobWatches(
        cfg,
        store,
        default_matcher(),
        lambda _id: None,
        status=status,
        clock=clock,
        spool=tmp_path / "spool",
        fetch=fetch,
    )
    ref = parse_job_ref(f"k8s/{NS}/{JOB}", cfg)
    assert watches.start(ref, "C0123", "U1", lambda text: "111.222") == ""
    (watch,) = store.due_watches(clock.now + 10)
    master, worker = f"{JOB}-master-0", f"{JOB}-worker-0"
    for pod, rank in ((master, 0), (worker, 1)):
        steps(api, pod, rank, 1, 5, T)
    assert look(watches, store, clock) == []

    api.write(worker, T + timedelta(seconds=6), OOM)
    steps(api, master, 0, 6, 7, T)
    said = look(watches, store, clock)
    assert len(said) == 1 and said[0].startswith(":rotating_light:") and "CUDA out of memory" in said[0]
    assert "on rank 1" in said[0]
    assert look(watches, store, clock) == []  # said once
    spooled = (tmp_path / "spool" / f"watch-{watch}" / "rank0_pod_llama-master-0_pytorch.log").read_text()
    assert spooled.splitlines() == [f"[rank0]: step {s} | loss 2.31 | lr 3.0e-04" for s in range(1, 8)]

    # the operator marks the job Failed; the closing message has the whole job's diagnosis
    api.pods, api.objects = pytorchjob(state="Failed", reason="PyTorchJobFailed")
    for pod in api.pods:  # what the fetch of the ended job reads (the probe endpoint, without timestamps)
        name = pod["metadata"]["name"]
        api.logs[(name, "pytorch", False)] = "".join(
            line + "\n" for _, line in api.stamped[(name, "pytorch", False)]
        ).encode()
    closing = look(watches, store, clock)
    assert len(closing) == 1 and closing[0].startswith(":x:") and "ended Failed" in closing[0]
    assert "on rank 1" in closing[0] and "Stopped watching" in closing[0]
    row = store.watch(watch)
    assert row is not None and row["outcome"] == "failed"
    assert not (tmp_path / "spool" / f"watch-{watch}").exists()  # the spool goes with the watch


def test_a_pytorchjob_that_succeeds_closes_with_a_check_mark(tmp_path):
    pods, objects = pytorchjob()
    api = GrowingApi(pods, objects)
    cfg = config()
    store, clock = Store(tmp_path / "denpex.db"), Clock()
    watches = JobWatches(
        cfg,
        store,
        default_matcher(),
        lambda _id: None,
        status=lambda ref, config, follow=None: job_status(ref, config, http=api.client(), follow=follow),
        clock=clock,
        spool=tmp_path / "spool",
        fetch=lambda ref, config: fetch_job(ref, config, http=api.client()),
    )
    assert watches.start(parse_job_ref(f"k8s/{NS}/{JOB}", cfg), "C0123", "U1", lambda text: "1.2") == ""
    for pod, rank in ((f"{JOB}-master-0", 0), (f"{JOB}-worker-0", 1)):
        steps(api, pod, rank, 1, 5, T)
    assert look(watches, store, clock) == []
    api.pods, api.objects = pytorchjob(state="Succeeded")
    assert look(watches, store, clock) == [f":white_check_mark: `{NS}/{JOB}` completed. Stopped watching."]


# ---- [[watch.auto]] on a namespace -----------------------------------------------------------------------------


def job_object(name, *, kind="Job", failed=None, labels=None, owners=()):
    conditions = []
    if failed:
        conditions.append(
            {
                "type": "Failed",
                "status": "True",
                "reason": failed,
                "message": "Job has reached the specified backoff limit",
                "lastProbeTime": "2026-12-03T10:05:00Z",
                "lastTransitionTime": "2026-12-03T10:05:00Z",
            }
        )
    else:
        conditions.append({"type": "Complete", "status": "True", "lastTransitionTime": "2026-12-03T10:05:00Z"})
    return {
        "apiVersion": "batch/v1",
        "kind": kind,
        "metadata": {
            "name": name,
            "namespace": NS,
            "labels": labels or {"team": "llm"},
            "ownerReferences": [{"kind": k, "name": "owner", "apiVersion": "x", "uid": "u"} for k in owners],
        },
        "status": {"conditions": conditions, "failed": 1 if failed else 0},
    }


def auto_api(jobs, jobsets=()):
    return GrowingApi(
        [],
        lists={
            f"/apis/batch/v1/namespaces/{NS}/jobs": list(jobs),
            f"/apis/jobset.x-k8s.io/v1alpha2/namespaces/{NS}/jobsets": list(jobsets),
        },  # no PyTorchJob CRD on this cluster: its list is a 404, passed over
    )


def test_failed_jobs_of_a_namespace_are_listed_by_selector_with_their_end_state():
    api = auto_api(
        [
            job_object("train-a", failed="BackoffLimitExceeded"),
            job_object("train-b", failed="DeadlineExceeded"),
            job_object("train-c"),  # completed
            job_object("other", failed="BackoffLimitExceeded", labels={"team": "vision"}),
            job_object("llama-workers-0", failed="BackoffLimitExceeded", owners=("JobSet",)),  # a JobSet's child
        ],
        jobsets=[job_object("llama", kind="JobSet", failed="FailedJobs")],
    )
    cfg = config()
    found = ended_jobs("k8s", cfg, {"FAILED", "TIMEOUT"}, http=api.client(), selector="team=llm")
    assert [(j["JobId"], j["JobState"], j["Kind"]) for j in found] == [
        (f"{NS}/train-a", "FAILED", "Job"),
        (f"{NS}/train-b", "TIMEOUT", "Job"),
        (f"{NS}/llama", "FAILED", "JobSet"),
    ]
    assert found[0]["end"] == datetime(2026, 12, 3, 10, 5, tzinfo=UTC).timestamp()
    assert found[0]["ref"] == f"k8s/{NS}/train-a"
    listed = [r for r in api.requests if r.url.path.endswith(("/jobs", "/jobsets", "/pytorchjobs"))]
    assert all(r.url.params["labelSelector"] == "team=llm" for r in listed) and len(listed) == 3
    assert ended_jobs("k8s", cfg, {"TIMEOUT"}, http=api.client(), selector="team=llm")[0]["JobId"] == f"{NS}/train-b"
    running = job_object("train-d")
    running["status"] = {"active": 2, "conditions": []}
    api.lists[f"/apis/batch/v1/namespaces/{NS}/jobs"].append(running)  # watch_running asks for these too
    found = ended_jobs("k8s", cfg, {"FAILED", "RUNNING"}, http=api.client(), selector="team=llm")
    assert [(j["JobId"], j["JobState"]) for j in found if j["JobState"] == "RUNNING"] == [(f"{NS}/train-d", "RUNNING")]


def test_job_state_reads_the_failed_condition_only_when_true():
    assert job_state({"status": {"conditions": [{"type": "Failed", "status": "False"}]}}) == (None, None)
    assert job_state(job_object("x", failed="DeadlineExceeded"))[0] == "TIMEOUT"
    assert job_state({"status": {"conditions": [{"type": "FailureTarget", "status": "True"}]}}) == ("FAILED", None)


def test_auto_diagnoses_each_failed_job_in_scope_once_and_passes_over_what_had_ended(tmp_path):
    pods, objects = pytorchjob(state="Failed")
    api = auto_api([job_object("old", failed="BackoffLimitExceeded")])
    api.pods, api.objects = pods, objects
    for pod in pods:
        api.logs[(pod["metadata"]["name"], "pytorch", False)] = b"[rank0]: step 1 | loss 2.0\n"
    api.logs[(f"{JOB}-worker-0", "pytorch", False)] = (OOM + "\n").encode()
    cfg = config(selector="team=llm")
    clock = Clock()
    store = Store(tmp_path / "denpex.db")

    def ended(cluster, config, states, **kw):
        return ended_jobs(cluster, config, states, http=api.client(), **kw)

    auto = AutoDiagnosis(
        cfg, store, default_matcher(), lambda _id: None, ended=ended, clock=clock,
        fetch=lambda ref, config: fetch_job(ref, config, http=api.client()),
    )  # fmt: skip
    (entry,) = cfg.watch.auto
    assert auto.look(entry) == []  # the first look: what had ended before is passed over
    clock.now += 60
    failed = job_object(JOB, failed="BackoffLimitExceeded")
    failed["status"]["conditions"][0]["lastTransitionTime"] = (
        (T + timedelta(seconds=120)).isoformat().replace("+00:00", "Z")
    )
    api.lists[f"/apis/batch/v1/namespaces/{NS}/jobs"].append(failed)
    api.lists[f"/apis/batch/v1/namespaces/{NS}/jobs"].append(job_object("vision", failed="X", labels={"team": "cv"}))
    assert auto.look(entry) == [f"{NS}/{JOB}"]
    (text,) = [r["text"] for r in store.db.query("SELECT text FROM outbox ORDER BY id")]
    assert text.startswith(f":x: `{NS}/{JOB}` ({JOB}, Job) ended FAILED: *") and "on rank 1" in text
    assert f"`/denpex diagnose k8s/{NS}/{JOB}`" in text
    assert auto.look(entry) == []  # never twice
    again = AutoDiagnosis(
        cfg, Store(tmp_path / "denpex.db"), default_matcher(), lambda _id: None, ended=ended, clock=clock
    )
    assert again.look(entry) == []  # nor after a restart


@pytest.mark.parametrize(
    ("auto", "words"),
    [
        ({"partitions": ["gpu"]}, "watch.auto.0.partitions: filters Slurm jobs; 'k8s' is a kubernetes cluster"),
        ({"states": ["NODE_FAIL"]}, "a Kubernetes job ends FAILED (its Failed condition) or TIMEOUT"),
    ],
)
def test_slurm_filters_and_states_on_a_kubernetes_entry_are_refused_with_the_key(tmp_path, auto, words):
    path = tmp_path / "denpex.toml"
    lines = [f"{k} = {json.dumps(v)}" for k, v in {"cluster": "k8s", "channel": "C0123", **auto}.items()]
    path.write_text(
        f'[clusters.k8s]\nkind = "kubernetes"\napi_url = "{API}"\n\n[[watch.auto]]\n' + "\n".join(lines) + "\n"
    )
    with pytest.raises(Exception) as err:
        load_config(path)
    assert words in str(err.value)


# ---- denpex watch --job on a Kubernetes job, the API on loopback ----------------------------------------------


class _Loopback:
    """The fake API behind a real HTTP server on 127.0.0.1, for a CLI process to reach."""

    def __init__(self, api: GrowingApi):
        import http.server
        import threading

        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                request = httpx.Request("GET", API + self.path, headers=dict(self.headers))
                with outer.lock:
                    resp = api(request)
                body = resp.content
                self.send_response(resp.status_code)
                self.send_header("Content-Type", resp.headers.get("Content-Type", "application/json"))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.lock = threading.Lock()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_denpex_watch_job_follows_a_kubernetes_job_through_the_api_and_exits_1_on_its_failure(tmp_path):
    import os
    import subprocess
    import time

    from conftest import ROOT, denpex_cmd

    pods, objects = pytorchjob()
    api = GrowingApi(pods, objects)
    master, worker = f"{JOB}-master-0", f"{JOB}-worker-0"
    for pod, rank in ((master, 0), (worker, 1)):
        steps(api, pod, rank, 1, 5, T)
    server = _Loopback(api)
    config = tmp_path / "denpex.toml"
    config.write_text(
        f'[clusters.k8s]\nkind = "kubernetes"\napi_url = "{server.url}"\nnamespace = "{NS}"\n'
        'token_env = "K8S_TOKEN"\n\n[watch]\ninterval = "0.3s"\nstall_after = "1h"\nidle_exit = "1h"\n'
    )
    env = {**os.environ, "DENPEX_CONFIG": str(config), "K8S_TOKEN": "t0ken"}
    watch = subprocess.Popen(
        [*denpex_cmd(), "watch", "--job", f"k8s/{NS}/{JOB}", "--json"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(2.0)
        with server.lock:
            api.write(worker, T + timedelta(seconds=6), OOM)
        time.sleep(2.0)
        with server.lock:  # the operator marks it Failed; the closing fetch reads the whole logs
            api.pods, api.objects = pytorchjob(state="Failed", reason="PyTorchJobFailed")
            for pod in api.pods:
                name = pod["metadata"]["name"]
                lines = api.stamped[(name, "pytorch", False)]
                api.logs[(name, "pytorch", False)] = "".join(line + "\n" for _, line in lines).encode()
        out, err = watch.communicate(timeout=60)
    finally:
        if watch.poll() is None:
            watch.kill()
        server.close()
    assert watch.returncode == 1, err
    said = [json.loads(line) for line in out.splitlines()]
    assert [s["kind"] for s in said] == ["diagnosis", "job_end"], said
    assert said[0]["rank"] == 1 and said[0]["facts"]["class"] == "cuda_oom"
    assert "ended Failed" in said[1]["message"] and "on rank 1" in said[1]["message"]
    assert all(r.headers.get("authorization") == "Bearer t0ken" for r in api.requests)


def test_a_failed_pytorchjob_is_compared_with_the_last_completed_one_of_the_same_workload():
    """`llama-1203` failed; `llama-1202` (same workload labels) completed before it was created, `llama-1204`
    after, `other` has other labels: the baseline is llama-1202's logs."""
    from bot.jobs import with_baseline

    labels = {"app": "llama-pretrain", "team": "llm"}

    def job(name, state, created, ended=None, extra=None):
        conditions = [{"type": state, "status": "True", "lastTransitionTime": ended or created}]
        return {
            "apiVersion": "kubeflow.org/v1",
            "kind": "PyTorchJob",
            "metadata": {
                "name": name,
                "namespace": NS,
                "creationTimestamp": created,
                "labels": {**labels, **(extra or {})},
            },
            "status": {"conditions": conditions, "startTime": created},
        }

    failed = "llama-1203"
    pods = [
        make_pod(f"{failed}-master-0", kubeflow_labels(failed, "Master", 0), env=[{"name": "RANK", "value": "0"}]),
    ]
    good_pods = [
        make_pod(
            "llama-1202-master-0", kubeflow_labels("llama-1202", "Master", 0), env=[{"name": "RANK", "value": "0"}]
        )
    ]
    listing = [
        job("llama-1202", "Succeeded", "2026-12-02T09:00:00Z", "2026-12-02T11:00:00Z"),
        job("llama-1201", "Succeeded", "2026-12-01T09:00:00Z", "2026-12-01T11:00:00Z"),
        job("llama-1204", "Succeeded", "2026-12-03T12:00:00Z", "2026-12-03T13:00:00Z"),
        job("other-1202", "Succeeded", "2026-12-02T09:00:00Z", "2026-12-02T11:00:00Z", {"app": "bert"}),
        job(failed, "Failed", "2026-12-03T09:00:00Z", "2026-12-03T10:00:00Z"),
    ]
    api = GrowingApi(
        pods + good_pods,
        objects={f"/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs/{o['metadata']['name']}": o for o in listing},
        lists={f"/apis/kubeflow.org/v1/namespaces/{NS}/pytorchjobs": listing},
    )
    steps_log = "".join(f"[rank0]: step {s} | loss 2.0\n" for s in range(1, 30)).encode()
    api.logs[(f"{failed}-master-0", "pytorch", False)] = steps_log + b"ERROR feature-store: lease lost for shard 7\n"
    api.logs[("llama-1202-master-0", "pytorch", False)] = steps_log + b"training finished\n"
    cfg = config()
    ref = parse_job_ref(f"k8s/{NS}/{failed}", cfg)
    fetched = fetch_job(ref, cfg, http=api.client())
    try:
        from bot.jobs import job_report

        report = with_baseline(job_report(ref, fetched), ref, fetched, cfg, http=api.client())
    finally:
        fetched.cleanup()
    assert report.baseline is not None, report.notes
    assert all(name.startswith(f"job {NS}/llama-1202: ") for name in report.baseline.good)
    assert [n.text for n in report.baseline.new] == ["ERROR feature-store: lease lost for shard 7"]
    listed = [r for r in api.requests if r.url.path.endswith("/pytorchjobs")]
    assert listed and listed[0].url.params["labelSelector"] == "app=llama-pretrain,team=llm"
