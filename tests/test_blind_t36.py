"""What blind_t36 (23 issue-thread excerpts, scored once on 990f898 by an evaluator who did not see the attribution
code) revealed, with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

LOGS = Path(__file__).resolve().parent / "realworld" / "blind_t36" / "logs"


def _watchdog(rank: int, seq: int, op: str) -> str:
    return (
        f"[rank{rank}]:[E513 13:25:57.714781669 ProcessGroupNCCL.cpp:616] [Rank {rank}] Watchdog caught collective "
        f"operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn=5164000, NumelOut=5164000, "
        "Timeout(ms)=1800000) ran for 1800042 milliseconds before timing out.\n"
    )


def test_the_one_rank_whose_watchdog_names_other_work_is_the_odd_one_out(matcher):
    # 001: NeMo, three ranks time out; ranks 1 and 2 in BROADCAST 532339, rank 0 in _ALLGATHER_BASE 532341
    (log,) = LOGS.glob("001_*.log")
    report = diagnose([str(log)], matcher)
    assert top(report)[1:] == ("nccl_timeout", 0)
    assert report.diagnoses[0].attribution.rule == "odd_work_out"
    # behind works the same way: the one rank left in an earlier call
    behind = _watchdog(0, 532341, "ALLREDUCE") + _watchdog(1, 532341, "ALLREDUCE") + _watchdog(2, 532339, "BROADCAST")
    assert top_of_text(matcher, behind)[1:] == ("nccl_timeout", 2)
    # every rank in the same work: none stands out
    alike = "".join(_watchdog(r, 532339, "BROADCAST") for r in range(3))
    assert top_of_text(matcher, alike)[2] is None
    # two ranks apart: no majority to be odd against
    two = _watchdog(0, 532341, "_ALLGATHER_BASE") + _watchdog(1, 532339, "BROADCAST")
    assert top_of_text(matcher, two)[2] is None


def test_an_sglang_schedulers_record_names_the_rank_of_the_traceback_it_printed(matcher):
    # 009: "[2025-02-21 22:59:28 TP0] Scheduler hit an exception: Traceback ..." with the frames and the CUDA error
    # below it unprefixed: the error is TP rank 0's
    (log,) = LOGS.glob("009_*.log")
    assert top(diagnose([str(log)], matcher))[1:] == ("cuda_illegal_memory_access", 0)
    text = log.read_text()
    # with pipeline stages the TP rank is a rank within one stage: not read as the job's rank
    assert top_of_text(matcher, text.replace(" TP0]", " PP1 TP0]"))[2] is None
    # an unprefixed traceback right under another rank's routine line is not that rank's
    routine = (
        "2026-12-07 20:49:35,506 [RANK 3] INFO trainer: step 1 loss=0.6757\n"
        "Traceback (most recent call last):\n"
        '  File "/work/train.py", line 12, in <module>\n'
        "    main()\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    assert top_of_text(matcher, routine)[1:] == ("cuda_illegal_memory_access", None)
    # ... but under a record that announces the failure, it is
    record = routine.replace("INFO trainer: step 1 loss=0.6757", "ERROR trainer: step 2 failed:")
    assert top_of_text(matcher, record)[1:] == ("cuda_illegal_memory_access", 3)


def test_megatron_dist_checkpointing_shape_mismatch_is_a_checkpoint_load_mismatch(matcher):
    # 013: Cosmos loading a NeMo checkpoint: "CheckpointingException: Global shape mismatch for loaded ((4096, 68))
    # and expected ((4096, 72)) tensor for key ..." (was a generic exception)
    (log,) = LOGS.glob("013_*.log")
    assert top(diagnose([str(log)], matcher))[:2] == ("checkpoint.state_dict_size_mismatch", "checkpoint_load_mismatch")
    # another CheckpointingException (a missing shard) is not a shape mismatch
    missing = "megatron.core.dist_checkpointing.core.CheckpointingException: Array /ckpt/model.x not found\n"
    assert top_of_text(matcher, missing)[0] != "checkpoint.state_dict_size_mismatch"


def test_horovods_start_timeout_is_a_group_that_never_formed(matcher):
    # 014: Horovod on Ray, "Exception: Timed out waiting for tasks to start. Please check connectivity between
    # servers ..." (was healthy: nothing matched)
    (log,) = LOGS.glob("014_*.log")
    assert top(diagnose([str(log)], matcher))[:2] == ("horovod.start_timeout", "rendezvous_failure")


def test_a_cgroup_oom_report_cut_at_the_pastes_end_is_still_the_oom_killer(matcher):
    # 020: the kernel's task table, then "oom-kill:constraint=CONSTRAINT_MEMCG,..." cut before task= and pid=
    (log,) = LOGS.glob("020_*.log")
    assert top(diagnose([str(log)], matcher))[:2] == ("kernel.oom_killer", "host_oom_killed")
    # the task table alone is no kill
    table = "\n".join(line for line in log.read_text().splitlines() if "oom-kill:" not in line) + "\n"
    assert top_of_text(matcher, table)[0] != "kernel.oom_killer"


def test_cuda_error_802_is_the_nodes_driver_stack_not_nccl(matcher):
    # 016: LLaMA-Factory on B200s, NCCL's "unhandled cuda error" at the first barrier with "Cuda failure 802 'system
    # not yet initialized'" under it: the fabric manager, not NCCL (was nccl_system_error)
    (log,) = LOGS.glob("016_*.log")
    assert top(diagnose([str(log)], matcher))[:2] == ("cuda.system_not_ready", "cuda_driver_mismatch")
    # NCCL's unhandled cuda error with another CUDA failure under it stays NCCL's
    other = log.read_text().replace("Cuda failure 802 'system not yet initialized'", "Cuda failure 'out of memory'")
    assert top_of_text(matcher, other)[0] != "cuda.system_not_ready"


def test_one_step_with_the_loss_and_every_term_nan_is_a_failure_unless_training_went_on(matcher):
    # 017 (and blind_t35 015): a single mmengine line, "loss: nan  loss_rpn_cls: nan  loss_rpn_bbox: nan ..."; the
    # repeated-NaN rule forgives one line, but the forward pass producing NaN in every term is the failure shown
    (log,) = LOGS.glob("017_*.log")
    assert top(diagnose([str(log)], matcher))[:2] == ("train.loss_terms_all_nonfinite", "nan_inf_loss")
    # the same line followed by finite steps: a bad batch the run got past (mmdetection#5911's shape)
    line = log.read_text().strip()
    later = [line.replace("[ 500/2931]", f"[ {n}/2931]").replace("nan", "0.4127") for n in (550, 600)]
    assert top_of_text(matcher, "\n".join([line, *later]) + "\n")[0] == "healthy"
    # two terms non-finite is not "every term"
    two = line.replace(
        "loss_rpn_cls: nan  loss_rpn_bbox: nan  loss_cls: nan", "loss_rpn_cls: 0.2  loss_rpn_bbox: 0.1  loss_cls: 0.3"
    )
    assert top_of_text(matcher, two + "\n")[0] != "train.loss_terms_all_nonfinite"
