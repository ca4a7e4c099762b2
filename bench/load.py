#!/usr/bin/env python3
"""Load benchmark: the real `denpex serve --http` against the fake Slack workspace, on loopback.

Starts the fake Slack workspace of the tests (``tests/fake_slack``) in a process of its own and one
or more real ``denpex serve --http`` processes (``--replicas``, sharing one ``DENPEX_DB``), then sends
a bounded burst of signed requests from a pool of sender threads, round-robin over the replicas:

* ``--mentions`` app_mention events, each in its own thread (distinct ``ts``) with a distinct
  pasted log (short CUDA OOM tracebacks, NCCL watchdog timeouts, disk-full errors);
* ``--retries`` Slack retries of some of those events (same body and ``event_id``,
  ``X-Slack-Retry-Num: 1``, ``X-Slack-Retry-Reason: http_timeout``): they must not answer twice;
* ``--commands`` slash commands (``/denpex help`` and ``/denpex status``, alternating);
* ``--buttons`` Acknowledge presses (``block_actions``) on diagnoses that were already answered.

It reports ack latency (request sent -> the bot's HTTP answer), for every mention how many final
answers the fake received in its thread (exactly one is right; 0 is "missing", >1 "duplicated"),
whether each answer is the right diagnosis for that paste, ":x:" failures, the time from the start
of the burst to the last answer, and the bot's peak RSS. Everything is bounded: a count per loop
and ``--timeout`` overall, after which whatever is missing is reported and the bots are stopped.

    .venv/bin/python bench/load.py --mentions 40 --concurrency 8     # a quick one
    .venv/bin/python bench/load.py                                   # 500 mentions at 50 in flight
    .venv/bin/python bench/load.py --replicas 2 --json > load.json
    .venv/bin/python bench/load.py --replicas 2 --postgres           # on a throwaway PostgreSQL
    .venv/bin/python bench/load.py --matrix --mentions 200           # 1 and 2 replicas, SQLite and PostgreSQL

``--postgres`` starts a throwaway PostgreSQL cluster (``tests/pg/cluster.py``: initdb and pg_ctl on a temporary
directory and a free loopback port) for the run and removes it afterwards; ``--matrix`` runs the same burst four
times (1 and 2 replicas, on SQLite and on PostgreSQL), each in a process of its own, and prints one table of
the ack p99, the answers per mention and the time to the last answer.

Exit status: 0 when every mention got exactly one right answer, 1 otherwise (2: could not start).
Only 127.0.0.1 is ever used. Progress goes to stderr; the Markdown table (or JSON) to stdout.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import http.client
import json
import multiprocessing
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from multiprocessing.connection import Connection
from pathlib import Path
from typing import BinaryIO

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fake_slack import FakeSlack, SlackDriver  # noqa: E402
from fake_slack import server as fake_server  # noqa: E402
from fake_slack.driver import SentRequest  # noqa: E402

HOST = "127.0.0.1"  # loopback only, for the fake and every bot
DENPEX_CMD: list[str] = []  # --denpex
STOP = threading.Event()  # set when the run ends (done, timed out, interrupted): waiting senders give up
SLACK_ACK_SECONDS = 3.0  # Slack counts a slower ack as a failure and retries the event
USER = "U123"


# -- the fake, made sure not to be the bottleneck ------------------------------------------------------


class _BigBacklogHTTPServer(ThreadingHTTPServer):
    """socketserver listens with a backlog of 5: under a burst of the bot's short-lived connections
    (urllib opens one per Web API call) SYNs get dropped and retried a second later, which would
    measure the fake, not the bot. Same server, deeper accept queue."""

    request_queue_size = 1024
    daemon_threads = True


# FakeSlack.start() looks the name up here; mypy refuses any assignment to a class name
fake_server.ThreadingHTTPServer = _BigBacklogHTTPServer  # type: ignore[misc]


class TimedFake(FakeSlack):
    """The fake Slack, also recording how long it spends on each Web API call (lock waits included), and
    handing out its recorded calls in a light, already classified form (see `light_call`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.service_seconds: list[float] = []

    def _api(self, method, args, token, token_in_json):
        started = time.perf_counter()
        try:
            return super()._api(method, args, token, token_in_json)
        finally:
            self.service_seconds.append(time.perf_counter() - started)

    @property
    def pid(self) -> int:
        return os.getpid()

    def calls_since(self, n: int) -> list[dict]:
        with self._lock:
            calls = self._calls[n:]
        return [light_call(c) for c in calls]

    def service(self) -> list[float]:
        return list(self.service_seconds)


def light_call(c) -> dict:
    """What the tracker needs of one recorded call (small enough to pass between processes)."""
    response = c.response if isinstance(c.response, dict) else {}
    out = {
        "method": c.method,
        "ok": c.ok,
        "status": c.status,
        "error": c.error,
        "time": c.time,
        "probe": any(k.lower() == "user-agent" and v == PROBE_AGENT for k, v in c.headers.items()),
        "channel": response.get("channel"),
        "ts": response.get("ts"),
    }
    if c.method in ("chat.postMessage", "chat.update") and c.ok:
        text, blocks = c.arg("text"), c.arg("blocks")
        out.update(
            thread_ts=str(c.arg("thread_ts") or ""),
            state=classify(text, blocks),
            acknowledged=acked(content_of(text, blocks)),
        )
    return out


def _fake_process(conn, channels: dict) -> None:
    """The fake Slack in a process of its own: its own interpreter lock, so the senders' threads in the main
    process do not slow its answers to the bot. Serves the main process's requests over `conn`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    _die_with_parent()
    fake = TimedFake(channels=channels).start()
    statics = {
        "team_id": fake.team_id,
        "team_domain": fake.team_domain,
        "app_id": fake.app_id,
        "bot_user_id": fake.bot_user_id,
        "bot_token": fake.bot_token,
        "signing_secret": fake.signing_secret,
        "url": fake.url,
        "api_url": fake.api_url,
        "pid": os.getpid(),
        "_channels": {
            k: {"name": v["name"], "is_im": v["is_im"], "is_private": v["is_private"]}
            for k, v in fake._channels.items()
        },
        "_users": {k: {"name": v["name"]} for k, v in fake._users.items()},
    }
    try:
        while True:
            try:
                name, args, kwargs = conn.recv()
            except (EOFError, OSError):
                break
            if name == "stop":
                conn.send(("ok", None))
                break
            try:
                result = statics if name == "statics" else getattr(fake, name)(*args, **kwargs)
                conn.send(("ok", result))
            except Exception as exc:  # handed back to the caller
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        fake.stop()


class FakeProcess:
    """The fake Slack in a child process, with what this script and the tests' driver use of a FakeSlack:
    its ids and URLs, channel and user names, and the methods below (one request at a time over a pipe)."""

    # some of the statics start() copies from the child (see _fake_process)
    bot_token: str
    signing_secret: str
    url: str
    api_url: str
    pid: int

    def __init__(self, channels: dict):
        self.channels_arg = channels
        self.proc: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self._lock = threading.Lock()

    def start(self) -> FakeProcess:
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_fake_process, args=(child, self.channels_arg), name="fake-slack", daemon=True)
        self.proc.start()
        child.close()
        self.__dict__.update(self._rpc("statics"))  # waits for the child to be up
        return self

    def _rpc(self, name: str, *args, **kwargs):
        conn = self._conn
        if conn is None:
            raise RuntimeError(f"the fake Slack process is not started ({name})")
        with self._lock:
            try:
                conn.send((name, args, kwargs))
                if not conn.poll(60):
                    raise RuntimeError(f"the fake Slack process did not answer {name} within 60 s")
                status, result = conn.recv()
            except (EOFError, OSError) as exc:
                raise RuntimeError(f"the fake Slack process is gone ({name}: {exc!r})") from None
        if status != "ok":
            raise RuntimeError(f"fake Slack {name}: {result}")
        return result

    def add_message(self, *args, **kwargs) -> dict:
        return self._rpc("add_message", *args, **kwargs)

    def issue_trigger(self, *args, **kwargs) -> str:
        return self._rpc("issue_trigger", *args, **kwargs)

    def new_response_url(self, *args, **kwargs) -> str:
        return self._rpc("new_response_url", *args, **kwargs)

    def message(self, channel: str, ts: str) -> dict | None:
        return self._rpc("message", channel, ts)

    def messages(self, channel: str) -> list[dict]:
        return self._rpc("messages", channel)

    def calls_since(self, n: int) -> list[dict]:
        return self._rpc("calls_since", n)

    def service(self) -> list[float]:
        return self._rpc("service")

    def stop(self) -> None:
        if self.proc is None or self._conn is None:
            return
        try:
            if self.proc.is_alive():
                self._rpc("stop")
        except (RuntimeError, OSError, EOFError):
            pass
        self.proc.join(10)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        self._conn.close()
        self.proc = None


# -- what is pasted -------------------------------------------------------------------------------------

KINDS = {
    "cuda_oom": "CUDA out of memory: the PyTorch caching allocator could not serve a GPU allocation",
    "nccl_watchdog": "NCCL watchdog: a collective ran past its timeout",
    "disk_full": "Checkpoint write failed: no space left on device (ENOSPC)",
}
KIND_CYCLE = ["cuda_oom", "cuda_oom", "cuda_oom", "nccl_watchdog", "disk_full"]


def pasted_log(kind: str, i: int, run: str) -> tuple[str, str]:
    """A short log of `kind`, distinct for (i, run) so content fingerprints differ; and a marker string
    the right answer quotes back (its first-evidence line), so an answer in the wrong thread is caught."""
    head = f"[rank0]: step {1000 + i} loss {2 + (i % 97) / 100:.4f} lr 3.0e-04 run {run}\n"
    if kind == "cuda_oom":
        marker = f"Tried to allocate {1 + i // 100}.{i % 100:02d} GiB"
        body = (
            "[rank3]: Traceback (most recent call last):\n"
            '[rank3]:   File "/workspace/train.py", line 211, in <module>\n'
            "[rank3]:     loss.backward()\n"
            f"[rank3]: torch.OutOfMemoryError: CUDA out of memory. {marker}. GPU 3 has a total capacity of "
            "79.10 GiB of which 1.06 GiB is free."
        )
    elif kind == "nccl_watchdog":
        marker = f"SeqNum={100000 + i}"
        body = (
            f"[rank1]:[E1130 13:10:01.000000000 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective "
            f"operation timeout: WorkNCCL({marker}, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
            "Timeout(ms)=600000) ran for 600031 milliseconds before timing out."
        )
    else:
        marker = f"/ckpt/{run}/step_{i}/model.pt"
        body = (
            "[rank0]: Traceback (most recent call last):\n"
            '[rank0]:   File "/workspace/train.py", line 88, in save\n'
            "[rank0]:     torch.save(state, path)\n"
            f"[rank0]: OSError: [Errno 28] No space left on device: '{marker}'"
        )
    return head + body, marker


# -- classifying what the bot posted ----------------------------------------------------------------------

ANSWER, FAILED, NOTICE, PROGRESS = "answer", "failed", "notice", "progress"
DETAIL = "detail"  # the answer's evidence, fix and checklist, posted in its thread: neither final nor progress
FINAL = (ANSWER, FAILED, NOTICE)


def content_of(text, blocks) -> str:
    if isinstance(blocks, str):
        return (text or "") + blocks
    return (text or "") + json.dumps(blocks or [])


def acked(blob: str) -> bool:
    """The message shows an Acknowledge press (its state line: "Acked by <@U…>"; "Acknowledged by" before)."""
    return "Acked by <@" in blob or "Acknowledged by <@" in blob


def classify(text, blocks) -> str:
    """A diagnosis (it has the Acknowledge button, or says no failure was found), a ":x:" failure, another
    one-paragraph notice (":warning:", ":link: Already diagnosed", the mention help), the answer's detail in its
    thread, or else progress ("Diagnosing…", "queued: N ahead of you", anything new)."""
    blob = content_of(text, blocks)
    if "denpex_buttons" in blob or "denpex_ack" in blob or "No failure found" in blob:  # Acknowledged: no denpex_ack
        return ANSWER
    t = (text or "").lstrip()
    if t.startswith("Evidence, fix and checklist for"):
        return DETAIL
    if t.startswith(":x:"):
        return FAILED
    if t.startswith((":warning:", ":link:", ":no_entry", ":scissors:")) or "Paste a log after the mention" in t:
        return NOTICE
    return PROGRESS


def incident_of(blocks) -> str | None:
    for block in blocks or []:
        for el in block.get("elements", []) if isinstance(block, dict) else []:
            if isinstance(el, dict) and el.get("action_id") == "denpex_ack":
                return el.get("value")
    return None


# -- bookkeeping ------------------------------------------------------------------------------------------


@dataclass
class Mention:
    index: int
    kind: str
    channel: str
    ts: str
    text: str
    marker: str
    replica: int
    warmup: bool = False
    body: bytes | None = None  # the exact event body, for the retry
    event_id: str | None = None
    acked: threading.Event = field(default_factory=threading.Event)  # set once the original's ack came back
    sent_at: float | None = None  # wall clock (time.time(), as the fake's call times)
    ack_status: int | None = None
    ack_error: str | None = None
    retried: bool = False
    bot_msgs: list = field(default_factory=list)  # [(channel, ts)] of the bot's messages in the thread
    button_pressed: bool = False


@dataclass
class BotMsg:
    mention: Mention | None
    channel: str
    ts: str
    state: str = PROGRESS  # from the calls, as they were recorded
    first_final_at: float | None = None  # when a final answer first arrived
    last_change_at: float = 0.0
    ever_final: bool = False
    acknowledged: bool = False  # shows "Acknowledged by <@…>" (after a button press)
    prev_at: float | None = None  # when the previous call on it arrived
    posted_at: float | None = None  # its chat.postMessage
    wait_s: float | None = None  # posted -> last progress call before the answer (waiting for a worker)
    step_s: float | None = None  # last progress call -> first final answer: one worker's diagnosis
    updates: int = 0


@dataclass
class Op:
    kind: str  # mention | retry | command | button
    replica: int
    mention: Mention | None = None
    text: str = ""
    channel: str = ""
    latency: float | None = None
    status: int | None = None
    error: str | None = None
    ok: bool | None = None
    note: str = ""
    target: tuple[str, str] | None = None  # a button press: the bot message pressed on


class Tracker:
    """Follows the fake's recorded Web API calls incrementally: which bot message belongs to which mention,
    and each bot message's latest state. Cheap: only new calls are looked at, outside the fake's lock."""

    def __init__(self, fake):
        self.fake = fake
        self.seen = 0
        self.by_thread: dict[tuple[str, str], Mention] = {}
        self.msgs: dict[tuple[str, str], BotMsg] = {}
        self.stray: list[BotMsg] = []
        self.methods: collections.Counter[str] = collections.Counter()
        self.refusals: collections.Counter[str] = collections.Counter()
        self.response_urls = 0
        self.last_change = time.time()
        self.lock = threading.Lock()

    def register(self, m: Mention) -> None:
        with self.lock:
            self.by_thread[(m.channel, m.ts)] = m

    def update(self) -> None:
        with self.lock:
            calls = self.fake.calls_since(self.seen)
            self.seen += len(calls)
            for c in calls:
                if c["probe"]:
                    continue
                self.methods[c["method"]] += 1
                if c["method"] == "response_url":
                    self.response_urls += 1
                if not c["ok"]:
                    if c["method"] not in ("response_url", "download", "upload"):
                        self.refusals[f"{c['method']}: {c['error']} (HTTP {c['status']})"] += 1
                    continue
                if c["method"] == "chat.postMessage":
                    channel, ts = c["channel"], c["ts"]
                    mention = self.by_thread.get((channel, c["thread_ts"]))
                    bm = BotMsg(mention, channel, ts)
                    self.msgs[(channel, ts)] = bm
                    if mention is None:
                        self.stray.append(bm)
                    else:
                        mention.bot_msgs.append((channel, ts))
                    self._apply(bm, c)
                elif c["method"] == "chat.update":
                    updated = self.msgs.get((c["channel"], c["ts"]))
                    if updated is not None:
                        updated.updates += 1
                        self._apply(updated, c)

    def _apply(self, bm: BotMsg, call: dict) -> None:
        state, when = call["state"], call["time"]
        if state != bm.state or bm.last_change_at == 0.0:
            self.last_change = time.time()
        bm.state, bm.last_change_at = state, when
        if state == ANSWER and call["acknowledged"]:
            bm.acknowledged = True
        if state in FINAL:
            bm.ever_final = True
            if bm.first_final_at is None:
                bm.first_final_at = when
                if bm.prev_at is not None and bm.posted_at is not None:  # a call before: it set both
                    bm.step_s = when - bm.prev_at
                    bm.wait_s = bm.prev_at - bm.posted_at
        if bm.posted_at is None:
            bm.posted_at = when
        bm.prev_at = when

    def pending(self, mentions: list[Mention]) -> list[Mention]:
        """Mentions with no final answer yet, or with a bot message still showing progress."""
        with self.lock:
            out = []
            for m in mentions:
                states = [self.msgs[k].state for k in m.bot_msgs]
                if not any(s in FINAL for s in states) or any(s == PROGRESS for s in states):
                    out.append(m)
            return out

    def unacknowledged_presses(self, ops: list) -> int:
        """Acknowledge presses the bot acked whose message does not show it yet."""
        with self.lock:
            return sum(
                1
                for op in ops
                if op.kind == "button"
                and op.status == 200
                and op.target is not None
                and not self.msgs[op.target].acknowledged
            )

    def answered_diagnoses(self) -> list[tuple[Mention, BotMsg]]:
        with self.lock:
            out = []
            for bm in self.msgs.values():
                if bm.mention is not None and not bm.mention.warmup and bm.state == ANSWER:
                    out.append((bm.mention, bm))
            return out


# -- the bot processes ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def denpex_cmd() -> list[str]:
    if DENPEX_CMD:
        return list(DENPEX_CMD)
    exe = shutil.which("denpex", path=str(Path(sys.executable).parent)) or shutil.which("denpex")
    return [exe] if exe else [sys.executable, "-m", "bot.cli"]


def _die_with_parent() -> None:
    """In a child process: get SIGTERM if this benchmark dies without cleaning up (Linux)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:
        pass


# Runs a command after asking for SIGTERM on the benchmark's death: set in the fresh child (not in a
# preexec_fn, which is unsafe with threads running) and kept across the exec; same pid as the command.
_ORPHAN_GUARD = (
    "import ctypes, os, signal, sys\n"
    "try:\n    ctypes.CDLL('libc.so.6').prctl(1, signal.SIGTERM)\nexcept Exception:\n    pass\n"
    "if os.getppid() == 1:\n    sys.exit('the benchmark is gone')\n"
    "os.execvp(sys.argv[1], sys.argv[1:])\n"
)


def guarded(cmd: list[str]) -> list[str]:
    return [sys.executable, "-c", _ORPHAN_GUARD, *cmd]


def bot_ack_histogram(bot: Bot) -> dict:
    """The bot's own `denpex_ack_seconds` (all kinds): what the acks cost inside the bot, as against the
    senders' clock, which also counts the loopback, waitress reading the request and the senders' own waits."""
    try:
        text = httpx.get(f"http://{HOST}:{bot.port}/metrics", timeout=5, trust_env=False).text
    except httpx.HTTPError:
        return {}
    buckets: dict[float, float] = collections.defaultdict(float)
    for m in re.finditer(r'^denpex_ack_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\S+)$', text, re.M):
        buckets[float(m.group(1))] += float(m.group(2))
    if not buckets or not buckets[float("inf")]:
        return {}
    n = buckets[float("inf")]

    def quantile(q: float) -> float:
        return next(le for le, count in sorted(buckets.items()) if count >= q * n) * 1000

    return {"n": int(n), "p50_ms": quantile(0.5), "p99_ms": quantile(0.99)}


class Bot:
    def __init__(self, n: int, env: dict, workdir: Path):
        self.n, self.env, self.workdir = n, env, workdir
        self.port = free_port()
        self.log_path = workdir / f"bot-{n}.log"
        self.proc: subprocess.Popen | None = None
        self.log: BinaryIO | None = None
        self.acks_inside: dict = {}

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def events_url(self) -> str:
        return f"http://{HOST}:{self.port}/slack/events"

    def start(self, timeout: float = 60) -> Bot:
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            guarded(denpex_cmd() + ["serve", "--http", "--host", HOST, "--port", str(self.port)]),
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            cwd=self.workdir,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        with httpx.Client(trust_env=False, timeout=1) as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"bot {self.n} exited with {self.proc.returncode}:\n{self.tail()}")
                try:
                    if client.get(f"http://{HOST}:{self.port}/healthz").status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
        raise RuntimeError(f"bot {self.n} never became healthy within {timeout}s:\n{self.tail()}")

    def stop(self) -> int | None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(40)  # the bot drains in-flight work on SIGTERM (bounded by its own grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.log is not None:
            self.log.close()
            self.log = None
        return self.proc.returncode if self.proc is not None else None

    def tail(self, n: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-n:]
        except OSError:
            return ""


