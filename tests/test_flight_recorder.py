"""Flight Recorder dumps (made by real PyTorch 2.13 with gloo, tests/corpus/blind_r1/runs/003_*): read without
running code, and they name the rank that never joined the collective the others wait in."""

import os
import pickle
import shutil

from conftest import CORPUS, run_denpex

from signatures import diagnose

RUN = CORPUS / "blind_r1" / "runs" / "003_silent_fifo_hang"


def test_the_dumps_name_the_rank_that_never_joined():
    report = diagnose([str(RUN / "console.log"), str(RUN / "flight_recorder")])
    fr = report.flight_recorder
    assert fr is not None
    assert fr.ranks_present == [0, 1, 2, 3] and fr.ranks_missing == []
    assert fr.stuck is not None
    assert fr.stuck.not_joined == [3] and fr.stuck.waiting == [0, 1, 2]
    a = report.diagnoses[0].attribution
    assert (a.rank, a.rule, a.confidence) == (3, "flight_recorder", "high")
    assert report.diagnoses[0].initiating_rank == 3


def test_missing_dumps_are_named_with_how_to_get_them(tmp_path):
    for n in (0, 2, 3):
        shutil.copy(RUN / "flight_recorder" / f"fr_trace_rank_{n}", tmp_path)
    done = run_denpex("diagnose", str(tmp_path))
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "missing for ranks 1" in out and "TORCH_FR_DUMP_TEMP_FILE" in out


class _RunsACommand:
    def __reduce__(self):
        return (os.system, (f"touch {os.environ['FR_MARK']}",))


def test_a_pickle_that_would_run_code_is_refused(tmp_path, monkeypatch):
    mark = tmp_path / "ran"
    monkeypatch.setenv("FR_MARK", str(mark))
    evil = tmp_path / "nccl_trace_rank_0"
    evil.write_bytes(pickle.dumps({"entries": [_RunsACommand()]}))
    done = run_denpex("diagnose", str(evil))
    assert done.returncode == 2 and "only plain data is read" in done.stderr.decode()
    assert not mark.exists()


def _dump(path, rank, sizes):
    entries = [
        {
            "collective_seq_id": seq,
            "profiling_name": "nccl:all_reduce",
            "input_sizes": [[size]],
            "state": "scheduled",
            "process_group": ("0", "default_pg"),
        }
        for seq, size in enumerate(sizes, 1)
    ]
    path.write_bytes(pickle.dumps({"version": "2.4", "rank": rank, "entries": entries}))


def test_a_size_mismatch_at_the_same_collective(tmp_path):
    for rank in range(4):
        _dump(tmp_path / f"trace_{rank}", rank, [10, 20, 33 if rank == 1 else 30])
    report = diagnose([str(tmp_path)])
    assert report.flight_recorder is not None and report.flight_recorder.mismatch is not None
    assert report.flight_recorder.mismatch.odd == [1] and report.flight_recorder.mismatch.seq == 3


def test_a_torchelastic_error_file_is_its_ranks_traceback():
    """error.json written by @record under --log-dir (real run): the rank comes from its path, the time from it."""
    run = CORPUS / "blind_r1" / "runs" / "002_logdir_shape_onehot"
    error_file = next(run.rglob("attempt_0/1/error.json"))
    d = diagnose([str(error_file)]).diagnoses[0]
    assert d.class_ == "shape_mismatch" and d.initiating_rank == 1 and d.first_seen.time
