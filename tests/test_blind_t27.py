"""What blind_t27 (25 excerpts from public issue threads across many failure classes, scored blind on 4784613)
revealed, each with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

T27 = Path(__file__).resolve().parent / "realworld" / "blind_t27" / "logs"


def _log(prefix: str) -> str:
    (path,) = T27.glob(f"{prefix}_*.log")
    return str(path)


def test_an_ascend_hccl_notify_wait_timeout_is_a_collective_timeout(matcher):
    # 013: torch_npu's "NPU error, error code is 107020" and CANN's "EI0002: The wait execution of the Notify register
    # times out": it was called healthy
    assert top(diagnose([_log("013")], matcher))[:2] == ("hccl.collective_timeout", "nccl_timeout")
    # the device error alone says no timeout
    text = Path(_log("013")).read_text()
    alone = "".join(line for line in text.splitlines(keepends=True) if "EI0002" not in line)
    assert top_of_text(matcher, alone)[0] != "hccl.collective_timeout"


def test_an_extension_build_that_ninja_gave_up_on_is_an_environment_failure(matcher):
    # 021: "nvcc fatal   : Value 'c++17' is not defined for option 'std'" and "ninja: build stopped: subcommand
    # failed." with the paste ending before torch's "Error building extension": it was called healthy
    assert top(diagnose([_log("021")], matcher))[:2] == ("torch.extension_build_failed", "dependency_abi_mismatch")
    # a build that failed while the job trained on after it (an optional kernel, a fallback) stopped nothing
    text = Path(_log("021")).read_text()
    steps = "".join(f"2026-12-07 10:00:{s:02d},000 INFO step {s} loss 2.{s:02d}\n" for s in range(1, 30))
    assert top_of_text(matcher, text + steps)[0] == "healthy"


def test_a_traceback_cut_inside_deepspeeds_batch_size_check_is_that_config_error(matcher):
    # 011: the paste ends at "assert train_batch == micro_batch * grad_acc * self.world_size, (" in
    # deepspeed/runtime/config.py's _batch_assertion: it was a generic cut traceback
    assert top(diagnose([_log("011")], matcher))[:2] == ("deepspeed.batch_size_assertion", "deepspeed_config_error")
    # cut inside another DeepSpeed frame, it stays a cut traceback
    text = (
        Path(_log("011"))
        .read_text()
        .replace("in _batch_assertion", "in _do_sanity_check")
        .replace("in _configure_train_batch_size", "in _initialize_params")
    )
    assert top_of_text(matcher, text)[0] == "python.traceback_cut"


def test_horovods_stall_warning_is_a_hang_whose_rank_the_coordinator_does_not_give(matcher):
    # 018: the coordinator's (rank 0's) stall-inspector warning, wrapped by the paste, after the last step; it was
    # called healthy. The warning is rank 0's line about other ranks: rank 0 is not named
    d = diagnose([_log("018")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "horovod.stall_inspector_warning",
        "job_hang_no_progress",
        None,
    )
    # a stall that cleared, every rank training on after it, is no failure
    text = Path(_log("018")).read_text()
    steps = "".join(
        f"[1,{r}]<stdout>:INFO:root:[step {21000 + s}]  mlm_loss=1.40\n" for s in range(3) for r in range(2)
    )
    assert top_of_text(matcher, text + steps)[0] == "healthy"