def _proc_tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo += [int(c) for c in fh.read().split()]
        except OSError:
            pass
    return out


def _status_kb(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS  # utime + stime
    except (OSError, IndexError, ValueError):
        return 0.0


class RssSampler(threading.Thread):
    """Polls /proc for each bot's process tree: the peak of the summed VmRSS, each process's VmHWM, and
    CPU time (the bots', the fake Slack process's, and this process's: the senders)."""

    def __init__(self, bots: list[Bot], fake_pid: int, interval: float = 0.2):
        super().__init__(daemon=True, name="rss")
        self.bots, self.fake_pid, self.interval = bots, fake_pid, interval
        self.stop_event = threading.Event()
        self.peak_tree_kb = [0] * len(bots)
        self.hwm_kb = [0] * len(bots)
        self.cpu: list[tuple[float, list[float], float, float]] = []  # (wall, each bot's CPU, ours, the fake's)
        self.lock = threading.Lock()

    def sample(self) -> None:
        with self.lock:
            bot_cpu = []
            for i, bot in enumerate(self.bots):
                if bot.proc is None or bot.proc.poll() is not None:
                    bot_cpu.append(self.cpu[-1][1][i] if self.cpu else 0.0)
                    continue
                pids = _proc_tree(bot.proc.pid)
                self.peak_tree_kb[i] = max(self.peak_tree_kb[i], sum(_status_kb(p, "VmRSS:") for p in pids))
                self.hwm_kb[i] = max(self.hwm_kb[i], sum(_status_kb(p, "VmHWM:") for p in pids))
                bot_cpu.append(sum(_cpu_seconds(p) for p in pids))
            fake_cpu = _cpu_seconds(self.fake_pid) if self.fake_pid != os.getpid() else 0.0
            self.cpu.append((time.time(), bot_cpu, time.process_time(), fake_cpu))

    def utilisation(self, start: float, end: float | None) -> dict | None:
        """CPU used between two wall-clock times, as a fraction of one core (bots each, and this process)."""
        with self.lock:
            if end is None or end <= start or len(self.cpu) < 2:
                return None
            before = [s for s in self.cpu if s[0] <= start] or self.cpu[:1]
            after = [s for s in self.cpu if s[0] >= end] or self.cpu[-1:]
            a, b = before[-1], after[0]
            wall = b[0] - a[0]
            if wall <= 0:
                return None
            return {
                "window_s": round(wall, 2),
                "bots_core_fraction": [round((y - x) / wall, 2) for x, y in zip(a[1], b[1], strict=True)],
                "benchmark_core_fraction": round((b[2] - a[2]) / wall, 2),
                "fake_core_fraction": round((b[3] - a[3]) / wall, 2) if self.fake_pid != os.getpid() else None,
            }

    def run(self) -> None:
        while not self.stop_event.wait(self.interval):
            self.sample()


# A separate process that calls the fake's auth.test every few ms the way the bot does (urllib, a new
# connection per call): the fake's round-trip as a client outside this process sees it, to show whether
# the fake (which shares this process with the senders) is slow while the bot works.
PROBE_AGENT = "denpex-load-probe"
PROBE = r"""
import sys, time, urllib.request
url, token, interval, limit = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
end = time.monotonic() + limit
while time.monotonic() < end:
    wall, t = time.time(), time.perf_counter()
    try:
        req = urllib.request.Request(url + "auth.test", data=b"", headers={"Authorization": "Bearer " + token,
                                                                                "User-Agent": "denpex-load-probe"})
        opener.open(req, timeout=10).read()
        print(f"{wall:.6f} {time.perf_counter() - t:.6f}", flush=True)
    except Exception as exc:
        print(f"{wall:.6f} error", flush=True)
    time.sleep(interval)
"""


BOT_PROBE = r"""
import hashlib, hmac, json, sys, time, urllib.request
url, secret, interval, limit = sys.argv[1], sys.argv[2].encode(), float(sys.argv[3]), float(sys.argv[4])
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
end = time.monotonic() + limit
while time.monotonic() < end:
    body = json.dumps({"type": "url_verification", "challenge": "probe", "token": "x"}).encode()
    ts = str(int(time.time()))
    sig = "v0=" + hmac.new(secret, b"v0:" + ts.encode() + b":" + body, hashlib.sha256).hexdigest()
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json",
                                                          "X-Slack-Request-Timestamp": ts, "X-Slack-Signature": sig})
    wall, t = time.time(), time.perf_counter()
    try:
        opener.open(req, timeout=10).read()
        print(f"{wall:.6f} {time.perf_counter() - t:.6f}", flush=True)
    except Exception as exc:
        print(f"{wall:.6f} error", flush=True)
    time.sleep(interval)
"""


def start_bot_probe(bot: Bot, secret: str, limit: float) -> subprocess.Popen:
    """Acks as a quiet client sees them: one signed request at a time from a process of its own, so the
    senders' own interpreter lock (50 threads) is not in the number."""
    return subprocess.Popen(
        guarded([sys.executable, "-c", BOT_PROBE, bot.events_url, secret, "0.02", str(limit)]),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        env={k: v for k, v in os.environ.items() if "proxy" not in k.lower()},
    )


def start_probe(fake, limit: float) -> subprocess.Popen:
    return subprocess.Popen(
        guarded([sys.executable, "-c", PROBE, fake.api_url, fake.bot_token, "0.02", str(limit)]),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        env={k: v for k, v in os.environ.items() if "proxy" not in k.lower()},
    )


def stop_probe(probe: subprocess.Popen | None) -> list[tuple[float, float | None]]:
    if probe is None:
        return []
    if probe.poll() is None:
        probe.terminate()
    try:
        out, _ = probe.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        probe.kill()
        out, _ = probe.communicate()
    samples = []
    for line in (out or "").splitlines():
        parts = line.split()
        if len(parts) == 2:
            samples.append((float(parts[0]), None if parts[1] == "error" else float(parts[1])))
    return samples


# -- sending ----------------------------------------------------------------------------------------------


def make_mention(
    fake, tracker: Tracker, index: int, kind: str, channel: str, run: str, replica: int, warmup: bool = False
) -> Mention:
    log, marker = pasted_log(kind, index, run)
    text = "<@U0BOT> what happened here?\n" + log
    msg = fake.add_message(channel, text, user=USER)  # the thread the answer goes to must exist
    m = Mention(index, kind, channel, msg["ts"], text, marker, replica, warmup=warmup)
    tracker.register(m)
    return m


def send_mention(driver: TimingDriver, m: Mention, op: Op) -> None:
    event = {
        "type": "app_mention",
        "user": USER,
        "channel": m.channel,
        "ts": m.ts,
        "text": m.text,
        "event_ts": m.ts,
        "client_msg_id": secrets.token_hex(16),
    }
    envelope = driver.event_envelope(event)
    m.body, m.event_id = json.dumps(envelope).encode("utf-8"), envelope["event_id"]
    m.sent_at = time.time()
    try:
        _timed(op, driver, lambda: driver.send("event", m.body, "application/json", payload=envelope))
    finally:
        m.ack_status, m.ack_error = op.status, op.error
        op.ok = op.status == 200
        m.acked.set()


def send_retry(driver: TimingDriver, m: Mention, op: Op, deadline: float) -> None:
    """Slack redelivering the event: the same body and event_id, freshly signed, with the retry headers."""
    while not m.acked.is_set() and not STOP.is_set() and time.monotonic() < deadline:
        m.acked.wait(0.2)
    if not m.acked.is_set() or m.body is None or STOP.is_set():
        op.error, op.ok = "not sent: the run ended before the original was acked", False
        return
    m.retried = True
    _timed(
        op,
        driver,
        lambda: driver.send(
            "event",
            m.body,
            "application/json",
            extra_headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"},
        ),
    )
    op.ok = op.status == 200


def send_command(driver: TimingDriver, op: Op) -> None:
    resp = _timed(op, driver, lambda: driver.command(op.text, channel_id=op.channel, user_id=USER))
    if resp is None:
        op.ok = False
        return
    body = resp.text
    if op.text == "help":
        op.ok = resp.status_code == 200 and "/denpex diagnose" in body
    else:
        op.ok = resp.status_code == 200 and ("Open incidents in this channel" in body or "No open incidents" in body)
    if not op.ok:
        op.note = body[:200]


class ButtonPicker:
    """Hands each button press a distinct mention whose diagnosis is already answered."""

    def __init__(self, tracker: Tracker, mentions: list[Mention]):
        self.tracker, self.mentions = tracker, mentions
        self.taken: set[tuple[str, str]] = set()
        self.lock = threading.Lock()

    def pick(self, deadline: float) -> tuple[Mention, BotMsg, dict] | None:
        while time.monotonic() < deadline and not STOP.is_set():
            everything_answered = not self.tracker.pending(self.mentions)  # before the look: no race
            for mention, bm in self.tracker.answered_diagnoses():
                with self.lock:
                    if (bm.channel, bm.ts) in self.taken:
                        continue
                    self.taken.add((bm.channel, bm.ts))
                message = self.tracker.fake.message(bm.channel, bm.ts)
                if message and incident_of(message.get("blocks")):
                    return mention, bm, message
            if everything_answered:
                return None  # every diagnosis already has its press (some answers may be failures)
            time.sleep(0.2)
        return None


def send_button(driver: TimingDriver, picker: ButtonPicker, op: Op, deadline: float) -> None:
    picked = picker.pick(deadline)
    if picked is None:
        op.error, op.ok = "not sent: no answered diagnosis left to press Acknowledge on", False
        return
    mention, bm, message = picked
    op.mention, op.target = mention, (bm.channel, bm.ts)
    mention.button_pressed = True
    iid = incident_of(message.get("blocks"))
    _timed(
        op,
        driver,
        lambda: driver.block_action(
            "denpex_ack", value=iid, message_ts=bm.ts, channel=bm.channel, user_id=USER, message=message
        ),
    )
    op.ok = op.status == 200


class TimingDriver(SlackDriver):
    """The tests' driver, timing only the HTTP exchange (not building the payload, which may wait on the
    fake's lock for a trigger id or response URL)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.local = threading.local()

    def send(self, kind: str, body: bytes, content_type: str, *, payload=None, extra_headers=None, **sig):
        """As SlackDriver.send, over one plain keep-alive connection per sender thread: httpx's shared
        pool, locked on every request, put 50 threads' waits for each other into the ack times."""
        headers = self.signed_headers(body, content_type, **sig)
        headers.update(extra_headers or {})
        req = SentRequest(kind, body, headers, None, payload)
        self.sent.append(req)
        url = urllib.parse.urlsplit(self.app_url)
        self.local.latency = None
        for attempt in (1, 2):  # a keep-alive connection the bot closed in the meantime is opened again once
            conn = getattr(self.local, "conn", None)
            if conn is None:
                conn = self.local.conn = http.client.HTTPConnection(url.hostname or HOST, url.port, timeout=30)
            started = time.perf_counter()
            try:
                conn.request("POST", url.path, body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
            except (http.client.HTTPException, OSError) as exc:
                conn.close()
                self.local.conn = None
                if attempt == 2 or isinstance(exc, TimeoutError):
                    self.local.latency = time.perf_counter() - started
                    raise httpx.TransportError(f"{type(exc).__name__}: {exc}") from exc
                continue
            self.local.latency = time.perf_counter() - started
            req.response = httpx.Response(resp.status, headers=resp.getheaders(), content=data)
            return req.response


def _timed(op: Op, driver: TimingDriver, fn):
    started = time.perf_counter()
    try:
        resp = fn()
    except httpx.HTTPError as exc:
        op.latency = getattr(driver.local, "latency", None) or time.perf_counter() - started
        op.error = f"{type(exc).__name__}: {exc}"[:200]
        return None
    op.latency = getattr(driver.local, "latency", None) or time.perf_counter() - started
    op.status = resp.status_code
    return resp


def schedule(args, mentions: list[Mention], channels: list[str], replicas: int) -> list[Op]:
    """Mentions in order; each retry a little after its original (on another replica when there are
    several); commands spread evenly; button presses spread over the last two thirds."""
    n = len(mentions)
    ops: list[tuple[float, int, Op]] = []
    for i, m in enumerate(mentions):
        ops.append((float(i), 0, Op("mention", m.replica, mention=m)))
    if n and args.retries:
        step = max(1, n // args.retries)
        gap = max(1, args.concurrency)
        for j, i in enumerate(range(0, n, step)):
            if j >= args.retries:
                break
            m = mentions[i]
            ops.append((i + gap + 0.5, 1, Op("retry", (m.replica + 1) % replicas, mention=m)))
    for j in range(args.commands):
        pos = (j + 0.5) * n / max(1, args.commands)
        ops.append(
            (
                pos,
                2,
                Op(
                    "command",
                    j % replicas,
                    text="help" if j % 2 == 0 else "status",
                    channel=channels[j % len(channels)],
                ),
            )
        )
    for j in range(args.buttons):
        pos = n / 3 + (j + 0.5) * (2 * n / 3) / max(1, args.buttons)
        ops.append((pos, 3, Op("button", j % replicas)))
    ops.sort(key=lambda t: (t[0], t[1]))
    return [op for _, _, op in ops]


# -- reporting --------------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def latency_summary(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50_ms": _ms(pct(values, 0.5)),
        "p95_ms": _ms(pct(values, 0.95)),
        "p99_ms": _ms(pct(values, 0.99)),
        "max_ms": _ms(max(values) if values else None),
        "over_3s": sum(1 for v in values if v > SLACK_ACK_SECONDS),
    }


def _ms(v: float | None) -> float | None:
    return None if v is None else round(v * 1000, 1)


_NUMBERS = re.compile(r"\b\d[\d.:,-]*\b|\b[0-9a-f]{8,}\b")
_RETRY_SEEN = re.compile(r"acknowledging the retry|already (?:handled|accepted|seen)")  # the bot's wording
_LEVEL = re.compile(r"^\S+ \S+ (ERROR|WARNING|CRITICAL) (\S+): (.*)$")


def log_findings(path: Path, limit: int = 8) -> dict:
    """Distinct ERROR/WARNING lines and exceptions in a bot's log, numbers normalised, most frequent first."""
    levels: collections.Counter[str] = collections.Counter()
    exceptions: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []
    in_tb = False
    for line in lines:
        m = _LEVEL.match(line)
        if m:
            key = f"{m.group(1)} {m.group(2)}: {_NUMBERS.sub('N', m.group(3))[:160]}"
            levels[key] += 1
            examples.setdefault(key, line[:300])
            in_tb = False
            continue
        if line.startswith("Traceback"):
            in_tb = True
        elif (
            in_tb
            and line
            and not line.startswith((" ", "\t"))
            and not line.startswith("During handling")
            and not line.startswith("The above exception")
        ):
            key = _NUMBERS.sub("N", line)[:200]
            exceptions[key] += 1
            examples.setdefault(key, line[:300])
            in_tb = False
    return {
        "lines": len(lines),
        "retries_acknowledged_as_seen": sum(bool(_RETRY_SEEN.search(line)) for line in lines),
        "log_lines": [{"count": c, "line": examples[k]} for k, c in levels.most_common(limit)],
        "exceptions": [{"count": c, "line": examples[k]} for k, c in exceptions.most_common(limit)],
    }


def evaluate(fake, tracker: Tracker, mentions: list[Mention], burst_start: float) -> dict:
    """Final verdict per mention from the fake's stored messages (what a user would see)."""
    tracker.update()
    stored: dict[tuple[str, str], dict] = {}
    for channel in sorted({m.channel for m in mentions}):
        for msg in fake.messages(channel):
            stored[(channel, msg["ts"])] = msg
    counts: collections.Counter[str] = collections.Counter()
    examples: dict[str, list] = collections.defaultdict(list)
    answer_latency, steps, waits, last_answer = [], [], [], None
    disagreements = overwritten = stuck = 0
    wrong_kinds: collections.Counter[str] = collections.Counter()
    histogram: collections.Counter[int] = collections.Counter()
    for m in mentions:
        finals: list[tuple[str, bool, BotMsg, dict]] = []
        states: list[str] = []
        for key in m.bot_msgs:
            bm = tracker.msgs[key]
            msg = stored.get(key)
            if msg is None:
                state, blob = "deleted", ""
            else:
                state, blob = (
                    classify(msg.get("text"), msg.get("blocks")),
                    content_of(msg.get("text"), msg.get("blocks")),
                )
            if state != bm.state:
                disagreements += 1
            if state == PROGRESS and bm.ever_final:
                overwritten += 1
            if state == PROGRESS:
                stuck += 1
            states.append(state)
            if state in FINAL and msg is not None:  # a deleted message is not final
                right = state == ANSWER and KINDS[m.kind] in blob and m.marker in blob
                finals.append((state, right, bm, msg))
        n = len(finals)
        histogram[n] += 1
        if n == 0:
            counts["missing"] += 1
            why = (
                ("ack failed: " + (m.ack_error or f"HTTP {m.ack_status}"))
                if m.ack_status != 200
                else (
                    "no bot message in the thread" if not m.bot_msgs else "still showing progress: " + ", ".join(states)
                )
            )
            examples["missing"].append(f"#{m.index} {m.channel}/{m.ts} ({why})")
        if n > 1:
            counts["duplicated"] += 1
            if m.retried:
                counts["duplicated_after_retry"] += 1
            examples["duplicated"].append(
                f"#{m.index} {m.channel}/{m.ts}: {n} answers "
                f"({', '.join(s for s, *_ in finals)}){' [retried]' if m.retried else ''}"
            )
        if any(s == FAILED for s, *_ in finals):
            counts["failed"] += 1
            examples["failed"].append(f"#{m.index} {m.kind} {m.channel}/{m.ts}")
        bad = [(s, msg) for s, right, _, msg in finals if s != FAILED and not right]
        if bad:
            counts["wrong"] += 1
            for state, msg in bad:
                wrong_kinds[f"{state}: {(msg.get('text') or '')[:70]}"] += 1
            examples["wrong"].append(f"#{m.index} expected {m.kind}: {(bad[0][1].get('text') or '')[:100]!r}")
        if n == 1 and finals[0][1]:
            counts["right"] += 1
        if finals:
            first = min(bm.first_final_at or 0 for _, _, bm, _ in finals)
            if first and m.sent_at:
                answer_latency.append(first - m.sent_at)
            steps += [bm.step_s for _, _, bm, _ in finals if bm.step_s is not None]
            waits += [bm.wait_s for _, _, bm, _ in finals if bm.wait_s is not None]
            latest = max(bm.first_final_at or 0 for _, _, bm, _ in finals)
            last_answer = latest if last_answer is None else max(last_answer, latest)
        if m.button_pressed:
            counts["buttons_target"] += 1
            if any(acked(content_of(msg.get("text"), msg.get("blocks"))) for *_, msg in finals):
                counts["buttons_applied"] += 1
    return {
        "mentions": len(mentions),
        "right": counts["right"],
        "missing": counts["missing"],
        "duplicated": counts["duplicated"],
        "duplicated_after_retry": counts["duplicated_after_retry"],
        "failed": counts["failed"],
        "wrong": counts["wrong"],
        "wrong_kinds": dict(wrong_kinds.most_common(5)),
        "progress_stuck_messages": stuck,
        "final_overwritten_by_progress": overwritten,
        "calls_vs_stored_disagreements": disagreements,
        "stray_bot_messages": len(tracker.stray),
        "buttons_target": counts["buttons_target"],
        "buttons_applied": counts["buttons_applied"],
        "answers_per_mention": {str(k): v for k, v in sorted(histogram.items())},
        "last_answer_at": last_answer,
        "time_to_last_answer_s": round(last_answer - burst_start, 2) if last_answer else None,
        "answer_latency": latency_summary(answer_latency),
        "last_progress_to_answer": latency_summary(steps),
        "posted_to_last_progress": latency_summary(waits),
        "examples": {k: v[:10] for k, v in examples.items()},
    }


def markdown(result: dict) -> str:
    a = result["answers"]
    ack = result["ack_latency"]

    def f(v, unit=""):
        return "n/a" if v is None else f"{v:,.1f}{unit}" if isinstance(v, float) else f"{v}{unit}"

    cfg, req = result["config"], result["requests"]
    not_200 = str(req["not_200"])
    if req["not_200"]:
        not_200 += " (" + "; ".join(f"{k} ×{v}" for k, v in req["not_200_kinds"].items()) + ")"
    if req["unsent"]:
        not_200 += f"; not sent (timeout, or no diagnosis left to press): {req['unsent']}"
    deduped = sum(r["log"]["retries_acknowledged_as_seen"] for r in result["replicas"])
    lines = [
        f"## denpex load: {cfg['mentions']} mentions at concurrency {cfg['concurrency']}, {cfg['retries']} retries, "
        f"{cfg['commands']} commands, {cfg['buttons']} buttons, {cfg['replicas']} replica(s)",
        "",
        "| metric | value |",
        "|---|---|",
        f"| ack latency p50 / p95 / p99 / max (all {ack['all']['n']} requests) | {f(ack['all']['p50_ms'])} / "
        f"{f(ack['all']['p95_ms'])} / {f(ack['all']['p99_ms'])} / {f(ack['all']['max_ms'])} ms |",
    ]
    for kind in ("mention", "retry", "command", "button"):
        s = ack.get(kind)
        if s and s["n"]:
            lines.append(
                f"| · {kind} acks p50 / p95 / p99 / max ({s['n']}) | {f(s['p50_ms'])} / {f(s['p95_ms'])} / "
                f"{f(s['p99_ms'])} / {f(s['max_ms'])} ms |"
            )
    qc = result.get("quiet_client_acks") or {}
    if qc.get("n"):
        lines.append(
            f"| · acks seen by a quiet client in its own process, one signed request at a time, p50 / p95 / "
            f"p99 / max ({qc['n']} during the burst{', ' + str(qc['errors']) + ' errors' if qc['errors'] else ''}) | "
            f"{f(qc['p50_ms'])} / {f(qc['p95_ms'])} / {f(qc['p99_ms'])} / {f(qc['max_ms'])} ms |"
        )
    lines += [
        f"| acks slower than Slack's 3 s | {ack['all']['over_3s']} |",
        f"| requests not acked 200 (errors / timeouts) | {not_200} |",
        f"| mentions answered exactly once, rightly | {a['right']} / {a['mentions']} |",
        f"| answers per mention (count: mentions) | "
        f"{', '.join(f'{k}: {v}' for k, v in a['answers_per_mention'].items())} |",
        f"| missing (no answer) | {a['missing']} |",
        f"| duplicated (>1 answer) | {a['duplicated']} (after a retry: {a['duplicated_after_retry']}; the bot logged "
        f"{deduped} of {req['retries_acked']} retries as already handled) |",
        f'| failed (":x:") | {a["failed"]} |',
        f"| wrong (another diagnosis or notice) | {a['wrong']} |",
        f"| answer latency p50 / p95 / max (mention sent → answer) | {f(a['answer_latency']['p50_ms'])} / "
        f"{f(a['answer_latency']['p95_ms'])} / {f(a['answer_latency']['max_ms'])} ms |",
        f"| first bot message → its last progress update p50 / p95 / max (mostly queueing) | "
        f"{f(a['posted_to_last_progress']['p50_ms'])} / {f(a['posted_to_last_progress']['p95_ms'])} / "
        f"{f(a['posted_to_last_progress']['max_ms'])} ms |",
        f"| last progress update → answer p50 / p95 / max (one worker's diagnosis, Slack calls included) | "
        f"{f(a['last_progress_to_answer']['p50_ms'])} / {f(a['last_progress_to_answer']['p95_ms'])} / "
        f"{f(a['last_progress_to_answer']['max_ms'])} ms |",
        f"| time from burst start to last answer | {f(a['time_to_last_answer_s'], ' s')} |",
        f"| commands right (help/status text) | {req['commands_ok']} / {cfg['commands']} |",
        f"| Acknowledge presses shown on the message | {a['buttons_applied']} / {cfg['buttons']} |",
    ]
    for r in result["replicas"]:
        inside = r.get("acks_inside") or {}
        if inside.get("n"):
            lines.append(
                f"| bot {r['n']}: its own ack time, request in → response out, p50 / p99 (from its "
                f"/metrics histogram: bucket bounds; {inside['n']} requests) | ≤ {inside['p50_ms']:g} / "
                f"≤ {inside['p99_ms']:g} ms |"
            )
    for r in result["replicas"]:
        lines.append(
            f"| bot {r['n']} peak RSS (VmHWM; sampled tree max) | {r['vmhwm_mb']:.0f} MB; "
            f"{r['sampled_peak_tree_mb']:.0f} MB |"
        )
    fk = result["fake"]
    lines.append(
        f"| fake Slack: bot's API calls; in-fake service time p50 / p99 / max, summed over wall time | "
        f"{sum(fk['methods'].values())}; {f(fk['service_p50_ms'])} / {f(fk['service_p99_ms'])} / "
        f"{f(fk['service_max_ms'])} ms, {fk['busy_fraction'] * 100:.1f}% |"
    )
    pr = fk.get("probe")
    if pr and pr["n"]:
        lines.append(
            f"| fake Slack round-trip from another process, p50 / p99 / max ({pr['n']} auth.test during the "
            f"burst) | {f(pr['p50_ms'])} / {f(pr['p99_ms'])} / {f(pr['max_ms'])} ms"
            f"{', ' + str(pr['errors']) + ' errors' if pr['errors'] else ''} |"
        )
    if result.get("cpu"):
        c = result["cpu"]
        bots = ", ".join(f"{v * 100:.0f}%" for v in c["bots_core_fraction"])
        if c.get("fake_core_fraction") is None:
            lines.append(
                f"| CPU, burst start → last answer ({c['window_s']} s): bot(s); fake + senders (one "
                f"process) | {bots}; {c['benchmark_core_fraction'] * 100:.0f}% of a core |"
            )
        else:
            lines.append(
                f"| CPU, burst start → last answer ({c['window_s']} s): bot(s); fake Slack; senders | "
                f"{bots}; {c['fake_core_fraction'] * 100:.0f}%; {c['benchmark_core_fraction'] * 100:.0f}% "
                "of a core |"
            )
    verdict = ("PASS" if result["passed"] else "FAIL") + (" (timed out)" if result["timed_out"] else "")
    lines.append(f"| verdict | {verdict} |")
    notes = []
    if a["progress_stuck_messages"]:
        notes.append(f"- {a['progress_stuck_messages']} bot message(s) still show progress at the end")
    if a["final_overwritten_by_progress"]:
        notes.append(
            f"- {a['final_overwritten_by_progress']} final answer(s) were later overwritten by a progress update"
        )
    if a["stray_bot_messages"]:
        notes.append(f"- {a['stray_bot_messages']} bot message(s) posted outside the mentions' threads")
    if fk["refusals"]:
        notes.append("- the fake refused calls: " + "; ".join(f"{k} ×{v}" for k, v in fk["refusals"].items()))
    for kind, ex in a["examples"].items():
        notes.append(f"- {kind}: " + "; ".join(ex[:5]) + (" …" if len(ex) > 5 else ""))
    for r in result["replicas"]:
        for entry in r["log"]["exceptions"][:5]:
            notes.append(f"- bot {r['n']} log, ×{entry['count']}: `{entry['line']}`")
        for entry in r["log"]["log_lines"][:5]:
            notes.append(f"- bot {r['n']} log, ×{entry['count']}: `{entry['line']}`")
        if r["exit_code"] not in (0, None):
            notes.append(f"- bot {r['n']} exited with status {r['exit_code']}")
    if notes:
        lines += ["", *notes]
    return "\n".join(lines) + "\n"


# -- main -------------------------------------------------------------------------------------------------


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--mentions", type=int, default=500, help="app_mention events with a pasted log (default 500)")
    p.add_argument("--concurrency", type=int, default=50, help="sender threads, i.e. requests in flight (default 50)")
    p.add_argument(
        "--retries",
        type=int,
        default=50,
        help="Slack retries (same event_id, X-Slack-Retry-Num: 1) of as many mentions (default 50)",
    )
    p.add_argument("--commands", type=int, default=40, help="slash commands, /denpex help and status (default 40)")
    p.add_argument(
        "--buttons", type=int, default=40, help="Acknowledge presses on already-answered diagnoses (default 40)"
    )
    p.add_argument(
        "--replicas",
        type=int,
        default=1,
        help="bot processes on different ports sharing --db; requests go round-robin (default 1)",
    )
    p.add_argument("--db", help="DENPEX_DB for every replica, passed through as is (default: a temp SQLite file)")
    p.add_argument(
        "--postgres",
        action="store_true",
        help="DENPEX_DB on a throwaway PostgreSQL cluster started for the run (needs PostgreSQL's initdb and pg_ctl)",
    )
    p.add_argument(
        "--matrix",
        action="store_true",
        help="run the burst with 1 and 2 replicas on SQLite and on PostgreSQL, and print one summary table",
    )
    p.add_argument("--config", help="DENPEX_CONFIG for the bots (default: a temp file with [bot] file_hosts = [])")
    p.add_argument("--channels", type=int, default=10, help="channels the mentions are spread over (default 10)")
    p.add_argument(
        "--timeout", type=float, default=300, help="overall bound in seconds from the start of the burst (default 300)"
    )
    p.add_argument(
        "--settle",
        type=float,
        default=3.0,
        help="after everything is answered, keep watching this long for late duplicates (default 3)",
    )
    p.add_argument(
        "--http-timeout",
        type=float,
        default=30.0,
        help="the senders' HTTP timeout; acks over 3 s are counted separately (default 30)",
    )
    p.add_argument(
        "--no-warmup",
        action="store_true",
        help="skip the one unmeasured mention per replica that loads the signature library first",
    )
    p.add_argument(
        "--denpex",
        help="the command that runs denpex, split on spaces (default: the denpex next to "
        "this Python, else python -m bot.cli)",
    )
    p.add_argument(
        "--fake-in-process",
        action="store_true",
        help="run the fake Slack in this process, sharing its interpreter lock with the senders "
        "(default: a process of its own)",
    )
    p.add_argument(
        "--no-probe",
        action="store_true",
        help="skip the side process that times the fake Slack's round-trip during the burst",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON instead of a Markdown table")
    p.add_argument("--keep", action="store_true", help="keep the work directory (bot logs, config, database)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = p.parse_args(argv)
    for name in ("mentions", "retries", "commands", "buttons"):
        if getattr(args, name) < 0:
            p.error(f"--{name} must be >= 0")
    if args.concurrency < 1 or args.replicas < 1 or args.channels < 1 or args.timeout <= 0:
        p.error("--concurrency, --replicas and --channels must be >= 1, --timeout > 0")
    if args.postgres and args.db:
        p.error("--postgres starts its own database: leave --db out")
    args.retries = min(args.retries, args.mentions)
    args.buttons = min(args.buttons, args.mentions)  # one press per answered diagnosis
    return args


def _db_label(args: argparse.Namespace) -> str:
    """What the replicas shared, for the result (a URL without its password)."""
    if args.postgres:
        return "throwaway PostgreSQL"
    if not args.db:
        return "temp sqlite"
    parts = urllib.parse.urlsplit(args.db)
    return args.db.replace(f":{parts.password}@", ":***@") if parts.password else args.db


class _Terminated(Exception):
    pass


def _on_sigterm(signum, frame):
    raise _Terminated()


MATRIX = [("SQLite", 1), ("SQLite", 2), ("PostgreSQL", 1), ("PostgreSQL", 2)]


def run_matrix(argv: list[str]) -> int:
    """The same burst four times, each in a process of its own; one table of what issue 17 asks to compare."""
    passed = [a for a in argv if a not in ("--matrix", "--json", "--postgres")]
    rows = [
        "| database | replicas | ack p99 (all requests) | acks over 3 s | answers per mention | right answers | "
        "time to last answer |",
        "|---|---|---|---|---|---|---|",
    ]
    failed = False
    for database, replicas in MATRIX:
        command = [sys.executable, __file__, *passed, "--json", "--replicas", str(replicas)]
        if database == "PostgreSQL":
            command.append("--postgres")
        print(f"[load] matrix: {database}, {replicas} replica(s)", file=sys.stderr, flush=True)
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True)
        try:
            result = json.loads(done.stdout)
        except json.JSONDecodeError:
            rows.append(f"| {database} | {replicas} | did not run (exit {done.returncode}) | | | | |")
            failed = True
            continue
        a, ack = result["answers"], result["ack_latency"]["all"]
        per = ", ".join(f"{k}: {v}" for k, v in a["answers_per_mention"].items())
        last = a["time_to_last_answer_s"]
        rows.append(
            f"| {database} | {replicas} | {ack['p99_ms']:,.1f} ms | {ack['over_3s']} | {per} | "
            f"{a['right']} / {a['mentions']} | {'n/a' if last is None else f'{last:.1f} s'} |"
        )
        failed = failed or not result["passed"]
    print("\n".join(rows))
    return 1 if failed else 0


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.matrix:
        return run_matrix(list(sys.argv[1:] if argv is None else argv))
    if args.denpex:
        DENPEX_CMD[:] = args.denpex.split()
    signal.signal(signal.SIGTERM, _on_sigterm)

    def say(msg: str) -> None:
        if not args.quiet:
            print(f"[load {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    workdir = Path(tempfile.mkdtemp(prefix="denpex-load-"))
    run = secrets.token_hex(4)
    postgres: Path | None = None  # the throwaway cluster's directory
    if args.postgres:
        from pg import cluster as pg_cluster

        try:
            args.db, postgres = pg_cluster.start()
        except pg_cluster.PostgresUnavailable as exc:
            print(f"[load] --postgres: {exc}", file=sys.stderr, flush=True)
            return 2
        say(f"throwaway PostgreSQL in {postgres}")
    config = args.config
    if not config:
        config = str(workdir / "denpex.toml")
        Path(config).write_text("[bot]\nfile_hosts = []\n")
    env = {
        k: v
        for k, v in os.environ.items()
        if k.lower() not in ("http_proxy", "https_proxy", "all_proxy") and k != "SLACK_APP_TOKEN"
    }
    env.setdefault("DENPEX_CACHE_DIR", str(workdir / "cache"))
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"

    channels = [f"CLOAD{j:03d}" for j in range(args.channels)]
    all_channels = {**{c: f"load-{j}" for j, c in enumerate(channels)}, "CWARMUP": "warmup"}
    fake = TimedFake(channels=all_channels) if args.fake_in_process else FakeProcess(all_channels)
    bots: list[Bot] = []
    sampler: RssSampler | None = None
    pool: ThreadPoolExecutor | None = None
    client: httpx.Client | None = None
    timed_out = False
    interrupted = False
    probe: subprocess.Popen | None = None
    bot_probe: subprocess.Popen | None = None
    result: dict = {}
    exit_codes: list = []
    try:
        fake.start()
        env.update(
            {
                "SLACK_BOT_TOKEN": fake.bot_token,
                "SLACK_SIGNING_SECRET": fake.signing_secret,
                "DENPEX_SLACK_API_URL": fake.api_url,
                "DENPEX_DB": args.db or str(workdir / "denpex.db"),
                "DENPEX_CONFIG": config,
            }
        )
        say(f"fake Slack on {fake.url}; work directory {workdir}")
        for n in range(args.replicas):  # one at a time: the first one migrates the shared database
            bots.append(Bot(n, env, workdir))  # listed first, so a bot that fails to get healthy is stopped too
            bots[-1].start()
            say(f"bot {n} (pid {bots[-1].pid}) healthy on {bots[-1].events_url}")
        sampler = RssSampler(bots, fake.pid)
        sampler.start()
        client = httpx.Client(
            timeout=args.http_timeout,
            trust_env=False,
            limits=httpx.Limits(max_connections=args.concurrency + 8, max_keepalive_connections=args.concurrency + 8),
        )
        drivers = [TimingDriver(b.events_url, fake.signing_secret, fake, client=client) for b in bots]
        tracker = Tracker(fake)

        if not args.no_warmup:
            warm = [
                make_mention(fake, tracker, 900000 + n, "cuda_oom", "CWARMUP", run, n, warmup=True)
                for n in range(len(bots))
            ]
            for m in warm:
                send_mention(drivers[m.replica], m, Op("mention", m.replica, mention=m))
            deadline = time.monotonic() + 60
            tracker.update()
            while tracker.pending(warm) and time.monotonic() < deadline:
                time.sleep(0.1)
                tracker.update()
            say("warm-up answered" if not tracker.pending(warm) else "warm-up NOT answered within 60 s (going on)")
            for d in drivers:
                d.sent.clear()

        mentions = [
            make_mention(
                fake, tracker, i, KIND_CYCLE[i % len(KIND_CYCLE)], channels[i % len(channels)], run, i % len(bots)
            )
            for i in range(args.mentions)
        ]
        ops = schedule(args, mentions, channels, len(bots))
        picker = ButtonPicker(tracker, mentions)
        say(
            f"burst: {len(ops)} requests ({args.mentions} mentions, {args.retries} retries, {args.commands} commands, "
            f"{args.buttons} buttons) at concurrency {args.concurrency}, timeout {args.timeout:.0f}s"
        )

        burst_start = time.time()
        deadline = time.monotonic() + args.timeout
        if not args.no_probe:
            probe = start_probe(fake, args.timeout + 30)
            bot_probe = start_bot_probe(bots[0], fake.signing_secret, args.timeout + 30)

        def run_op(op: Op) -> None:
            if time.monotonic() >= deadline or STOP.is_set():
                op.error, op.ok = "not sent: overall timeout", False
                return
            driver = drivers[op.replica]
            try:
                if op.kind == "mention":
                    assert op.mention is not None  # mention and retry ops carry their mention
                    send_mention(driver, op.mention, op)
                elif op.kind == "retry":
                    assert op.mention is not None
                    send_retry(driver, op.mention, op, deadline)
                elif op.kind == "command":
                    send_command(driver, op)
                else:
                    send_button(driver, picker, op, deadline)
            except Exception as exc:  # a sender bug must not hang the run; it is reported
                op.error, op.ok = f"{type(exc).__name__}: {exc}"[:200], False

        pool = ThreadPoolExecutor(max_workers=args.concurrency, thread_name_prefix="sender")
        futures = [pool.submit(run_op, op) for op in ops]
        last_say, settled_since = 0.0, None
        while True:
            tracker.update()
            sent = sum(f.done() for f in futures)
            pending = tracker.pending(mentions)
            now = time.monotonic()
            if now - last_say >= 5:
                last_say = now
                say(
                    f"{time.time() - burst_start:6.1f}s: {sent}/{len(ops)} requests done, "
                    f"{len(mentions) - len(pending)}/{len(mentions)} mentions answered, "
                    f"{tracker.methods['chat.postMessage']} posts, {tracker.methods['chat.update']} updates"
                )
            if sent == len(futures) and not pending and not tracker.unacknowledged_presses(ops):
                if settled_since is None:
                    settled_since = now
                if now - settled_since >= args.settle and time.time() - tracker.last_change >= args.settle:
                    break
            else:
                settled_since = None
            if now >= deadline:
                timed_out = True
                say(
                    f"TIMEOUT after {args.timeout:.0f}s: {len(futures) - sent} request(s) unfinished, "
                    f"{len(pending)} mention(s) without a final answer"
                )
                break
            time.sleep(0.25)
        STOP.set()
        pool.shutdown(wait=False, cancel_futures=True)
        probe_samples, probe = stop_probe(probe), None
        bot_probe_samples, bot_probe = stop_probe(bot_probe), None

        answers = evaluate(fake, tracker, mentions, burst_start)
        sampler.sample()
        by_kind = collections.defaultdict(list)
        for op in ops:
            if op.latency is not None and op.status is not None:
                by_kind[op.kind].append(op.latency)
        all_lat = [v for vs in by_kind.values() for v in vs]
        not_200: collections.Counter[str] = collections.Counter()
        unsent = 0
        for op in ops:
            if op.status is None and (not op.error or op.error.startswith("not sent")):
                unsent += 1
            elif op.status != 200 and (op.status is not None or op.error):
                not_200[f"{op.kind}: {op.error or f'HTTP {op.status}'}"[:120]] += 1
        service = fake.service()
        window_end = answers["last_answer_at"] or time.time()
        probe_window = [lat for wall, lat in probe_samples if burst_start <= wall <= window_end]
        probe_ok = [lat for lat in probe_window if lat is not None]
        bot_probe_window = [lat for wall, lat in bot_probe_samples if burst_start <= wall <= window_end]
        bot_probe_ok = [lat for lat in bot_probe_window if lat is not None]
        wall = max(1e-9, time.time() - burst_start)
        result = {
            "config": {
                k: getattr(args, k)
                for k in (
                    "mentions",
                    "concurrency",
                    "retries",
                    "commands",
                    "buttons",
                    "replicas",
                    "channels",
                    "timeout",
                    "settle",
                )
            }
            | {"db": _db_label(args), "warmup": not args.no_warmup},
            "ack_latency": {"all": latency_summary(all_lat), **{k: latency_summary(v) for k, v in by_kind.items()}},
            "requests": {
                "total": len(ops),
                "unsent": unsent,
                "not_200": sum(not_200.values()),
                "not_200_kinds": dict(not_200.most_common(8)),
                "commands_ok": sum(1 for op in ops if op.kind == "command" and op.ok),
                "commands_bad": [op.note for op in ops if op.kind == "command" and op.ok is False][:5],
                "buttons_sent": sum(1 for op in ops if op.kind == "button" and op.status == 200),
                "retries_acked": sum(1 for op in ops if op.kind == "retry" and op.status == 200),
            },
            "answers": answers,
            "quiet_client_acks": latency_summary(bot_probe_ok) | {"errors": len(bot_probe_window) - len(bot_probe_ok)},
            "fake": {
                "api_calls": len(service),
                "methods": dict(tracker.methods),
                "service_p50_ms": _ms(pct(service, 0.5)),
                "service_p99_ms": _ms(pct(service, 0.99)),
                "service_max_ms": _ms(max(service) if service else None),
                "busy_fraction": round(sum(service) / wall, 4),
                "refusals": dict(tracker.refusals),
                "probe": latency_summary(probe_ok) | {"errors": len(probe_window) - len(probe_ok)},
            },
            "timed_out": timed_out,
            "cpu": sampler.utilisation(burst_start, answers["last_answer_at"]),
        }
    except (KeyboardInterrupt, _Terminated):
        interrupted = True
        print("[load] interrupted: stopping the bots", file=sys.stderr, flush=True)
    except RuntimeError as exc:
        print(f"[load] {exc}", file=sys.stderr, flush=True)
        result = {}
    finally:
        STOP.set()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        stop_probe(probe)
        stop_probe(bot_probe)
        if sampler is not None:
            sampler.sample()
            sampler.stop_event.set()
        for bot in bots:
            bot.acks_inside = bot_ack_histogram(bot)
            try:
                exit_codes.append(bot.stop())
            except Exception as exc:  # keep stopping the others
                exit_codes.append(f"stop failed: {exc}")
        if client is not None:
            client.close()
        fake.stop()
        if postgres is not None:
            pg_cluster.stop(postgres)
    if interrupted or not result:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        return 130 if interrupted else 2

    assert sampler is not None  # a result means the run got as far as sampling
    result["replicas"] = [
        {
            "n": b.n,
            "pid": b.pid,
            "port": b.port,
            "exit_code": exit_codes[i],
            "vmhwm_mb": sampler.hwm_kb[i] / 1024,
            "sampled_peak_tree_mb": sampler.peak_tree_kb[i] / 1024,
            "log": log_findings(b.log_path),
            "acks_inside": b.acks_inside,
        }
        for i, b in enumerate(bots)
    ]
    a = result["answers"]
    result["passed"] = a["right"] == a["mentions"] and not timed_out
    if args.keep:
        result["workdir"] = str(workdir)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2, default=str))
    else:
        sys.stdout.write(markdown(result))
        if args.keep:
            print(f"\nwork directory (bot logs, database): {workdir}")
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
