"""A throwaway one-node Ray head for the tests: `ray start --head` with the dashboard's Jobs API on loopback.

Everything it starts listens on 127.0.0.1 (RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 is Ray's local-only mode: without
it Ray advertises the machine's network address however --node-ip-address is set), on ports picked free, under a
temporary directory of its own, with token authentication on (the dashboard then wants `Authorization: Bearer`,
as a production head should). Stopping it kills only its own processes: those of the session `ray start` ran in,
and those whose environment carries this head's marker (job drivers run in sessions of their own). `ray stop`
is not used because it kills every Ray process on the machine.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

MARKER = "DENPEX_RAY_HEAD"
START_TIMEOUT = 90.0  # `ray start` takes 8-15 s on an idle 2-core machine
SUBMIT_ATTEMPTS = 4


class RayUnavailable(Exception):
    """Ray cannot run here; the message says why (the tests skip with it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_command() -> list[str]:
    if importlib.util.find_spec("ray") is None:
        raise RayUnavailable("Ray is not installed (it comes with requirements-dev.lock: ray[default])")
    beside = shutil.which("ray", path=str(Path(sys.executable).parent))
    return [beside] if beside else [sys.executable, "-m", "ray.scripts.scripts"]


class RayHead:
    def __init__(self) -> None:
        # short: Ray's Unix sockets live under it, and a socket path may not exceed 107 bytes
        self.temp_dir = Path(tempfile.mkdtemp(prefix="dpxray-", dir="/tmp"))
        self.port = free_port()
        self.dashboard_port = free_port()
        self.address = f"http://127.0.0.1:{self.dashboard_port}"
        self.token = secrets.token_hex(16)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        self.env.update(
            {
                MARKER: str(self.temp_dir),
                "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
                "RAY_USAGE_STATS_ENABLED": "0",
                "RAY_AUTH_MODE": "token",
                "RAY_AUTH_TOKEN": self.token,
                # fixed by default (44217, 44227): a second head on the machine would collide
                "AUTOSCALER_METRIC_PORT": str(free_port()),
                "DASHBOARD_METRIC_PORT": str(free_port()),
            }
        )
        self.session: int | None = None
        self.http = httpx.Client(base_url=self.address, headers={"Authorization": f"Bearer {self.token}"}, timeout=30)

    def start(self) -> RayHead:
        """Start the head and wait for the Jobs API; RayUnavailable with Ray's own words when it cannot."""
        command = _ray_command() + [
            "start",
            "--head",
            "--node-ip-address=127.0.0.1",
            f"--port={self.port}",
            "--dashboard-host=127.0.0.1",
            f"--dashboard-port={self.dashboard_port}",
            f"--dashboard-agent-listen-port={free_port()}",
            f"--ray-client-server-port={free_port()}",
            "--include-dashboard=true",
            "--num-cpus=1",
            "--object-store-memory=100000000",  # 100 MB: a 2-core CI machine, tiny jobs
            f"--temp-dir={self.temp_dir}",
            "--disable-usage-stats",
        ]
        log = self.temp_dir / "ray-start.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                command,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
            self.session = proc.pid
            try:
                code = proc.wait(START_TIMEOUT)
            except subprocess.TimeoutExpired:
                raise RayUnavailable(f"`ray start --head` did not finish in {START_TIMEOUT:.0f} s") from None
        if code != 0:
            tail = log.read_text(errors="replace").strip().splitlines()[-5:]
            raise RayUnavailable(f"`ray start --head` failed (exit {code}): " + " | ".join(tail)[-600:])
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.http.get("/api/version").status_code == 200 and self.http.get("/api/jobs/").status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RayUnavailable(f"the Ray dashboard's Jobs API never answered at {self.address}")
            time.sleep(0.3)

    def submit(self, entrypoint: str, **fields: object) -> str:
        """POST /api/jobs/ as `ray job submit` does; the submission id. The id is ours, so a submission the head
        answered with a server error (its job supervisor actor not up in time on a loaded machine: a clean-clone CI
        run got 500s for every job) is sent again as the same job, and one the head had taken after all is found
        by that id rather than started twice."""
        submission_id = f"denpex-test-{secrets.token_hex(6)}"
        body = {"entrypoint": entrypoint, "submission_id": submission_id, **fields}
        for attempt in range(1, SUBMIT_ATTEMPTS + 1):
            resp = self.http.post("/api/jobs/", json=body)
            if resp.status_code < 500 or attempt == SUBMIT_ATTEMPTS:
                break
            time.sleep(2.0 * attempt)
        if resp.status_code != 200 and self.http.get(f"/api/jobs/{submission_id}").status_code == 200:
            return submission_id  # an earlier attempt was taken after all
        resp.raise_for_status()
        return resp.json()["submission_id"]

    def details(self, submission_id: str) -> dict:
        resp = self.http.get(f"/api/jobs/{submission_id}")
        resp.raise_for_status()
        return resp.json()

    def wait_for(self, submission_id: str, states: set[str], timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            info = self.details(submission_id)
            if info["status"] in states:
                return info
            if time.monotonic() > deadline:
                raise AssertionError(f"Ray job {submission_id} still {info['status']} after {timeout:.0f} s: {info}")
            time.sleep(0.3)

    def wait_for_log(self, submission_id: str, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while True:
            resp = self.http.get(f"/api/jobs/{submission_id}/logs")
            resp.raise_for_status()
            logs = resp.json()["logs"]
            if text in logs:
                return logs
            if time.monotonic() > deadline:
                raise AssertionError(f"Ray job {submission_id} never logged {text!r}: {logs[-500:]!r}")
            time.sleep(0.3)

    def stop(self) -> None:
        """What `ray stop --force` does, to this head's processes only; then its directory goes."""
        self.http.close()
        for _ in range(50):
            ours = self._processes()
            if not ours:
                break
            for pid in ours:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)
        shutil.rmtree(self.temp_dir, ignore_errors=True)

    def _processes(self) -> list[int]:
        mark = f"{MARKER}={self.temp_dir}".encode()
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                # after the command's closing parenthesis: state, ppid, pgrp, session
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if fields[0] == "Z":
                    continue
                if int(fields[3]) == self.session or mark in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
        return found
