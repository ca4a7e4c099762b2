"""What blind_t8 revealed (application repos' issue-thread excerpts, scored blind on 6257654), each with a variant
that must not change."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes
from signatures._context import rank_and_host

T8 = Path(__file__).resolve().parent / "realworld" / "blind_t8" / "logs"


def _top(report):
    d = report.diagnoses[0]
    return d.signature, d.class_, d.initiating_rank


def test_open_mpis_tag_output_names_the_rank(matcher):
    # horovodrun/mpirun --tag-output: "[1,0]<stderr>:..." is job 1's rank 0
    assert rank_and_host("[1,3]<stderr>:Traceback (most recent call last):") == (3, None)
    assert rank_and_host("[12,0]<stdout>:Train Epoch: 1 [52480/60000 (87%)]") == (0, None)
    assert rank_and_host("[1,3] <stderr>: not the tag") == (None, None)
    report = diagnose([str(T8 / "012_horovod_mpirun_dataloader_bus_error.log")], matcher)
    assert _top(report) == ("dataloader.shm_bus_error", "dataloader_worker_killed", 0)
    # the same lines from rank 2's tag: rank 2
    text = (T8 / "012_horovod_mpirun_dataloader_bus_error.log").read_bytes().replace(b"[1,0]<", b"[1,2]<")
    assert _top(diagnose_sources([source_from_bytes("job.log", text)], matcher)) == (
        "dataloader.shm_bus_error",
        "dataloader_worker_killed",
        2,
    )


def test_cuda_symbol_not_found_and_gloo_given_an_mps_tensor(matcher):
    report = diagnose([str(T8 / "007_sam2_ddp_named_symbol_not_found.log")], matcher)
    assert _top(report)[:2] == ("cuda.symbol_not_found", "cuda_driver_mismatch")
    report = diagnose([str(T8 / "010_ultralytics_ddp_mps_gloo_device.log")], matcher)
    assert _top(report) == ("torch.tensors_on_different_devices", "device_mismatch", 1)
    assert "(cpu and mps:0)" in report.diagnoses[0].summary
