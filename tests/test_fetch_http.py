"""The fetchers' one HTTP layer (bot.fetch.http) and the FetchError classes, against httpx.MockTransport."""

from __future__ import annotations

import pickle
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from bot.fetch import (
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
from bot.fetch.base import Budget
from bot.fetch.http import JsonApi, bearer, error_detail

BASE = "https://api.example.test:6443"


def api_for(handler, seconds: float = 30.0, **kw) -> JsonApi:
    client = httpx.Client(transport=httpx.MockTransport(handler))
    return JsonApi(client, BASE + "/", Budget(1 << 20, seconds), service="the Example API", cluster="east", **kw)


def answer(code: int, **kw):
    return lambda request: httpx.Response(code, **kw)


def failure(exc_type):
    def handler(request):
        raise exc_type("it went wrong", request=request)

    return handler


# ---------------------------------------------------------------------------------------------- statuses


@pytest.mark.parametrize(
    "code,cls,kind",
    [
        (401, PermissionDenied, "permission"),
        (403, PermissionDenied, "permission"),
        (404, NotFound, "unknown_job"),
        (429, RateLimited, "unreachable"),
        (500, Unreachable, "unreachable"),
        (502, Unreachable, "unreachable"),
        (503, Unreachable, "unreachable"),
        (418, Unreachable, "unreachable"),
    ],
)
def test_each_status_class_maps_to_its_error(code, cls, kind):
    api = api_for(answer(code, json={"message": "the server's own words"}))
    with pytest.raises(cls) as err:
        api.get_json("/things", what="listing the things")
    e = err.value
    assert type(e) is cls and e.kind == kind and isinstance(e, FetchError)
    assert (e.status, e.detail) == (code, "the server's own words")
    message = str(e)
    assert "the Example API of cluster 'east' at " + BASE in message and "listing the things" in message
    if code != 429:
        assert str(code) in message and "the server's own words" in message


def test_404_is_an_unknown_job_unless_the_caller_catches_it():
    api = api_for(answer(404, text="Job raysubmit_x does not exist"))
    with pytest.raises(UnknownJob) as err:
        api.get_json("/api/jobs/raysubmit_x", what="reading the job")
    assert isinstance(err.value, NotFound) and err.value.detail == "Job raysubmit_x does not exist"


def test_advice_is_added_to_the_message():
    api = api_for(answer(403, json={"message": "pods is forbidden"}), advice={403: "grant get on pods"})
    with pytest.raises(PermissionDenied) as err:
        api.get_json("/pods", what="listing pods")
    assert str(err.value).endswith("refused listing pods (403 Forbidden: pods is forbidden): grant get on pods")
    api = api_for(answer(401, json={"message": "Unauthorized"}))
    with pytest.raises(PermissionDenied) as err:
        api.get_json("/pods", what="listing pods")
    assert "(401 Unauthorized): " in str(err.value)  # a detail that only repeats the status is left out
    assert "expired" in str(err.value)  # the default advice


def test_server_errors_say_try_again():
    api = api_for(answer(503, text="upstream connect error"))
    with pytest.raises(Unreachable) as err:
        api.get_json("/x", what="reading x")
    assert "503 Service Unavailable" in str(err.value) and "try again" in str(err.value)
    assert not isinstance(err.value, CannotConnect)


@pytest.mark.parametrize("header,wait", [("7", 7.0), (None, None), ("soon", None)])
def test_rate_limited_says_what_retry_after_asked(header, wait):
    headers = {"Retry-After": header} if header else {}
    api = api_for(answer(429, headers=headers))
    with pytest.raises(RateLimited) as err:
        api.get_json("/x", what="reading x")
    assert err.value.retry_after == wait and "429" in str(err.value) and "Retry-After" in str(err.value)
    assert ("wait 7s" in str(err.value)) == (wait is not None)


def test_rate_limited_with_an_http_date():
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=120), usegmt=True)
    api = api_for(answer(429, headers={"Retry-After": when}))
    with pytest.raises(RateLimited) as err:
        api.get_json("/x", what="reading x")
    assert err.value.retry_after is not None
    assert 100 < err.value.retry_after <= 120


def test_request_returns_any_status_for_the_caller_to_judge():
    api = api_for(answer(400, json={"message": 'previous terminated container "main" not found'}))
    resp = api.request("GET", "/log", what="reading a log")
    assert resp.status_code == 400
    err = api.status_error(resp, "reading a log")
    assert type(err) is Unreachable and err.status == 400 and "previous terminated container" in err.detail


