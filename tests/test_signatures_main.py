"""`python -m signatures`: the library's checks without the bot (nothing of bot/ is imported)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import runpy, sys; sys.argv = ['signatures'] + sys.argv[1:]\n"
    "try:\n    runpy.run_module('signatures', run_name='__main__')\n"
    "except SystemExit as exc:\n"
    "    print('bot imported' if any(m == 'bot' or m.startswith('bot.') for m in sys.modules) else 'pure')\n"
    "    raise\n"
)


def signatures_main(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_test_lint_and_coverage_pass_without_the_bot():
    for command in (["test"], ["lint"], ["coverage"]):
        done = signatures_main(*command)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.rstrip().endswith("pure")
    assert "0 failed" in signatures_main("test", "cuda.out_of_memory").stdout


def test_a_failing_case_and_an_unknown_id_are_told_apart(tmp_path):
    sig = (ROOT / "signatures" / "library" / "numerics" / "train.loss_nonfinite_abort.toml").read_text()
    (tmp_path / "train.loss_nonfinite_abort.toml").write_text(
        sig.replace('values = { loss = "inf" }', 'values = { loss = "nan" }')
    )
    failing = signatures_main("--dir", str(tmp_path), "test")
    assert failing.returncode == 1 and "FAIL  train.loss_nonfinite_abort" in failing.stdout
    unknown = signatures_main("test", "no.such_signature")
    assert unknown.returncode == 2 and "no signature no.such_signature" in unknown.stderr
