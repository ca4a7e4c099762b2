"""What runs_r55 (39 real runs on frameworks: FSDP, DCP, torch.compile, Lightning, HF Trainer, accelerate; scored
blind on 4784613) revealed, each with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

R55 = Path(__file__).resolve().parent / "corpus" / "blind_r55" / "runs"


def test_the_one_rank_the_launcher_had_to_stop_is_the_one_the_others_timed_out_on(matcher):
    # 003: only the console's last 110 lines: rank 2's gloo timeout, then torchrun's table: ranks 0, 2, 3 exit 1 on
    # their own, rank 1 (blocked, silent) is SIGTERMed. Rank 2, the one timeout in view, was named
    assert top(diagnose([str(R55 / "003" / "console_tail.log")], matcher)) == ("gloo.recv_timeout", "nccl_timeout", 1)
    # with a second rank stopped by the launcher, the table no longer singles one out
    text = (R55 / "003" / "console_tail.log").read_text()
    two = text.replace("exitcode  : 1 (pid: 15498) ", "exitcode  : -15 (pid: 15498)  (SIGTERM)")
    assert "15498)  (SIGTERM)" in two and top_of_text(matcher, two)[2] != 1


def test_a_distributed_checkpoint_missing_a_shard_file_is_an_incomplete_checkpoint(matcher):
    # 009: dcp.load of a directory whose __1_0.distcp was deleted: CheckpointException, then FileNotFoundError naming
    # the shard on both ranks; it was a generic exception
    run = R55 / "009"
    assert top(diagnose([str(run / "console.log"), str(run / "torchrun_logs")], matcher))[:2] == (
        "checkpoint.dcp_shard_missing",
        "checkpoint_corrupt",
    )
    # a missing data file is no checkpoint's
    line = "[rank0]: FileNotFoundError: [Errno 2] No such file or directory: '/data/part-00001.parquet'\n"
    assert top_of_text(matcher, line)[1] != "checkpoint_corrupt"
