"""What runs_r64 (53 real CPU runs, scored once on e866cb2 by an evaluator who did not see the attribution code)
revealed, with variants that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r64" / "runs"


def _top(run: str, name: str, matcher) -> tuple:
    return top(diagnose([str(RUNS / run / name)], matcher))


def test_a_dataset_the_spawned_workers_cannot_pickle_is_the_programs_not_its_datas(matcher):
    # 013: "AttributeError: Can't pickle local object 'main.<locals>.DS'" through the DataLoader (was
    # tokenizer_or_data_error)
    assert _top("013", "console.log", matcher)[1] == "python_exception_other"


def test_a_float_result_cast_into_an_integer_tensor_is_a_dtype_mismatch(matcher):
    # 040: BCE with Long labels at evaluation on rank 1: "result type Float can't be cast to the desired output
    # type Long" (was a generic exception)
    assert _top("040", "console.log", matcher) == ("torch.dtype_mismatch", "dtype_mismatch", 1)


def test_an_unprefixed_error_right_above_sruns_record_of_one_task_is_that_tasks(matcher):
    # 044: rank 1's gloo device error (GLOO_SOCKET_IFNAME=ib0 absent) printed with no rank, then at once "srun: error:
    # vm: task 1: Exited with exit code 1"; the others' store timeouts and exits come later: rank 1 (was no rank)
    assert _top("044", "slurm-14.out", matcher)[2] == 1
    # the same error with the task's record far below it (other lines between) names no rank that way
    text = (RUNS / "044" / "slurm-14.out").read_text()
    record = "srun: error: vm: task 1: Exited with exit code 1\n"
    assert record in text
    apart = text.replace(record, "").replace(
        "srun: error: vm: tasks 0,2: Exited with exit code 1\n",
        "srun: error: vm: tasks 0,2: Exited with exit code 1\n" + "0: waiting\n" * 4 + record,
    )
    assert top_of_text(matcher, apart)[2] != 1
    # under torchrun agents (srun's "task N" is then an agent, not a rank) the record names no rank this way
    agents = text + (
        "E1208 00:14:06.100000 999 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
        "local_rank: 0 (pid: 4242) of binary: /usr/bin/python3\n"
    )
    assert top_of_text(matcher, agents)[2] != 1


def test_lightning_finding_no_gpu_backend_is_the_cuda_setup(matcher):
    # 045: Trainer(accelerator="gpu") on a CPU-only machine: "MisconfigurationException: No supported gpu backend
    # found!" (was a generic exception)
    assert _top("045", "console.log", matcher)[:2] == ("cuda.no_gpus_available", "cuda_driver_mismatch")
