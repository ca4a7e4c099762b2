"""A rank killed without a word while its own torchrun agent lived on (signatures/_vanished.py,
process.killed_alone): real runs made here (tests/corpus/made_r35, the kernel's cgroup OOM killer) and the blind
runs_r32 018 it was written from."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from signatures import diagnose
from signatures._schema import Case

CORPUS = Path(__file__).resolve().parent / "corpus"
MADE = CORPUS / "made_r35" / "runs"

KILLED = [
    (MADE / "001_oom_killed_one_agent", ["logs"], 2, 2, "rank 0"),  # one agent, 3 workers
    (MADE / "002_oom_killed_two_agents", ["node0", "node1"], 3, 1, "rank 2"),  # two agents: rank 3 is local 1
    (CORPUS / "blind_r32" / "runs" / "018", ["logs"], 1, 1, "rank 0"),  # print-style lines, stdout (blind)
]


@pytest.mark.parametrize("run,inputs,rank,local,beside", KILLED, ids=lambda v: getattr(v, "name", None))
def test_a_rank_silent_beside_a_sibling_that_lived_on_was_killed_not_its_node(
    matcher, run, inputs, rank, local, beside
):
    d = diagnose([str(run / i) for i in inputs], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("process.killed_alone", "host_oom_killed", rank)
    a = d.attribution
    assert (a.rank, a.rule, a.confidence) == (rank, "killed_alone", "low")
    assert f"{beside}, started by the same torchrun agent" in a.reasons[1].text
    assert a.reasons[0].source is not None and f"/attempt_0/{local}/" in a.reasons[0].source  # its own last line
    assert d.action == "fix_and_restart"


def test_a_whole_node_gone_with_its_agent_is_still_a_lost_node(matcher):
    # two agents, node 1's agent and both its workers SIGKILLed together: its attempt directory has no survivor
    run = MADE / "003_node_lost_log_dirs"
    d = diagnose([str(run / "node0"), str(run / "node1")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank, d.attribution.rule) == (
        "elastic.node_lost",
        "node_failure",
        None,
        "node_lost",
    )


def test_the_attempt_directory_is_the_evidence(matcher, tmp_path):
    """The same files, the silent rank's moved to an attempt directory of its own (another agent): nothing says its
    node outlived it, so it is read as a lost node again; and a silent rank whose file printed its own error is
    that error."""
    src = MADE / "001_oom_killed_one_agent" / "logs"
    shutil.copytree(src, tmp_path / "a")
    (run_dir,) = (tmp_path / "a").iterdir()
    other = tmp_path / "a" / "none_other" / "attempt_0"
    other.mkdir(parents=True)
    shutil.move(run_dir / "attempt_0" / "2", other / "2")
    d = diagnose([str(tmp_path / "a")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("node_failure", 2)

    shutil.copytree(src, tmp_path / "b")
    (err,) = (tmp_path / "b").glob("*/attempt_0/2/stderr.log")
    err.write_text(
        err.read_text() + "[rank2]: Traceback (most recent call last):\n"
        '[rank2]:   File "/job/train.py", line 34, in main\n[rank2]:     x = next(it)\n'
        "[rank2]: OSError: [Errno 5] Input/output error\n"
    )
    d = diagnose([str(tmp_path / "b")], matcher).diagnoses[0]
    assert d.signature != "process.killed_alone" and d.initiating_rank == 2


def test_a_case_gives_a_log_or_files_not_both():
    Case(kind="match", log="x")
    Case(kind="match", files={"a/attempt_0/0/stderr.log": "x"})
    for bad in ({}, {"log": "x", "files": {"f.log": "y"}}, {"files": {"f.log": " \n"}}):
        with pytest.raises(ValueError):
            Case(kind="match", **bad)
