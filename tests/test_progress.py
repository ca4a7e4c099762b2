"""The progress bar tells the truth: on a terminal only, bytes read from disk against the size on disk (a gzipped
log in compressed bytes), the width of the terminal, a time left, and gone after Ctrl-C. Run as a user runs it:
the real `denpex` on a pseudo-terminal of a given size."""

from __future__ import annotations

import gzip
import os
import re
import subprocess

import pytest
from conftest import denpex_cmd
from pty_terminal import ANSI, on_terminal

from bot.cli import PROGRESS_MIN_BYTES

FRAME = re.compile(r"scanning .*?([\d.]+)/([\d.]+) MB")


@pytest.fixture(scope="module")
def big_gzip(tmp_path_factory):
    """A log whose gzip is over the bar's threshold and half its decompressed size (random hex compresses 2:1)."""
    path = tmp_path_factory.mktemp("progress") / "train.log.gz"
    with gzip.open(path, "wb", compresslevel=1) as fh:
        step = 0
        while path.stat().st_size < PROGRESS_MIN_BYTES + (2 << 20):
            noise = os.urandom(1 << 20).hex()
            lines = (f"[rank0]: step {step} loss 0.5 {noise[i : i + 100]}\n" for i in range(0, len(noise), 100))
            fh.write("".join(lines).encode())
            fh.flush()
            step += 1
    return path


def frames(output: str) -> list[str]:
    """Each state of the bar as drawn (rich redraws it after a carriage return), escape codes taken off."""
    return [ANSI.sub("", part) for part in re.split(r"[\r\n]", output) if "scanning" in ANSI.sub("", part)]


def test_compressed_input_counts_compressed_bytes_against_the_compressed_size(big_gzip):
    status, output = on_terminal(["diagnose", str(big_gzip)])
    assert status == 0, output[-2000:]
    drawn = [FRAME.search(f) for f in frames(output)]
    counts = [(float(m.group(1)), float(m.group(2))) for m in drawn if m]
    assert len(counts) >= 3, output[:2000]
    on_disk = big_gzip.stat().st_size / 1e6
    assert {total for _, total in counts} == {round(on_disk, 1)}  # the gzip's size, not the log's
    assert all(done <= total for done, total in counts)  # never "1000/120 MB"
    assert any(0 < done < total for done, total in counts)  # it moves, rather than jumping at the end
    assert [done for done, _ in counts] == sorted(done for done, _ in counts)
    assert any(re.search(r"\d+:\d\d:\d\d", f) for f in frames(output)), "a time left"
    assert "MB/s" in output
    assert "Healthy" in output


@pytest.mark.parametrize("columns", [40, 60])
def test_the_bar_fits_a_narrow_terminal(big_gzip, columns):
    status, output = on_terminal(["diagnose", "--quiet", str(big_gzip)], columns)
    assert status == 0 and not frames(output)  # --quiet: no bar
    status, output = on_terminal(["diagnose", str(big_gzip)], columns)
    assert status == 0 and frames(output)
    too_wide = [f for f in frames(output) if len(f) > columns]
    assert not too_wide, too_wide[:3]  # wider lines would leave a stale copy per update


def test_ctrl_c_clears_the_bar(big_gzip):
    status, output = on_terminal(["diagnose", str(big_gzip)], interrupt=lambda out: len(FRAME.findall(out)) >= 2)
    # (each assertion says what came instead: this failed once in a loaded CI run, with no message to go on)
    assert status == 130, (status, output[-600:])
    last_frame = output.rfind("scanning")
    assert last_frame >= 0, output[-600:]
    rest = output[last_frame:]
    assert "\x1b[2K" in rest and "\x1b[?25h" in rest, repr(rest[-200:])  # the line erased, the cursor back
    assert "Traceback" not in output, output[-1500:]


def test_no_progress_bar_when_stderr_is_not_a_terminal(big_gzip):
    proc = subprocess.run(denpex_cmd() + ["diagnose", str(big_gzip)], capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == b""
