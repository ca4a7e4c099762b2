"""The changes made after the blind runs_r22 and runs_r23 (real CPU runs in tests/corpus/blind_r22 and blind_r23),
on the runs that showed the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose, render_text
from signatures._flight import Dump, analyze

CORPUS = Path(__file__).resolve().parent / "corpus"
R22, R23 = CORPUS / "blind_r22" / "runs", CORPUS / "blind_r23" / "runs"


def test_ddps_shape_check_names_the_rank_whose_model_differs_from_rank_0s(matcher):
    # three plain processes, JSON-lines logs: rank 1 read a stale config (hidden 48) and raised in DDP's check
    d = diagnose([str(R22 / "007_stale_config_ddp_shapes")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "ddp.param_shapes_differ_across_ranks",
        "collective_mismatch",
        1,
    )
    assert (d.attribution.rule, d.attribution.confidence) == ("collective_odd_one_out", "high")
    # two torchrun agents: node-b's rank 3 built a 1024-token vocabulary where node-a's ranks built 512
    d = diagnose([str(R23 / "003_config_mismatch_2node")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("collective_mismatch", 3)


def test_every_rank_but_0_failing_ddps_shape_check_names_rank_0(matcher, tmp_path):
    msg = "RuntimeError: [{r}]: params[0] in this process with sizes [48, 16] appears not to match sizes of the same param in process 0."
    lines = [f"[rank{r}]: " + msg.format(r=r) for r in (1, 2, 3)]
    (tmp_path / "console.log").write_text("[rank0]: starting world_size=4\n" + "\n".join(lines) + "\n")
    d = diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("collective_mismatch", 0, "collective_odd_one_out")
    assert "every rank but 0" in d.attribution.reasons[0].text


def test_a_token_id_beyond_the_vocabulary_in_a_tokenizers_encode_is_a_data_error(matcher):
    d = diagnose([str(R22 / "003_tokenizer_oob_rank3")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("data.input_pipeline_exception", "tokenizer_or_data_error", 3)


def _dump(rank: int, sizes: list) -> Dump:
    entries = [
        {"collective_seq_id": 14, "profiling_name": "gloo:all_reduce", "input_sizes": sizes, "state": "scheduled"}
    ]
    return Dump(rank, f"rank_{rank}", entries)


def test_two_flight_recorder_dumps_that_disagree_name_no_odd_rank():
    # one dump against one: either side may be the odd one (blind_r22 015: the third rank wrote no dump)
    assert analyze([_dump(1, [[676]]), _dump(2, [[2]])], 3)["mismatch"]["odd"] == []
    assert analyze([_dump(0, [[676]]), _dump(1, [[676]]), _dump(2, [[2]])], 3)["mismatch"]["odd"] == [2]


def test_a_tie_between_the_dumps_leaves_the_rank_to_the_log(matcher):
    report = diagnose([str(R22 / "015_eval_allreduce_skipped_fr")], matcher)
    d = report.diagnoses[0]
    assert d.class_ == "collective_mismatch" and d.attribution.rule != "flight_recorder"
    assert "collective 14 differs between the dumps (rank 2: gloo:all_reduce [[2]]" in render_text(report)


def test_an_async_checkpoint_wait_that_ended_is_not_a_hang_and_the_timeout_is_the_finding(matcher):
    # four srun tasks; each waits for the previous async save; on ranks 0, 1 and 3 the next shard is "written";
    # rank 2's future.result(timeout=20) raises TimeoutError
    d = diagnose([str(R23 / "010_async_ckpt_timeout")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "checkpoint.async_future_timeout",
        "checkpoint_write_timeout",
        2,
    )


def test_a_silent_rank_whose_last_line_started_a_background_shard_write_hung_in_it(matcher):
    # blind_r18 023: every rank logs "checkpoint step 15: shard write started in background" and then "wrote
    # .../shard-0000N-of-00004.pt", except rank 3, which says nothing more; ranks 0-2 time out
    runs = CORPUS / "blind_r18" / "runs"
    d = diagnose([str(runs / "023_async_ckpt_writer_stuck")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "checkpoint.save_never_completed",
        "checkpoint_writer_hang",
        3,
    )
