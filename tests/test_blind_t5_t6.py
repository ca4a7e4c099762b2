"""What blind_t5 and blind_t6 revealed (issue-thread excerpts scored blind on f3d77c2), each checked with a variant
that must not change: formats and wrappers not seen before more than reasoning."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

HERE = Path(__file__).resolve().parent / "realworld"
T5, T6 = HERE / "blind_t5" / "logs", HERE / "blind_t6" / "logs"


def _top(report):
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_) if d else (report.outcome, None)


def test_a_log_that_ends_inside_a_traceback_is_a_failure_not_healthy(matcher, tmp_path):
    # DeepSpeed fp16: every rank's traceback runs into the loss scaler, the paste cut before the exception line
    src = T5 / "014_llamafactory_baichuan13b_loss_scale_min.log"
    report = diagnose([str(src)], matcher)
    # a Python exception whose line is cut off (python.traceback_cut since blind_t13), at the traceback's last frame
    d = report.diagnoses[0]
    assert (d.signature, d.class_, d.evidence[0].line) == ("python.traceback_cut", "python_exception_other", 26)
    assert "in _update_scale" in d.evidence[0].text
    # the same traceback with its exception line: that exception is the answer
    done = tmp_path / "done.log"
    done.write_text(
        src.read_text()
        + "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.\n"
    )
    assert diagnose([str(done)], matcher).outcome == "diagnosed"
    # ... and a traceback the run went past (caught, then training went on) is not the end of the log
    went_on = tmp_path / "went_on.log"
    went_on.write_text(src.read_text() + "".join(f"step {i} loss 0.{i}\n" for i in range(1, 12)))
    assert diagnose([str(went_on)], matcher).outcome == "healthy"


def test_the_agents_store_socket_timing_out_at_launch_is_a_rendezvous_failure(matcher):
    for log in (
        T5 / "015_swift_grpo_multinode_rdzv_socket_timeout.log",
        T6 / "012_msswift_grpo_multinode_store_timeout.log",
    ):
        report = diagnose([str(log)], matcher)
        assert _top(report) == ("elastic.agent_store_read_timeout", "rendezvous_failure")
        assert report.diagnoses[0].action == "restart"


def test_slurms_memory_limit_kill_is_not_a_cancel_from_outside(matcher, tmp_path):
    src = T5 / "002_coqui_stt_slurm_mem_limit.log"
    report = diagnose([str(src)], matcher)
    assert _top(report) == ("slurm.job_memory_limit_exceeded", "host_oom_killed")
    assert report.diagnoses[0].action == "fix_and_restart"
    # without the accounting plugin's lines the same cancel is a cancel
    plain = tmp_path / "cancel.log"
    plain.write_text("".join(ln for ln in src.read_text().splitlines(True) if "memory limit" not in ln))
    assert _top(diagnose([str(plain)], matcher)) == ("slurm.job_cancelled", "preemption_sigterm")


def test_nccl_errors_under_other_wrappers(matcher):
    cases = {
        T5 / "001_horovod_ncclcomminitrank_system_error.log": ("nccl.unhandled_system_error", "nccl_system_error"),
        T5 / "005_deepspeed_nccl_bus_error_shm.log": ("nccl.shm_bus_error", "nccl_system_error"),
        HERE / "blind_t3" / "logs" / "014_megatron_nccl_bus_error_shm.log": ("nccl.shm_bus_error", "nccl_system_error"),
        T5 / "019_horovod_shut_down_mpirun_abort.log": ("horovod.shut_down", "nccl_remote_peer_exited"),
        T6 / "025_parlai_srun_nccl_invalid_argument.log": ("nccl.invalid_argument", "nccl_system_error"),
        T6 / "006_accelerate_address_in_use.log": ("c10d.server_socket_bind_failed", "port_in_use"),
    }
    for log, want in cases.items():
        assert _top(diagnose([str(log)], matcher)) == want, log.name


def test_a_dataloader_bus_error_stays_the_dataloaders(matcher, tmp_path):
    # the NCCL reading needs NCCL's frames under the signal: a bus error whose backtrace is the allocator's is not it
    text = (T5 / "005_deepspeed_nccl_bus_error_shm.log").read_text().replace("ncclGroupEnd", "THPStorage_newSharedFd")
    (tmp_path / "w.log").write_text(text)
    assert _top(diagnose([str(tmp_path / "w.log")], matcher)) == ("process.sigbus", "dataloader_worker_killed")


def test_mmdetections_nan_loss_lines(matcher, tmp_path):
    src = T6 / "013_mmdet_loss_bbox_nan_from_scratch.log"
    assert _top(diagnose([str(src)], matcher)) == ("train.loss_nonfinite_repeated", "nan_inf_loss")
    # one non-finite loss line alone is not a broken run
    lines = src.read_text().splitlines(True)
    one = [
        ln
        for i, ln in enumerate(lines)
        if "loss: nan" not in ln or i == next(j for j, x in enumerate(lines) if "loss: nan" in x)
    ]
    (tmp_path / "one.log").write_text("".join(one))
    assert diagnose([str(tmp_path / "one.log")], matcher).outcome != "diagnosed"
