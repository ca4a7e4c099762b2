"""What blind_t7 revealed (PyTorch/DeepSpeed/NCCL/RL issue-thread excerpts, scored blind on 6257654), each with a
variant that must not change."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes

T7 = Path(__file__).resolve().parent / "realworld" / "blind_t7" / "logs"


def _top(report):
    d = report.diagnoses[0]
    return d.signature, d.class_, d.initiating_rank


def test_a_kernels_unprefixed_assertion_takes_the_rank_of_the_traceback_right_after_it(matcher):
    src = T7 / "004_megatron_mcore_loop_device_assert.log"
    d = diagnose([str(src)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("cuda_device_side_assert", 0, "recovered_rank")
    assert d.attribution.confidence == "low" and "rank 0's traceback" in d.attribution.reasons[-1].text
    # rank 2's traceback after the same lines: rank 2; a rank's progress line after them names nobody
    text = src.read_bytes()
    assert _top(diagnose_sources([source_from_bytes("a.log", text.replace(b"[rank0]", b"[rank2]"))], matcher))[2] == 2
    lines = text.split(b"\n")
    progress = b"\n".join(lines[:4] + [b"[rank1]: step 12 loss 0.51"]) + b"\n"
    assert _top(diagnose_sources([source_from_bytes("b.log", progress)], matcher))[2] is None


def test_failures_outside_python_that_were_read_as_nothing(matcher):
    cases = {
        "008_openrlhf_actor_killed_host_mem.log": ("ray.worker_died_unexpectedly", "host_oom_killed"),
        "009_deepspeed_fused_adam_so_missing.log": ("torch.extension_build_failed", "dependency_abi_mismatch"),
        "022_dschat_step2_host_alloc_failed.log": ("rust.alloc_failed", "host_oom_killed"),
    }
    for name, want in cases.items():
        assert _top(diagnose([str(T7 / name)], matcher))[:2] == want, name
