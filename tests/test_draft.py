"""Signatures drafted from one error line (issue 14, item 4): each passes the library's own checks as produced,
matches the line it came from and no line of the healthy corpus."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import run_denpex
from healthy_corpus import healthy_logs

from signatures import LIBRARY_DIR, default_library
from signatures._draft import DraftError, check_draft, draft_signature, message_of
from signatures._library import Library
from signatures._schema import Signature, compile_regex

CORPUS = Path(__file__).parent / "corpus"

# First error lines of real failing runs in tests/corpus (file: line), verbatim.
REAL_LINES = {
    "001": "[rank2]: RuntimeError: shape '[64, 33]' is invalid for input of size 2053",
    "004": "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection "
    "closed by peer [127.0.0.1]:11917",
    "006": "/tmp/evalenv/lib/python3.11/site-packages/torch/autograd/graph.py:979: UserWarning: Error detected in "
    "MseLossBackward0. Traceback of forward call that caused the error:",
    "009": "[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([0, 1, 2, 3])",
    "011": "[rank0]: RuntimeError: [enforce fail at inline_container.cc:747] . open file failed with strerror: Permission "
    "denied",
    "015": "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
    "port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use",
    "018": "[rank1]: RuntimeError: DataLoader worker (pid 25098) is killed by signal: Killed. ",
    "021": "slurmstepd-vm: error: *** JOB 16 ON vm CANCELLED AT 2026-12-02T10:13:38 ***",
    "028": "torch.distributed.DistStoreError: Timed out after 41 seconds waiting for clients. 1/2 clients joined.",
    "031": "[rank3]: RuntimeError: Application timeout caused pair closure",
    "033": "[rank1]: MemoryError: Caught MemoryError in DataLoader worker process 0.",
    "e": "[rank1]:[E1130 13:10:11.000000000 ProcessGroupGloo.cpp:143] Gloo connectFullMesh failed with "
    "/tmp/pytorch/gloo.cpp:144 no error",
}


@pytest.fixture(scope="module")
def healthy_lines() -> list[str]:
    texts = [*healthy_logs().values()] + [
        (CORPUS / n).read_text(errors="replace") for n in ("024_healthy.log", "026_healthy.log")
    ]
    return [seg for text in texts for line in text.splitlines() for seg in line.split("\r") if seg.strip()]


def test_the_lines_are_in_the_corpus():
    """The lines above are copied from the real runs, not made up."""
    for key, line in REAL_LINES.items():
        if key.isdigit():
            (path,) = CORPUS.glob(f"{key}_*.log")
            assert line.rstrip() in path.read_text(errors="replace"), key


@pytest.mark.parametrize("key", sorted(REAL_LINES))
def test_a_draft_passes_the_library_checks_and_matches_only_its_line(key, healthy_lines):
    line = REAL_LINES[key]
    draft = draft_signature(line, source=f"tests/corpus {key}")
    assert draft.checks == []  # schema, lint, and its match and near-miss cases, run by the matcher
    data = tomllib.loads(draft.toml)
    assert data["id"] == draft.id and data["patterns"][0]["literal"] == draft.literal
    assert draft.literal in line and len(draft.literal) >= 8
    regex = compile_regex(draft.regex)
    assert regex.search(line)
    assert not [h for h in healthy_lines if regex.search(h)]
    assert [c for c in data["cases"] if c["kind"] == "near_miss"]


def test_numbers_after_a_key_become_values():
    draft = draft_signature("2026-11-30 12:00:01,123 ERROR [trainer] ZeroDivisionError in loss_scale step=1500 code: 7")
    assert draft.values == {"step": "1500", "code": "7"}
    assert draft.checks == []
    assert r"(?P<step>\d+)" in draft.regex
    assert tomllib.loads(draft.toml)["cases"][0]["values"] == {"step": "1500", "code": "7"}


def test_what_differs_between_runs_is_generalised():
    line = (
        "[rank5]: OSError: [Errno 5] Input/output error: '/lustre/ckpt/run_8f3a2b1c9d/step_000500/model.pt' "
        "at 0x7f3a2b1c9d00 job 4f1c2d3e-aaaa-bbbb-cccc-0123456789ab"
    )
    draft = draft_signature(line)
    regex = compile_regex(draft.regex)
    other = line.replace("/lustre/ckpt/run_8f3a2b1c9d/step_000500", "/scratch/x/run_77/step_9").replace(
        "0x7f3a2b1c9d00", "0xdead"
    )
    other = other.replace("4f1c2d3e-aaaa-bbbb-cccc-0123456789ab", "00000000-1111-2222-3333-444444444444")
    assert regex.search(other.replace("Errno 5", "Errno 121"))
    assert draft.literal == "Input/output error"
    assert tomllib.loads(draft.toml)["cases"][0]["rank"] == 5


def test_prefixes_are_not_part_of_the_message():
    assert message_of("  3: [rank3]: 2026-11-30 12:00:01,123 ERROR boom happened") == "boom happened"
    assert message_of("[rank0]:[E1130 13:10:11.000000000 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog") == "Watchdog"
    assert message_of("gpu-node-01:4242:4300 [1] NCCL WARN Cuda failure") == "NCCL WARN Cuda failure"
    assert message_of("\x1b[31mE1130 13:10:11.000 4242 train.py:10] oops\x1b[0m") == "oops"


def test_the_class_is_carried_and_checked():
    draft = draft_signature(
        "[rank1]: MemoryError: Caught MemoryError in DataLoader worker process 0.", "host_oom_killed"
    )
    assert tomllib.loads(draft.toml)["class"] == "host_oom_killed"
    with pytest.raises(DraftError, match="unknown class 'nope'"):
        draft_signature("[rank1]: MemoryError: Caught MemoryError in DataLoader worker process 0.", "nope")


@pytest.mark.parametrize("line", ["", "   ", "[rank3]: 12 34 0x5f 2026-11-30T12:00:00", "[rank0]: ab 1 cd"])
def test_a_line_without_stable_text_is_refused_with_the_reason(line):
    with pytest.raises(DraftError, match="empty|no stable text"):
        draft_signature(line)


def test_the_checks_find_what_is_wrong_with_a_draft():
    draft = draft_signature("[rank3]: RuntimeError: Application timeout caused pair closure")
    library = default_library()
    sig = Signature.model_validate(tomllib.loads(draft.toml))
    with_it = Library([*library.signatures, sig], library.taxonomy)
    assert any("already has" in p for p in check_draft(draft.toml, with_it, draft.id))
    broken = draft.toml.replace("caused pair closure'", "caused pair closure!'")  # the regex no longer matches
    assert any("did not fire" in p for p in check_draft(broken, library, draft.id))
    assert check_draft(draft.toml.replace('class = "', 'klass = "'), library, draft.id)[0].startswith("invalid")


def test_a_saved_draft_passes_python_m_signatures_test_and_lint(tmp_path):
    """As a person would add it: saved in a site directory, checked together with the bundled library."""
    site = tmp_path / "site"
    site.mkdir()
    for key in ("001", "015", "021"):
        draft = draft_signature(REAL_LINES[key], source=f"tests/corpus {key}")
        (site / draft.filename).write_text(draft.toml)
    for command in ("test", "lint"):
        run = subprocess.run(
            [sys.executable, "-m", "signatures", "--dir", str(LIBRARY_DIR), "--dir", str(site), command],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stdout + run.stderr


def test_the_cli_drafts_a_signature_that_the_cli_then_accepts(tmp_path):
    line = REAL_LINES["015"]
    run = run_denpex("signatures", "draft", "--line", line, "--class", "port_in_use", "-o", str(tmp_path))
    assert run.returncode == 0, run.stderr
    (path,) = tmp_path.glob("*.toml")
    assert tomllib.loads(path.read_text())["class"] == "port_in_use"
    assert b"passes" in run.stderr
    for command in ("test", "lint"):
        check = run_denpex("signatures", "--library", str(LIBRARY_DIR), "--library", str(tmp_path), command)
        assert check.returncode == 0, check.stdout + check.stderr
    bad = run_denpex("signatures", "draft", "--line", "12 34 0x5f")
    assert bad.returncode == 2 and b"no stable text" in bad.stderr
    wrong = run_denpex("signatures", "draft", "--line", line, "--class", "nope")
    assert wrong.returncode == 2 and b"unknown class" in wrong.stderr
