"""When several signatures fire, the first reported is the one an expert would call the cause."""

import textwrap

import pytest
from helpers import run

WATCHDOG = (
    "[rank{r}]:[E1130 12:{m}:00.000000000 ProcessGroupNCCL.cpp:616] [Rank {r}] Watchdog caught collective "
    "operation timeout: WorkNCCL(SeqNum=4242, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, "
    "Timeout(ms)=600000) ran for 600213 milliseconds before timing out."
)


def watchdogs(ranks, minute="20"):
    return "\n".join(WATCHDOG.format(r=r, m=minute) for r in ranks)


CASES = {
    "ecc_error_before_the_watchdog": (
        """
        [rank0]: 2026-11-30 12:09:00,000 INFO train: step 900 loss 2.1
        [rank5]: 2026-11-30 12:10:00,000 INFO train: step 901 loss 2.1
        [rank5]: RuntimeError: CUDA error: uncorrectable ECC error encountered
        [rank5]: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
        """
        + watchdogs([0, 1, 2, 3, 4, 6, 7]),
        "gpu_ecc_error",
        5,
    ),
    "xid_in_the_kernel_log_before_the_watchdog": (
        """
        Nov 30 12:10:00 gpu-node-07 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=44120, name=python3, GPU has fallen off the bus.
        [rank3]: 2026-11-30 12:10:02,000 INFO train: step 901 loss 2.1
        [rank3]: RuntimeError: CUDA error: unknown error
        """
        + watchdogs([0, 1, 2, 4, 5, 6, 7]),
        "gpu_xid_hardware",
        3,
    ),  # the kernel line has no rank; rank 3's error does
    "oom_inside_cublas_alloc_failed": (
        """
        [rank2]: 2026-11-30 12:10:00,000 INFO train: step 12 loss 9.1
        [rank2]: RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`
        """
        + watchdogs([0, 1, 3]),
        "cuda_oom",
        2,
    ),
    "oom_before_the_cublas_error_it_causes": (
        """
        [rank1]: 2026-11-30 12:10:00,000 INFO train: step 12 loss 9.1
        [rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 1 has a total capacity of 79.15 GiB of which 120.00 MiB is free.
        [rank1]: During handling of the above exception, another exception occurred:
        [rank1]: RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`
        """,
        "cuda_oom",
        1,
    ),
    "disk_full_hidden_behind_a_generic_save_error": (
        """
        [rank0]: 2026-11-30 12:10:00,000 INFO train: saving checkpoint to /ckpt/step_1000.pt
        [rank0]: Traceback (most recent call last):
        [rank0]:   File "/usr/lib/python3.11/site-packages/torch/serialization.py", line 652, in save
        [rank0]: RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 8452992 vs 8452880
        [rank0]: During handling of the above exception, another exception occurred:
        [rank0]: OSError: [Errno 28] No space left on device
        [rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [10.0.0.2]:4242
        """,
        "checkpoint_disk_full",
        0,
    ),
    "fabric_error_before_the_timeouts": (
        """
        gpu-node-03:51234:51301 [6] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.0.0.14<52814> with status=12 opcode=0 len=0 vendor err 129 (Send) localGid fe80::ba59:9f03:c5:6a2e remoteGids fe80::ba59:9f03:c5:6b1a hca mlx5_2
        gpu-node-03:51234:51301 [6] NCCL INFO transport/net.cc:1134 -> 6
        """
        + watchdogs([0, 1, 2, 3, 4, 5, 7]),
        "nvlink_ib_error",
        6,
    ),  # NCCL's [6]: the rank that never timed out
    "time_limit_not_the_sigterm_it_sends": (
        """
        0: 2026-11-30 12:00:00,000 INFO [rank0] train: step 100 loss 2.0
        slurmstepd: error: *** JOB 812345 ON gpu-node-01 CANCELLED AT 2026-11-30T12:00:05 DUE TO TIME LIMIT ***
        0: 2026-11-30 12:00:05,100 WARNING [rank0] train: received signal 15 (SIGTERM); will checkpoint and exit
        1: 2026-11-30 12:00:05,100 WARNING [rank1] train: received signal 15 (SIGTERM); will checkpoint and exit
        srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
        """,
        "slurm_time_limit",
        None,
    ),
    "user_exception_not_the_launcher_summary": (
        """
        [rank3]: Traceback (most recent call last):
        [rank3]:   File "/workspace/train.py", line 10, in <module>
        [rank3]: KeyError: 'input_ids'
        [rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [10.0.0.2]:4242
        E1130 12:10:11.000000 4242 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -15) local_rank: 1 (pid: 4253) of binary: /usr/bin/python3
        """,
        "python_exception_other",
        3,
    ),
    "kernel_oom_killer_behind_a_dead_dataloader_worker": (
        """
        Nov 30 12:10:00 gpu-node-02 kernel: Out of memory: Killed process 81234 (pt_data_worker) total-vm:93458412kB, anon-rss:61234000kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:120000kB oom_score_adj:0
        [rank2]: RuntimeError: DataLoader worker (pid 81234) is killed by signal: Killed.
        """,
        "host_oom_killed",
        2,
    ),  # the killed worker was rank 2's
    "nan_loss_before_the_peers_give_up": (
        """
        [rank4]: 2026-11-30 12:10:00,000 INFO train: step 4100 loss 2.3
        [rank4]: RuntimeError: Function 'MulBackward0' returned nan values in its 0th output.
        [rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [10.0.0.5]:1234
        [rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [10.0.0.5]:1234
        """,
        "nan_inf_loss",
        4,
    ),
    "watchdog_alone_is_the_diagnosis": (watchdogs([0, 1, 2, 3]), "nccl_timeout", None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_expert_ranking(matcher, name):
    text, expected_class, expected_rank = CASES[name]
    head, sep, rest = text.partition("\n[rank")  # the indented block, then unindented watchdog lines
    report = run(matcher, ("job.log", textwrap.dedent(head).strip("\n") + sep + rest))
    d = report.top
    assert d is not None, report.unrecognised
    assert d.class_ == expected_class, f"{d.signature} ({d.class_}): {d.first_seen.text}"
    assert d.initiating_rank == expected_rank
