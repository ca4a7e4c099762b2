"""Inputs are bounded and every refusal names its reason: bombs, time, FIFOs, NULs, deep nesting."""

import gzip
import io
import os
import tarfile
import threading
import time
import zipfile
from pathlib import Path

import pytest
from conftest import run_denpex

from signatures import Budget, InputError, diagnose

OOM = (
    b"[rank3]: Traceback (most recent call last):\n"
    b"[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
)


def text_gzip(megabytes: int) -> bytes:
    """A gzip of plain log lines that expands ~250x."""
    out = io.BytesIO()
    line = b"[rank0]: step 1 loss 2.000 lr 1e-4\n" * 30000
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=6) as gz:
        for _ in range(megabytes * (1 << 20) // len(line)):
            gz.write(line)
        gz.write(OOM)
    return out.getvalue()


def config(tmp_path: Path, **limits) -> dict:
    path = tmp_path / "denpex.toml"
    path.write_text("[inputs]\n" + "".join(f"{k} = {v}\n" for k, v in limits.items()))
    return {"DENPEX_CONFIG": str(path)}


def run_denpex_env(env, *args, stdin=None, timeout=60):
    import subprocess

    from conftest import denpex_cmd

    full = {**{k: v for k, v in os.environ.items() if not k.startswith("DENPEX_") or k == "DENPEX_CACHE_DIR"}, **env}
    return subprocess.run(denpex_cmd() + list(args), input=stdin, capture_output=True, timeout=timeout, env=full)


def test_a_decompression_bomb_stops_at_the_per_input_limit_and_names_it(tmp_path):
    bomb = tmp_path / "train.log.gz"
    bomb.write_bytes(gzip.compress(text_gzip(64)))  # gzip of a gzip: ~60 KB on disk, 64 MB of text inside
    started = time.monotonic()
    done = run_denpex_env(config(tmp_path, max_input_bytes=8 << 20), "diagnose", str(bomb))
    assert done.returncode == 2 and time.monotonic() - started < 20
    err = done.stderr.decode()
    assert "max_input_bytes" in err and "8 MiB" in err and "train.log.gz" in err and len(err.splitlines()) == 1


def test_the_same_bomb_on_stdin_is_bounded_too(tmp_path):
    done = run_denpex_env(config(tmp_path, max_input_bytes=8 << 20), "diagnose", "-", stdin=text_gzip(64))
    assert done.returncode == 2 and "<stdin>" in done.stderr.decode() and "max_input_bytes" in done.stderr.decode()


def test_within_the_limits_the_same_content_is_diagnosed(tmp_path):
    ok = tmp_path / "small.log.gz"
    ok.write_bytes(text_gzip(4))
    done = run_denpex_env(config(tmp_path, max_input_bytes=8 << 20), "diagnose", "--json", str(ok))
    assert done.returncode == 0 and b"cuda.out_of_memory" in done.stdout


def test_the_per_job_limit_counts_every_input_together(tmp_path):
    paths = []
    for n in range(3):
        p = tmp_path / f"rank{n}.log.gz"
        p.write_bytes(text_gzip(4))
        paths.append(str(p))
    done = run_denpex_env(config(tmp_path, max_input_bytes=8 << 20, max_job_bytes=6 << 20), "diagnose", *paths)
    assert done.returncode == 2 and "max_job_bytes" in done.stderr.decode()


def test_the_time_budget_is_named(tmp_path):
    big = tmp_path / "big.log.gz"
    big.write_bytes(text_gzip(64))
    with pytest.raises(InputError, match="max_read_seconds"):
        diagnose([str(big)], budget=Budget(max_seconds=0.001))


def test_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "train.log"
    os.mkfifo(fifo)
    started = time.monotonic()
    done = run_denpex("diagnose", str(fifo), timeout=20)
    assert done.returncode == 2 and time.monotonic() - started < 10
    assert "FIFO" in done.stderr.decode()


def test_nul_bytes_in_a_log_do_not_make_it_binary(tmp_path):
    log = tmp_path / "rank3.log"
    log.write_bytes(b"[rank3]: step 1 loss 2.0\n" + b"\x00" * 40 + b"\n" + b"[rank3]: step 2 loss 1.9\n" * 20 + OOM)
    done = run_denpex("diagnose", "--json", str(log))
    assert done.returncode == 0 and b"cuda.out_of_memory" in done.stdout


def test_a_file_of_zeros_is_still_binary(tmp_path):
    zeros = tmp_path / "core"
    zeros.write_bytes(b"\x00" * 100000)
    done = run_denpex("diagnose", str(zeros))
    assert done.returncode == 2 and "binary" in done.stderr.decode()


def _tar(members: dict[str, bytes], compress: bool) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz" if compress else "w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    "name,build",
    [
        ("zip-in-tar.tar", lambda: _tar({"node0.zip": _zip({"rank3.log": OOM})}, False)),
        ("zip-in-tgz.tar.gz", lambda: _tar({"node0.zip": _zip({"rank3.log": OOM})}, True)),
        ("tgz-of-tgz.tar.gz", lambda: _tar({"node0.tar.gz": _tar({"rank3.log": OOM}, True)}, True)),
        ("zip-in-gzip.zip.gz", lambda: gzip.compress(_zip({"rank3.log": OOM}))),
        ("six-deep.tar.gz", lambda: _nest(6)),
    ],
)
def test_nested_archives_are_read(tmp_path, name, build):
    path = tmp_path / name
    path.write_bytes(build())
    done = run_denpex("diagnose", "--json", str(path))
    assert done.returncode == 0, done.stderr.decode()
    assert b"cuda.out_of_memory" in done.stdout


def _nest(levels: int) -> bytes:
    data, name = OOM, "rank3.log"
    for level in range(levels):
        data = _tar({name: data}, True) if level % 2 else _zip({name: data})
        name = f"level{level}" + (".tar.gz" if level % 2 else ".zip")
    return data


def test_nesting_beyond_the_limit_is_named(tmp_path):
    path = tmp_path / "deep.zip"
    path.write_bytes(_nest(8))
    done = run_denpex("diagnose", str(path))
    assert done.returncode == 2 and "nested more than 6 deep" in done.stderr.decode()


def test_a_stdin_that_never_ends_is_bounded_by_time(tmp_path):
    """A writer that keeps the pipe open: the time budget ends the read."""
    r, w = os.pipe()
    stop = threading.Event()

    def writer():
        try:
            with os.fdopen(w, "wb") as fh:
                while not stop.is_set():
                    fh.write(b"[rank0]: step 1 loss 2.0\n" * 1000)
                    fh.flush()
                    time.sleep(0.01)
        except OSError:  # the reader went away: that is the point
            pass

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    import subprocess

    from conftest import denpex_cmd

    env = {**os.environ, **config(tmp_path, max_read_seconds=2)}
    started = time.monotonic()
    try:
        done = subprocess.run(denpex_cmd() + ["diagnose", "-"], stdin=r, capture_output=True, timeout=60, env=env)
    finally:
        stop.set()
        os.close(r)
    assert done.returncode == 2 and "max_read_seconds" in done.stderr.decode()
    assert time.monotonic() - started < 30
