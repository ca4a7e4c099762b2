"""The real `denpex` on a pseudo-terminal of a given size, as a person runs it in a terminal emulator."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable

from conftest import denpex_cmd

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def sigint_as_a_shell_leaves_it() -> None:
    """In the child before exec: SIGINT at its default, as an interactive shell starts a command. A suite started in
    the background by a non-interactive shell (`nohup ./run-tests &`) passes SIGINT on ignored, and Python then
    never installs its KeyboardInterrupt handler, so a test of Ctrl-C would test nothing but that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def on_terminal(
    args: list[str],
    columns: int = 80,
    interrupt: Callable[[str], bool] | None = None,
    env: dict | None = None,
    stdin: int | None = None,
) -> tuple[int, str]:
    """Run denpex with stdout and stderr (and stdin, unless given) on a pseudo-terminal `columns` wide, as a
    terminal emulator would (TERM set); with `interrupt`, press Ctrl-C (SIGINT to its process group, as a
    terminal does) once interrupt(output so far, escape codes taken off) is true. -> (exit status, output)"""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    inherited = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
    env = {**inherited, "TERM": "xterm-256color", **(env or {})}  # a terminal says what it is
    proc = subprocess.Popen(
        denpex_cmd() + args,
        stdin=slave if stdin is None else stdin,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        env=env,
        preexec_fn=sigint_as_a_shell_leaves_it,
    )
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 120
    interrupted = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child is gone and the terminal closed
                break
            if not data:
                break
            out += data
        if interrupt and not interrupted and interrupt(ANSI.sub("", out.decode(errors="replace"))):
            os.killpg(proc.pid, signal.SIGINT)
            interrupted = True
    os.close(master)
    return proc.wait(timeout=30), out.decode(errors="replace")
