"""Signatures added after the blind runs_r16 misses, on real CPU runs made for them (tests/corpus/made_r16; the
scripts that made them are in its gen/): a CPU-only torch asked for CUDA, and torch.load of a cut or empty
checkpoint whose error is vague (an OSError, a seek error, a bare EOFError) but raised inside torch's reader."""

from __future__ import annotations

from pathlib import Path

import pytest

import signatures

RUNS = Path(__file__).resolve().parent / "corpus" / "made_r16" / "runs"


def top(name: str, matcher):
    report = signatures.diagnose([str(RUNS / name)], matcher=matcher)
    assert report.top is not None, report.outcome
    return report.top


@pytest.mark.parametrize(
    ("run", "signature", "rank"),
    [
        ("001_ckpt_cut_half_r1", "checkpoint.load_reader_failed", 1),  # OSError: [Errno 22] Invalid argument
        ("002_ckpt_cut_half_bytesio_r2", "checkpoint.load_reader_failed", 2),  # ValueError: negative seek value
        ("003_ckpt_cut_200b_r0", "checkpoint.zip_reader_corrupt", 0),  # failed finding central directory
        ("004_ckpt_empty_r1", "checkpoint.load_reader_failed", 1),  # bare EOFError (weights_only unpickler)
        ("005_ckpt_one_byte_r2", "checkpoint.unpickling_invalid_load_key", 2),
    ],
)
def test_a_cut_or_empty_checkpoint_is_corrupt_whatever_torch_raised(matcher, run, signature, rank):
    d = top(run, matcher)
    assert (d.class_, d.signature, d.initiating_rank) == ("checkpoint_corrupt", signature, rank)


def test_a_missing_checkpoint_is_not_called_corrupt(matcher):
    # FileNotFoundError is raised by open(), before torch's reader: it stays what it was
    d = top("006_ckpt_missing_r1", matcher)
    assert (d.class_, d.initiating_rank) == ("python_exception_other", 1)


def test_a_cut_dataset_shard_under_the_dataloader_is_a_data_error(matcher):
    # the same EINVAL from the zip reader, in a DataLoader worker's __getitem__: the shard is data, not a checkpoint
    d = top("007_dl_shard_cut_half", matcher)
    assert (d.class_, d.signature) == ("tokenizer_or_data_error", "data.corrupt_tensor_file")


@pytest.mark.parametrize(
    ("run", "rank"),
    [
        ("008_cuda_to_on_cpu_build_r2", 2),  # AssertionError: Torch not compiled with CUDA enabled
        ("009_cuda_set_device_cpu_build_r1", 1),  # module 'torch._C' has no attribute '_cuda_setDevice'
        ("010_nccl_on_cpu_build_r3", 3),  # Distributed package doesn't have NCCL built in
        ("011_cuda_map_location_no_gpu_r0", 0),  # Attempting to deserialize object on a CUDA device ...
    ],
)
def test_a_cpu_only_torch_asked_for_cuda_is_the_environment(matcher, run, rank):
    d = top(run, matcher)
    assert (d.class_, d.signature, d.initiating_rank) == ("cuda_driver_mismatch", "cuda.torch_without_cuda", rank)
