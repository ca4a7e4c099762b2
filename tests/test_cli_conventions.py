"""The CLI's conventions: --version, a bare `denpex`, examples in --help, --exit-code, "did you mean"."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def denpex(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )


def test_version_and_a_bare_denpex():
    assert denpex("--version").stdout.startswith("denpex ")
    bare = denpex()
    assert bare.returncode == 0 and "diagnose" in bare.stdout and "usage: denpex" in bare.stdout


def test_diagnose_help_has_examples():
    assert "examples:" in denpex("diagnose", "--help").stdout


@pytest.mark.parametrize(
    "log,code",
    [
        ("step 1 loss 2.0\nstep 2 loss 1.9\n", 0),
        (
            "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB. GPU 3 has a total "
            "capacity of 79.10 GiB of which 1.2 GiB is free.\n",
            1,
        ),
        ("step 1 loss 2.0\n[rank1]: fatal: the frobnicator jammed, aborting\n", 3),
    ],
)
def test_exit_code_tells_healthy_diagnosed_and_unrecognised_apart(tmp_path, log, code):
    path = tmp_path / "train.log"
    path.write_text(log)
    assert denpex("diagnose", "-q", "--exit-code", str(path)).returncode == code
    assert denpex("diagnose", "-q", str(path)).returncode == 0  # without the flag a diagnosis is not an error
    assert denpex("diagnose", "--exit-code", str(tmp_path / "missing.log")).returncode == 2


def test_an_unknown_signature_id_gets_a_suggestion():
    shown = denpex("signatures", "show", "cuda.oom")
    assert shown.returncode == 2 and "did you mean cuda.out_of_memory" in shown.stderr


def test_a_pipe_is_read_without_a_dash_and_an_empty_input_is_named(tmp_path):
    oom = "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB.\n"
    piped = denpex("diagnose", "--json", stdin=oom)
    assert piped.returncode == 0 and '"cuda_oom"' in piped.stdout
    assert "stdin: empty" in denpex("diagnose", stdin="").stderr
    (tmp_path / "empty.log").write_text("")
    assert f"{tmp_path / 'empty.log'}: empty" in denpex("diagnose", str(tmp_path / "empty.log")).stderr
