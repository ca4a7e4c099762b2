"""What runs_r36 (35 real runs scored blind on 57a2867) revealed, with a KeyError kind earlier sets had left open, each
with a variant that must not change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from signatures import InputError, diagnose

CORPUS = Path(__file__).resolve().parent / "corpus"
R36 = CORPUS / "blind_r36" / "runs"
REAL = Path(__file__).resolve().parent / "realworld"


def _top(report):
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_, d.initiating_rank) if d else (report.outcome, None, None)


def _run(where: Path, *inputs: str, matcher):
    return diagnose([str(where / i) for i in inputs], matcher)


def test_an_empty_log_directory_beside_a_console_is_noted_and_the_console_read(matcher, tmp_path):
    # torchrun --log-dir without --tee or --redirects leaves only its attempt directories
    report = _run(R36 / "032", "console.log", "logs", matcher=matcher)
    assert report.outcome == "healthy"
    assert any("directory has no files" in note for note in report.stats.notes)
    failing = tmp_path / "console.log"
    failing.write_text("[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n")
    (tmp_path / "logs" / "none_x" / "attempt_0").mkdir(parents=True)
    assert _top(_run(tmp_path, "console.log", "logs", matcher=matcher))[1:] == ("cuda_oom", 1)
    # nothing but empty directories: a clear refusal, as before
    with pytest.raises(InputError, match="directory has no files"):
        _run(tmp_path, "logs", matcher=matcher)


def test_agents_losing_the_store_after_every_rank_finished_is_their_shutdown(matcher, tmp_path):
    assert _run(R36 / "020", "node-1.log", "node-2.log", matcher=matcher).outcome == "healthy"
    # the same agent lines while node-2's ranks were still training: the store went away under the job
    node2 = [line for line in (R36 / "020" / "node-2.log").read_text().splitlines() if "training finished" not in line]
    (tmp_path / "node-1.log").write_text((R36 / "020" / "node-1.log").read_text())
    (tmp_path / "node-2.log").write_text("\n".join(node2) + "\n")
    assert _top(_run(tmp_path, "node-1.log", "node-2.log", matcher=matcher))[1] in (
        "nccl_remote_peer_exited",
        "node_failure",
    )


def test_a_keyerror_reading_a_records_field_is_the_data(matcher):
    assert _top(_run(REAL / "blind_t6" / "logs", "021_llamafactory_sharegpt_keyerror_rank0.log", matcher=matcher)) == (
        "data.input_pipeline_exception",
        "tokenizer_or_data_error",
        0,
    )
    r35 = CORPUS / "blind_r35" / "runs" / "018"
    assert _top(_run(r35, "console.log", matcher=matcher))[1:] == ("tokenizer_or_data_error", 1)
    # a config's key (cfg["micro_batches"]) or a batch's is the program's, as the evaluators labelled them
    rows = {json.loads(line)["run"]: json.loads(line) for line in (CORPUS / "blind_r28" / "labels.jsonl").open()}
    r28 = CORPUS / "blind_r28" / "runs" / "014"
    assert _top(_run(r28, *rows["014"]["inputs"], matcher=matcher))[1:] == ("python_exception_other", 2)


def test_a_loss_scale_at_its_minimum_with_the_floor_in_the_message(matcher):
    assert _top(_run(R36 / "031", "console.log", matcher=matcher))[:2] == (
        "deepspeed.loss_scale_at_minimum",
        "fp16_loss_scale_overflow",
    )
