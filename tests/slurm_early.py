"""Slurm jobs whose test waits on the clock, submitted as the session starts so they run while the rest of the
suite does. Slurm's time limits have minute granularity and its controller checks them every ~30 s, so a job that
must end DUE TO TIME LIMIT takes 60-90 s of wall time whatever the test does; submitted at collection, it has ended
by the time tests/test_slurm.py reaches it. The job is as real as before: only when it starts changes.

tests/conftest.py calls submit() after collection when a collected test uses the `slurm_jobs` fixture; that
fixture takes the ids from submitted() (and submits itself, as before, what is missing)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

EARLY = {
    "time_limit": """#!/bin/bash
        #SBATCH --time=0:01
        for i in $(seq 1 600); do echo "step $i loss 1.0"; sleep 1; done
        """,
}

_ids: dict[str, str] = {}
_work: list[Path] = []


def submit() -> None:
    """Submit EARLY's jobs once, if Slurm answers; anything that goes wrong is left to the fixture to report."""
    if _ids or not shutil.which("sbatch"):
        return
    try:
        probe = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=20)
        if probe.returncode != 0 or not probe.stdout.strip():
            return
        work = Path(tempfile.mkdtemp(prefix="denpex-slurm-early-"))
        _work.append(work)
        for name in EARLY:
            script = work / f"{name}.sh"
            script.write_text(text(name))
            done = subprocess.run(
                ["sbatch", "--parsable", "-J", f"denpex-{name}", "-D", str(work), "-o", "slurm-%x-%j.out", str(script)],
                capture_output=True,
                text=True,
                timeout=30,
            )
            if done.returncode == 0:
                _ids[name] = done.stdout.strip().split(";")[0]
    except (OSError, subprocess.SubprocessError):
        return


def text(name: str) -> str:
    """The job script, its lines at the start of the line (#SBATCH directives must be)."""
    return textwrap.dedent(EARLY[name]).replace("\n        ", "\n")


def submitted() -> dict[str, str]:
    """{name: job id} of the early jobs that were submitted."""
    return dict(_ids)


def cancel() -> None:
    if _ids:
        subprocess.run(["scancel", *_ids.values()], capture_output=True, timeout=30)
    for work in _work:
        shutil.rmtree(work, ignore_errors=True)
