"""A throwaway PostgreSQL for the tests: `initdb` and `pg_ctl` on a temporary directory, a free port on loopback
and the Unix socket in that directory, a random password, fsync off (the cluster is thrown away).

As root it runs as the `postgres` user (PostgreSQL refuses to run as root), or DENPEX_PG_USER. ./run-tests starts
one and exports its URL as DENPEX_TEST_PG_URL (`python tests/pg/cluster.py start` prints the two export lines,
`python tests/pg/cluster.py stop DIR` stops it and removes its directory); pytest run alone starts one of its own
for the session when PostgreSQL is installed (see tests/pg/fixtures.py).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

START_TIMEOUT = 60


class PostgresUnavailable(Exception):
    """PostgreSQL cannot run here; the message says why (the tests skip with it, or fail under CI)."""


def bindir() -> Path:
    """Where initdb and pg_ctl are: on PATH, else Debian's /usr/lib/postgresql/<newest>/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not versions:
        raise PostgresUnavailable("PostgreSQL is not installed (no initdb: apt-get install postgresql)")
    return Path(versions[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _runner() -> tuple[list[str], pwd.struct_passwd | None]:
    """The command prefix that runs PostgreSQL's programs: as root, as the postgres (or DENPEX_PG_USER) user."""
    if os.geteuid() != 0:
        return [], None
    name = os.environ.get("DENPEX_PG_USER", "postgres")
    try:
        user = pwd.getpwnam(name)
    except KeyError:
        raise PostgresUnavailable(f"running as root, and there is no user {name!r} to run PostgreSQL as") from None
    return ["runuser", "-u", name, "--"], user


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=START_TIMEOUT, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise PostgresUnavailable(f"{what} failed (exit {done.returncode}): " + " | ".join(said)[-500:])


def start() -> tuple[str, Path]:
    """Start a cluster; its URL and its directory (give the directory to stop())."""
    bin_ = bindir()
    prefix, user = _runner()
    where = Path(tempfile.mkdtemp(prefix="dpxpg-", dir="/tmp"))  # short: the socket path may not exceed 107 bytes
    try:
        password = secrets.token_hex(12)
        (where / "pw").write_text(password + "\n")
        if user is not None:
            os.chown(where, user.pw_uid, user.pw_gid)
            os.chown(where / "pw", user.pw_uid, user.pw_gid)
        os.chmod(where, 0o700)
        _run(
            [*prefix, str(bin_ / "initdb"), "-D", str(where / "data"), "-U", "denpex", "--pwfile", str(where / "pw"),
             "--auth=scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions"],
            "initdb",
        )  # fmt: skip
        port = free_port()
        options = " ".join(
            f"-c {k}={v}"
            for k, v in {
                "port": port,
                "listen_addresses": "127.0.0.1",
                "unix_socket_directories": where,
                "fsync": "off",
                "synchronous_commit": "off",
                "full_page_writes": "off",
                "max_connections": 300,  # bots' pools, two replicas, the tests' own connections
                "shared_buffers": "32MB",
            }.items()
        )
        _run(
            [*prefix, str(bin_ / "pg_ctl"), "-D", str(where / "data"), "-l", str(where / "postgres.log"), "-w",
             "-t", str(START_TIMEOUT), "-o", options, "start"],
            "pg_ctl start",
        )  # fmt: skip
    except BaseException:
        shutil.rmtree(where, ignore_errors=True)
        raise
    return f"postgresql://denpex:{password}@127.0.0.1:{port}/postgres", where


def stop(where: Path) -> None:
    """Stop the cluster in `where` (only that one: pg_ctl names it by its directory) and remove the directory."""
    if (where / "data" / "postmaster.pid").exists():
        prefix, _ = _runner()
        subprocess.run(
            [*prefix, str(bindir() / "pg_ctl"), "-D", str(where / "data"), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            timeout=START_TIMEOUT,
        )
    shutil.rmtree(where, ignore_errors=True)


def main(argv: list[str]) -> int:
    if argv[:1] == ["start"]:
        try:
            url, where = start()
        except PostgresUnavailable as exc:
            print(f"postgresql: not started: {exc}", file=sys.stderr)
            return 1
        print(f"export DENPEX_TEST_PG_URL={url}\nexport DENPEX_TEST_PG_DIR={where}")
        return 0
    if argv[:1] == ["stop"] and len(argv) == 2:
        stop(Path(argv[1]))
        return 0
    print("usage: cluster.py start | stop DIR", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
