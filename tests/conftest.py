import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
CORPUS = TESTS / "corpus"
RULES_LIBRARY = TESTS / "fixtures" / "rules_library"


def denpex_cmd() -> list[str]:
    exe = shutil.which("denpex", path=str(Path(sys.executable).parent)) or shutil.which("denpex")
    return [exe] if exe else [sys.executable, "-m", "bot.cli"]


# the CLI's compiled-library cache goes to a directory of the test run, not the user's home
os.environ["DENPEX_CACHE_DIR"] = tempfile.mkdtemp(prefix="denpex-cache-")

# the Slurm of tests/slurm/start.sh has its own slurm.conf (never /etc/slurm's): sbatch, scontrol and the
# denpex processes the tests start must read it too
TEST_SLURM_CONF = Path(os.environ.get("DENPEX_SLURM_DIR", "/var/tmp/denpex-slurm")) / "slurm.conf"
if TEST_SLURM_CONF.is_file():
    os.environ.setdefault("SLURM_CONF", str(TEST_SLURM_CONF))


def run_denpex(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the installed console script as a user would."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DENPEX_") or k == "DENPEX_CACHE_DIR"}
    return subprocess.run(denpex_cmd() + list(args), input=stdin, capture_output=True, timeout=timeout, env=env)


@pytest.fixture(scope="session")
def labels() -> dict[str, dict]:
    return {row["file"]: row for row in map(json.loads, (CORPUS / "labels.jsonl").read_text().splitlines())}


@pytest.fixture(scope="session")
def library():
    from signatures import default_library

    return default_library()


@pytest.fixture(scope="session")
def matcher():
    from signatures import default_matcher

    return default_matcher()


@pytest.fixture(scope="session")
def corpus_reports() -> dict:
    """Reports of the labelled sets' runs and excerpts, kept for the session by bench/accuracy.py's report_of: the
    accuracy floor (test_realworld) and the render budget (test_render_budget) read the same runs once."""
    return {}


@pytest.fixture(scope="session")
def rules_matcher():
    """A small purpose-built library exercising every rule kind."""
    from signatures import Matcher, load_library

    return Matcher(load_library(RULES_LIBRARY))


def pytest_collection_finish(session):
    """Jobs that wait on Slurm's clock start now, when a collected test will read them (tests/slurm_early.py); not
    when the tests are only listed (--collect-only, an editor's test discovery)."""
    if session.config.option.collectonly:
        return
    if any("slurm_jobs" in getattr(item, "fixturenames", ()) for item in session.items):
        import slurm_early

        slurm_early.submit()


def pytest_sessionfinish(session, exitstatus):
    early = sys.modules.get("slurm_early")  # imported only when its jobs were asked for
    if early is not None:
        early.cancel()
