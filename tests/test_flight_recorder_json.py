"""Flight Recorder dumps written as JSON (torch._C._distributed_c10d._dump_fr_trace_json, real runs with PyTorch
2.13 and gloo in tests/corpus/made_r57), and a launcher-only failure the dumps turn into the hang that started it
(blind runs_r56 053, pickled dumps)."""

import json

from conftest import CORPUS, run_denpex

from signatures import diagnose

MADE = CORPUS / "made_r57"


def _job(run: str):
    return diagnose([str(p) for p in sorted((MADE / run).iterdir())])


def test_json_dumps_are_read_and_name_the_rank_that_never_joined():
    # 001: three ranks, rank 2 blocked; the console holds only torchrun's table (ranks 0 and 1 exit 1, rank 2 143)
    report = _job("001")
    fr = report.flight_recorder
    assert fr is not None and fr.ranks_present == [0, 1, 2]
    assert fr.stuck is not None and fr.stuck.not_joined == [2] and fr.stuck.waiting == [0, 1]
    d = report.diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("flight_recorder.collective_never_joined", "nccl_timeout", 2)
    assert (d.attribution.rule, d.attribution.confidence) == ("flight_recorder", "high")
    assert "rank 2 never joined" in d.summary
    # the launcher's record of the first exit is kept as evidence, not the cause
    assert any(e.kind == "launcher" and e.rank == 0 for e in d.evidence)
    # 002: four ranks, rank 1 blocked
    assert _job("002").diagnoses[0].initiating_rank == 1


def test_dumps_with_no_collective_left_waiting_leave_the_launchers_record():
    # 003: every rank raised after completing the same collective: no rank is behind, the exit stands
    d = _job("003").diagnoses[0]
    assert d.signature == "launcher.exit_error"


def test_pickled_dumps_beside_a_launcher_only_console():
    # runs_r56 053: rank 1 slept at step 5; the others timed out in collective 26 and exited 1: it was the launcher's
    # "rank 0 exited 1", a Python exception with no traceback
    run = CORPUS / "blind_r56" / "runs" / "053"
    d = diagnose([str(run / "console.log"), str(run / "fr")]).diagnoses[0]
    assert (d.signature, d.initiating_rank) == ("flight_recorder.collective_never_joined", 1)
    # without the dumps, the launcher's record is all there is
    assert diagnose([str(run / "console.log")]).diagnoses[0].signature == "launcher.exit_error"


def test_a_json_file_shaped_like_a_dump_but_broken_is_refused_with_a_message(tmp_path):
    _refused_beside_a_log(tmp_path, '{"entries": [{"collective_seq_id": 1}], "pg_status": ' + "{" * 3)


def test_a_json_dump_nested_past_pythons_depth_is_refused_not_a_crash(tmp_path):
    # a review's case: RecursionError from json.loads took the whole diagnosis down
    _refused_beside_a_log(tmp_path, '{"entries": [], "pg_status": ' + "[" * 100000 + "]" * 100000 + "}")


def _refused_beside_a_log(tmp_path, dump_text: str) -> None:
    """A dump-shaped JSON file that cannot be read, handed over with a log: the log is diagnosed (exit 0) and the
    file is named in stats.skipped as no Flight Recorder dump."""
    dump = tmp_path / "fr_trace_rank_0.json"
    dump.write_text(dump_text)
    log = tmp_path / "console.log"
    log.write_text("step 1 loss 0.5\n")
    done = run_denpex("diagnose", "--json", str(log), str(dump))
    assert done.returncode == 0, done.stderr
    skipped = json.loads(done.stdout)["stats"]["skipped"]
    assert any("fr_trace_rank_0.json" in s and "not a Flight Recorder dump" in s for s in skipped)
