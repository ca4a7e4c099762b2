"""The changes made after the blind blind_t3 (issue-thread excerpts in tests/realworld/blind_t3) and runs_r33, on the
logs that showed the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

HERE = Path(__file__).resolve().parent
T3 = HERE / "realworld" / "blind_t3" / "logs"
T1 = HERE / "realworld" / "blind_t1" / "logs"
R33 = HERE / "corpus" / "blind_r33" / "runs"


def test_a_lone_timeout_in_a_log_of_that_rank_alone_names_no_rank(matcher, tmp_path):
    # sglang: rank 5's watchdog timed out an _ALLGATHER_BASE; the excerpt holds rank 5 only, so the rank it waited
    # on is not in the log: naming rank 5, which only waited, would send on-call to the wrong rank
    d = diagnose([str(T3 / "006_sglang_allgather_watchdog.log")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule, d.attribution.confidence) == (
        "nccl_timeout",
        None,
        "peer_unknown",
        "low",
    )
    assert "rank 5 alone" in d.attribution.reasons[0].text


def test_a_lone_timeout_among_ranks_that_went_on_is_the_odd_rank(matcher):
    # hang.py: rank 0 all-reduces a larger tensor; the other 7 ranks are in the log and did not time out, so the
    # one left waiting is the one whose collective differed
    d = diagnose([str(T1 / "011_pytorch_hang_py_larger_allreduce.log")], matcher).diagnoses[0]
    assert d.initiating_rank == 0


def test_a_dataloader_worker_lost_while_handing_over_a_batch(matcher, tmp_path):
    # rank 1's worker SIGKILLed mid-transfer: the training process sees only ConnectionResetError from
    # resource_sharer, and rank 0 a closed gloo connection
    log = R33 / "004" / "console.log"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "dataloader.batch_handoff_lost",
        "dataloader_worker_killed",
        1,
    )
    # the same reset with the DataLoader's frames gone is a lost peer again, not a lost worker
    text = "\n".join(
        line
        for line in log.read_text().splitlines()
        if "resource_sharer" not in line and "rebuild_storage_fd" not in line
    )
    (tmp_path / "console.log").write_text(text + "\n")
    d = diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0]
    assert d.signature != "dataloader.batch_handoff_lost"


def test_recognised_after_blind_t3(matcher):
    # a GPU busy or unavailable (027), a bus error caught by UCX during NCCL setup (014), the loss stuck at 0.0
    # with a NaN gradient norm (024)
    for name, sig in (
        ("027_elastic_cuda_devices_busy_unavailable.log", "cuda.devices_unavailable"),
        ("014_megatron_nccl_bus_error_shm.log", "nccl.shm_bus_error"),  # its backtrace is NCCL's (after blind_t5)
        ("024_llamafactory_npu_grad_norm_nan.log", "train.loss_zero_grad_norm_nonfinite"),
    ):
        assert diagnose([str(T3 / name)], matcher).diagnoses[0].signature == sig, name


T4 = HERE / "realworld" / "blind_t4" / "logs"


def test_recognised_after_blind_t4(matcher):
    # a watchdog line wrapped after "last enqueued" behind a runner's tag (011; the log holds rank 3 alone, so no
    # rank is named), NCCL's ring search failing (019), the kernel's first OOM line alone (023), gloo's file store
    # refused (018)
    for name, sig in (
        ("011_milabench_dinov2_nccl_timeout_rank3.log", "nccl.watchdog_collective_timeout"),
        ("019_nccl_ring_does_not_loop_back.log", "nccl.internal_error"),
        ("023_dali_dmesg_oom_killer.log", "kernel.oom_killer"),
        ("018_milvlg_gloo_filestore_permission.log", "c10d.file_store_open_failed"),
    ):
        assert diagnose([str(T4 / name)], matcher).diagnoses[0].signature == sig, name
