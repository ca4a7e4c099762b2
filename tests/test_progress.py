"""The progress bar shows on a terminal for big inputs, and never pollutes a pipe."""

import os
import pty
import subprocess

from conftest import denpex_cmd


def _big_log(path, mb=70):
    line = b"[rank0]: step 1 loss 0.5 lr 1e-4 grad_norm 0.3 tokens/s 100000 padding padding padding\n"
    with open(path, "wb") as fh:
        block = line * (1 << 14)
        for _ in range(mb * (1 << 20) // len(block) + 1):
            fh.write(block)


def test_progress_bar_on_a_terminal(tmp_path):
    log = tmp_path / "big.log"
    _big_log(log)
    master, slave = pty.openpty()
    proc = subprocess.run(denpex_cmd() + ["diagnose", str(log)], stdout=subprocess.PIPE, stderr=slave, timeout=120)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    err = b"".join(chunks).decode(errors="replace")
    assert proc.returncode == 0
    assert "scanning [" in err and "MB/s" in err
    assert "Healthy" in proc.stdout.decode()


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path):
    log = tmp_path / "big.log"
    _big_log(log)
    proc = subprocess.run(denpex_cmd() + ["diagnose", str(log)], capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == b""