# ---------------------------------------------------------------------------------------------- no answer


@pytest.mark.parametrize(
    "exc_type,cls",
    [
        (httpx.ReadTimeout, FetchTimeout),
        (httpx.ConnectTimeout, FetchTimeout),
        (httpx.PoolTimeout, FetchTimeout),
        (httpx.ConnectError, CannotConnect),
        (httpx.RemoteProtocolError, Unreachable),
        (httpx.ReadError, Unreachable),
        (httpx.UnsupportedProtocol, NotConfigured),
    ],
)
def test_transport_failures(exc_type, cls):
    api = api_for(failure(exc_type), advice={"timeout": "the server is slow.", "unreachable": "is it up?"})
    with pytest.raises(cls) as err:
        api.get_json("/x", what="reading x")
    e = err.value
    assert type(e) is cls and e.status is None
    assert "east" in str(e)
    if cls is FetchTimeout:
        assert e.kind == "timeout" and "did not answer in time" in str(e) and "the server is slow." in str(e)
    elif cls is CannotConnect:
        assert e.kind == "unreachable" and BASE in str(e) and "it went wrong" in str(e) and "is it up?" in str(e)
    elif cls is Unreachable:
        assert exc_type.__name__ in str(e) and "failed while reading x" in str(e)


def test_the_client_is_the_injected_one_with_its_headers():
    seen = []

    def handler(request):
        seen.append(request)
        return httpx.Response(200, json={"ok": True})

    api = api_for(handler, headers=bearer("s3cret"))
    assert api.get_json("/a/b", what="reading", params={"q": "1"}) == {"ok": True}
    api.request("GET", "/log", what="reading a log", headers={"Accept": "*/*"})
    assert str(seen[0].url) == BASE + "/a/b?q=1"
    assert seen[0].headers["authorization"] == "Bearer s3cret" and seen[0].headers["accept"] == "application/json"
    assert seen[1].headers["accept"] == "*/*" and seen[1].headers["authorization"] == "Bearer s3cret"
    assert bearer(None) == {} and bearer("") == {}


# ---------------------------------------------------------------------------------------------- JSON


def test_a_body_that_is_not_json_is_a_clear_error():
    api = api_for(answer(200, text="<html><body>Sign in</body></html>", headers={"Content-Type": "text/html"}))
    with pytest.raises(Unreachable) as err:
        api.get_json("/x", what="reading x")
    assert "not JSON" in str(err.value) and "text/html" in str(err.value) and "login page" in str(err.value)
    api = api_for(answer(200, json=[1, 2]))
    with pytest.raises(Unreachable) as err:
        api.get_json("/x", what="reading x")
    assert "unexpected JSON" in str(err.value) and "list" in str(err.value)


@pytest.mark.parametrize(
    "response,detail",
    [
        (
            httpx.Response(403, json={"kind": "Status", "message": "pods is forbidden", "code": 403}),
            "pods is forbidden",
        ),
        (httpx.Response(404, json={"detail": "Job x not found"}), "Job x not found"),
        (
            httpx.Response(500, json={"errors": [{"error": "Invalid job id specified", "error_number": 2017}]}),
            "Invalid job id specified",
        ),
        (
            httpx.Response(500, text="Traceback (most recent call last):\n  ...\nConnectionError: agent is gone\n"),
            "ConnectionError: agent is gone",
        ),
        (httpx.Response(302, json={"kind": "Status", "metadata": {}}), ""),
        (httpx.Response(502), ""),
    ],
)
def test_error_detail(response, detail):
    assert error_detail(response) == detail


# ---------------------------------------------------------------------------------------------- the budget


def test_the_budget_bounds_each_requests_timeout():
    timeouts = []

    def handler(request):
        timeouts.append(request.extensions["timeout"])
        return httpx.Response(200, json={})

    api_for(handler, seconds=5.0).get_json("/x", what="reading x")
    api_for(handler, seconds=300.0).get_json("/x", what="reading x")
    short, long = timeouts
    assert 0 < short["read"] <= 5.0 and short["connect"] <= 5.0 and short["pool"] <= 5.0
    assert 290 < long["read"] <= 300.0 and long["connect"] == 10.0  # connecting never waits long


