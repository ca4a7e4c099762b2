"""What runs_r62 and runs_r63 (52 and 64 real CPU runs, scored once on b5a6417 by evaluators who did not see the
attribution code) revealed, with variants that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

CORPUS = Path(__file__).resolve().parent / "corpus"
R62 = CORPUS / "blind_r62" / "runs"
R63 = CORPUS / "blind_r63" / "runs"


def test_a_time_limit_after_the_ranks_timed_out_is_teardown_in_per_rank_files(matcher):
    # r62 002: srun -o %x-%j-%t.out, logging with no rank in the lines (the file name's task id is not read); ranks 0
    # and 2 time out, rank 1 is deadlocked, the time limit ends it a minute later: the silent rank, not the limit
    names = ["llm-pretrain-2-0.out", "llm-pretrain-2-1.out", "llm-pretrain-2-2.out", "slurm-2.out"]
    report = diagnose([str(R62 / "002" / n) for n in names], matcher)
    assert top(report)[1:] == ("nccl_timeout", 1)
    # the limit alone, with the ranks' steps still coming right up to it, stands
    alone = (
        (R62 / "002" / "slurm-2.out").read_text().replace("srun: error: vm: tasks 0,2: Exited with exit code 1\n", "")
    )
    assert top_of_text(matcher, alone)[1] == "slurm_time_limit"


def test_srun_recording_the_timed_out_tasks_exits_before_the_limit_shows_the_job_had_failed(matcher):
    # r62 047: no clock in the ranks' lines; ranks 0-2 time out in a barrier and srun records their exits, then the
    # time limit ends rank 3, blocked in its checkpoint save: rank 3, the one that never reported the timeout
    report = diagnose([str(R62 / "047" / "slurm-18.out")], matcher)
    assert top(report)[1:] == ("nccl_timeout", 3)
    # the same exits recorded after the limit's line are the limit's doing: the limit stands
    text = (R62 / "047" / "slurm-18.out").read_text()
    exits = [line for line in text.splitlines(keepends=True) if "Exited with exit code" in line]
    moved = text
    for line in exits:
        moved = moved.replace(line, "")
    moved += "".join(exits)
    assert top_of_text(matcher, moved)[1] == "slurm_time_limit"


def test_a_restart_that_failed_to_connect_after_a_first_attempt_of_timeouts_is_that_timeouts_consequence(matcher):
    # r62 050: torchrun --max-restarts 1 on one console; attempt 0: rank 0 times out, rank 1 silent; the restart's
    # workers cannot connect (stale peers): the first attempt's silent rank 1 started it (was rendezvous_failure)
    report = diagnose([str(R62 / "050" / "console.log")], matcher)
    assert top(report)[1:] == ("nccl_timeout", 1)
    # a restart that fails on its own error (not forming the group again) still stands on its own
    text = (R62 / "050" / "console.log").read_text()
    own = text.replace(
        "RuntimeError: Gloo connectFullMesh failed with",
        "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory. Was:",
    )
    assert top_of_text(matcher, own)[1] != "nccl_timeout"


def test_a_failed_read_from_an_object_store_is_a_storage_failure(matcher):
    # r63 021 and 042: a shard reader's "ConnectionError: Transient failure reading shard s3://...: connection reset"
    for run, rank in (("021", 1), ("042", 0)):
        report = diagnose([str(R63 / run / "console.log")], matcher)
        assert top(report) == ("storage.object_store_read_failed", "storage_io_error", rank)
    # a reset with no object-store path is not one
    plain = "[rank0]: ConnectionError: Transient failure reading shard /data/train-00017.bin: connection reset\n"
    assert top_of_text(matcher, plain)[0] != "storage.object_store_read_failed"


def test_inf_losses_on_steps_the_scaler_skipped_are_the_overflow_not_a_diverged_run(matcher):
    # r63 046: "Gradient overflow. Skipping step, loss scale reduced" then "loss=inf" on that step, three times,
    # training then finishes: healthy (was nan_inf_loss)
    assert top(diagnose([str(R63 / "046" / "console.log")], matcher))[0] == "healthy"
    # r63 047: overflow every step until the scaler's minimum: the loss scale, not the inf losses
    report = diagnose([str(R63 / "047" / "console.log")], matcher)
    assert top(report)[:2] == ("deepspeed.loss_scale_at_minimum", "fp16_loss_scale_overflow")
    # the same inf losses with no skip announced above them are a non-finite loss
    text = (R63 / "046" / "console.log").read_text()
    unannounced = "".join(line for line in text.splitlines(keepends=True) if "Gradient overflow" not in line)
    assert top_of_text(matcher, unannounced)[1] == "nan_inf_loss"
