"""The changes made after the blind runs_r19 (real CPU runs in tests/corpus/blind_r19/runs), on the runs that
showed the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r19" / "runs"


def test_a_silent_rank_whose_last_line_started_a_save_hung_in_it(matcher):
    # two torchrun agents; every rank logs "saving checkpoint | step 30"; ranks 0, 2 and 3 go on to the barrier and
    # time out there; rank 1 blocked on a lock inside its save and never printed again
    d = diagnose([str(RUNS / "010_ckpt_lock_wait")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "checkpoint.save_never_completed",
        "checkpoint_writer_hang",
        1,
    )
    assert d.attribution.rule == "silent_rank"
    assert any("started what it never finished" in r.text for r in d.attribution.reasons)
    assert any(c.class_ == "nccl_timeout" for c in d.collateral)


def test_a_silent_rank_whose_last_line_is_a_step_stays_the_timeouts_finding(matcher, tmp_path):
    # the same run with rank 1's save line removed: its last word is a step, nothing says where it stopped
    for log in (RUNS / "010_ckpt_lock_wait").iterdir():
        kept = [line for line in log.read_text().splitlines() if "rank 1/4 | saving checkpoint | step 30" not in line]
        (tmp_path / log.name).write_text("\n".join(kept) + "\n")
    d = diagnose([str(tmp_path)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_timeout", 1, "silent_rank")


def test_a_torn_jsonl_record_parsed_line_by_line_is_a_data_error(matcher):
    d = diagnose([str(RUNS / "007_jsonl_shard_bad")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("data.input_pipeline_exception", "tokenizer_or_data_error", 0)


def test_a_rank_named_by_a_worker_suffix_that_left_early(matcher):
    # mp.spawn; every line ends "(worker N of 3)"; rank 1 ran out of batches, said so and exited; 0 and 2 lost it
    d = diagnose([str(RUNS / "003_early_epoch_end")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (1, "finished_early")


def test_the_worker_suffix_is_read_as_the_rank():
    from signatures._context import prefix_of
    from signatures._lines import parse_prefix

    line = "23:43:57.392534 I step 1/60 | loss: 1.3060, grad_norm: 0.689  (worker 2 of 3)"
    assert parse_prefix(line).rank == 2 and prefix_of(line.encode())[0] == 2
    assert parse_prefix("23:43:57 I loaded 3 files (worker pool of 4)").rank is None


def test_a_torn_jsonl_record_read_through_an_aliased_json_module(matcher):
    # blind_r20 012: "samples.append(_j.loads(ln)['text'])" raising JSONDecodeError on rank 2
    runs = RUNS.parent.parent / "blind_r20" / "runs"
    d = diagnose([str(runs / "012_jsonl_corpus")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("tokenizer_or_data_error", 2)