def test_a_spent_budget_asks_nothing(tmp_path):
    calls: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(200, json={})

    api = api_for(handler, seconds=30.0)
    api.budget.deadline = time.monotonic() - 1
    with pytest.raises(FetchTimeout):
        api.get_json("/x", what="reading x")
    with pytest.raises(FetchTimeout):
        api.get_tail("/log", tmp_path / "tail.log", 100, what="reading the log")
    assert calls == [] and not (tmp_path / "tail.log").exists()


# ---------------------------------------------------------------------------------------------- streamed tails


def numbered(n: int) -> bytes:
    return b"".join(b"line %06d of a long log\n" % i for i in range(n))


def test_get_tail_keeps_the_newest_bytes(tmp_path):
    body = numbered(20_000)  # ~480 KB, sent in chunks
    chunks = [body[i : i + 8192] for i in range(0, len(body), 8192)]
    api = api_for(lambda request: httpx.Response(200, content=iter(chunks)))
    dest = tmp_path / "tail.log"
    tail = api.get_tail("/log", dest, 10_000, what="reading the log")
    data = dest.read_bytes()
    assert tail.kept == len(data) <= 10_000 and tail.received == len(body) and tail.lines == 20_000
    assert data.endswith(b"line 019999 of a long log\n") and data.startswith(b"line ")


def test_get_tail_errors_remove_the_file(tmp_path):
    dest = tmp_path / "tail.log"
    api = api_for(answer(403, json={"message": 'cannot get resource "pods/log"'}))
    with pytest.raises(PermissionDenied) as err:
        api.get_tail("/log", dest, 1000, what="reading the log")
    assert err.value.detail == 'cannot get resource "pods/log"' and not dest.exists()

    def broken(request):
        def body():
            yield b"first line\n" * 100
            raise httpx.ReadError("connection reset", request=request)

        return httpx.Response(200, content=body())

    with pytest.raises(Unreachable) as reset:
        api_for(broken).get_tail("/log", dest, 1000, what="reading the log")
    assert "ReadError" in str(reset.value) and not dest.exists()


def test_get_tail_stops_when_the_budget_runs_out_mid_stream(tmp_path):
    dest = tmp_path / "tail.log"
    api: JsonApi | None = None

    def handler(request):
        def body():
            yield b"first chunk\n"
            assert api is not None  # assigned below, before the request streams
            api.budget.deadline = time.monotonic() - 1  # the clock runs out while the body streams
            yield b"second chunk\n"
            yield b"never read\n"

        return httpx.Response(200, content=body())

    api = api_for(handler)
    with pytest.raises(FetchTimeout) as err:
        api.get_tail("/log", dest, 1000, what="reading the log")
    assert "time budget ran out while reading the log" in str(err.value) and not dest.exists()


# ---------------------------------------------------------------------------------------------- the error classes


def test_every_class_keeps_its_kind_string():
    kinds = {
        cls: cls.kind
        for cls in (
            InvalidJobId,
            UnknownCluster,
            NotConfigured,
            UnknownJob,
            NotFound,
            Pending,
            PermissionDenied,
            Unreachable,
            CannotConnect,
            RateLimited,
            LogMissing,
            FetchTimeout,
        )
    }
    assert kinds == {
        InvalidJobId: "invalid_id",
        UnknownCluster: "unknown_cluster",
        NotConfigured: "not_configured",
        UnknownJob: "unknown_job",
        NotFound: "unknown_job",
        Pending: "pending",
        PermissionDenied: "permission",
        Unreachable: "unreachable",
        CannotConnect: "unreachable",
        RateLimited: "unreachable",
        LogMissing: "log_missing",
        FetchTimeout: "timeout",
    }


def test_the_older_two_argument_form_builds_the_subclass():
    err = FetchError("timeout", "`sacct` did not answer within 5s")
    assert type(err) is FetchTimeout and err.kind == "timeout" and str(err) == "`sacct` did not answer within 5s"
    assert type(FetchError("pending", "not yet")) is Pending
    assert str(Pending("pending", "not yet")) == "not yet"
    with pytest.raises(TypeError):
        FetchError("no_such_kind", "message")
    with pytest.raises(TypeError):
        FetchError("just a message")
    with pytest.raises(ValueError):
        Unreachable("pending", "a pending error is not unreachable")


def test_errors_survive_pickling():
    err = pickle.loads(pickle.dumps(RateLimited("slow down")))
    assert type(err) is RateLimited and str(err) == "slow down" and err.kind == "unreachable"
    err = pickle.loads(pickle.dumps(FetchError("log_missing", "gone")))
    assert type(err) is LogMissing and str(err) == "gone"
