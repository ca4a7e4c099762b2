"""What blind_t11 and blind_t12 revealed (issue-thread excerpts chosen by kind of failure, scored blind on
5846dc5), each with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes

HERE = Path(__file__).resolve().parent / "realworld"
T11, T12 = HERE / "blind_t11" / "logs", HERE / "blind_t12" / "logs"


def _top(report):
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_, d.initiating_rank) if d else (report.outcome, None, None)


def _text(text: str, matcher):
    return diagnose_sources([source_from_bytes("x.log", text.encode())], matcher)


def test_formats_read_since(matcher):
    cases = {
        T11 / "006_a100_nvlink_uncorrectable.log": ("cuda.nvlink_uncorrectable", "nvlink_ib_error"),
        T11 / "007_deepspeed_loss_scale_stuck_at_1.log": ("fp16.loss_scale_collapsed", "fp16_loss_scale_overflow"),
        T11 / "009_ehr_training_device_side_assert.log": ("cuda.kernel_assertion_failed", "cuda_device_side_assert"),
        T11 / "010_scene_graph_training_killed.log": ("shell.killed_sigkill", "host_oom_killed"),
        T12 / "011_datasets_load_connection_error.log": ("hf_hub.cannot_connect", "hub_network_error"),
        T12 / "023_mmdet_yolov3_fp16_dtype_float_expected_half.log": ("torch.dtype_mismatch", "dtype_mismatch"),
    }
    for log, want in cases.items():
        assert _top(diagnose([str(log)], matcher))[:2] == want, log.name


def test_their_near_misses_stay_quiet(matcher):
    # a healthy warm-up halving, a progress bar that only mentions Killed, a scale at 2
    assert (
        _top(_text("Reducing dynamic loss scale from 65536 to 32768.0\nstep 1 loss 2.0\nstep 2 loss 1.9\n", matcher))[0]
        == "healthy"
    )
    assert (
        _top(_text(" 15%|#5   | 465/3000 [01:02<05:39, 12.45it/s] Killed processes: 0\n", matcher))[0]
        != "shell.killed_sigkill"
    )
    assert _top(_text("Reducing dynamic loss scale from 2 to 1\nstep 1 loss 2.0\n", matcher))[0] == "healthy"


def test_a_rankless_kill_before_the_others_timeouts_is_the_root(matcher):
    # DeepSpeed's launcher: "... exits with return code = -9" (its command line is the last child's, no rank), then
    # the other node's ranks time out: the kill, not the timeouts
    src = T12 / "003_openrlhf_adam_offload_save_exit_minus9.log"
    d = diagnose([str(src)], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("launcher.exit_sigkill", "host_oom_killed", None)
    # the same record after the timeouts: the timeouts came first, and they lead
    lines = src.read_text().splitlines(True)
    moved = "".join(lines[1:] + lines[:1])
    assert _top(_text(moved, matcher))[1] == "nccl_timeout"
