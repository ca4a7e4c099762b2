"""What blind_t37 (23 issue-thread excerpts, scored once on b5a6417 by an evaluator who did not see the attribution
code) revealed, with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

LOGS = Path(__file__).resolve().parent / "realworld" / "blind_t37" / "logs"


def _top(prefix: str, matcher) -> tuple:
    (log,) = LOGS.glob(f"{prefix}_*.log")
    return top(diagnose([str(log)], matcher))


def test_an_rdma_completion_error_on_a_roce_nic_is_the_fabric_not_storage(matcher):
    # 004: Dynamo's NIXL KV transfer: "UCX  ERROR Local protection error on mlx5_0:1/RoCE (synd 0x4 ...)" under an
    # "Input/output error" callback status (was storage.eio)
    assert _top("004", matcher)[:2] == ("ib.ucx_completion_error", "nvlink_ib_error")
    # UCX naming its transports is no error
    info = "[1595631518.403951] [n02:14791:0]     ucp_worker.c:1543 UCX  INFO  ep_cfg[3]: tag(dc_mlx5/mlx5_0:1);\n"
    assert top_of_text(matcher, info)[0] != "ib.ucx_completion_error"


def test_an_exception_during_a_checkpoint_save_is_not_a_save_that_hung(matcher):
    # 009: "Saving model checkpoint to ..." then rank 3's "OSError: [Errno 39] Directory not empty: 'tmp-checkpoint-..'
    # -> 'checkpoint-100'" (was checkpoint_writer_hang: the generic exception yielded to the save that never completed)
    assert _top("009", matcher) == ("checkpoint.rename_target_not_empty", "storage_io_error", 3)
    (log,) = LOGS.glob("009_*.log")
    other = log.read_text().replace(
        "OSError: [Errno 39] Directory not empty: ", "ValueError: bad value: "
    )  # another exception in the save: the exception, not a hang
    assert top_of_text(matcher, other)[1] != "checkpoint_writer_hang"


def test_torchelastics_error_file_json_quoting_address_already_in_use_is_the_port(matcher):
    # 017: the error handler prints the error file: "message": "RuntimeError: Address already in use", (was
    # unrecognised)
    assert _top("017", matcher)[:2] == ("c10d.server_socket_bind_failed", "port_in_use")


def test_fsdp_refusing_integer_weights_is_an_fsdp_error(matcher):
    # 018: QLoRA under FSDP: "ValueError: Cannot flatten integer dtype tensors" (was a generic exception)
    assert _top("018", matcher)[:2] == ("fsdp.flatten_non_uniform", "fsdp_error")
