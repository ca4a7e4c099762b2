"""The failures the issues name explicitly: the two reference entries, and every Xid code that matters."""

import pytest
from helpers import run


def test_deepspeed_decoupled_checkpoint_engine_hang(matcher):
    """Saves in this log complete ("is ready now!"); the last one starts and never does: the log stops inside it."""
    d = run(
        matcher,
        (
            "train.log",
            """
        [2026-11-30 11:00:01,000] [INFO] [logging.py:96:log_dist] [Rank 0] [Torch] Checkpoint global_step500 is about to be saved!
        [2026-11-30 11:00:09,000] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] Checkpoint global_step500 is ready now!
        [2026-11-30 12:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=1000, skipped=0, lr=[0.0001], mom=[(0.9, 0.95)]
        [2026-11-30 12:00:01,000] [INFO] [logging.py:96:log_dist] [Rank 0] [Torch] Checkpoint global_step1000 is about to be saved!
        [2026-11-30 12:00:01,100] [INFO] [engine.py:3500:_save_checkpoint] [Rank 0] Saving model checkpoint: /ckpt/global_step1000/mp_rank_00_model_states.pt
    """,
        ),
    ).top
    assert d is not None
    assert d.class_ == "checkpoint_writer_hang"
    assert d.first_seen.line == 4
    assert d.values["what"] == "global_step1000"


def test_an_excerpt_that_merely_ends_on_a_save_is_not_a_hang(matcher):
    """Nothing says saves complete in this stack's log, and nothing went wrong after: no evidence of a hang."""
    report = run(
        matcher,
        (
            "train.log",
            """
        {'loss': 0.4312, 'learning_rate': 3e-05, 'epoch': 1.2}
         40%|####      | 2000/5000 [20:01<30:03,  2.50it/s]
        [INFO|trainer.py:3984] 2026-12-02 10:20:01,000 >> Saving model checkpoint to out/checkpoint-2000
    """,
        ),
    )
    assert report.diagnoses == []


def test_a_save_that_completes_is_not_a_hang(matcher):
    report = run(
        matcher,
        (
            "train.log",
            """
        [2026-11-30 12:00:01,000] [INFO] [logging.py:96:log_dist] [Rank 0] [Torch] Checkpoint global_step1000 is about to be saved!
        [2026-11-30 12:00:09,000] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] Checkpoint global_step1000 is ready now!
    """,
        ),
    )
    assert report.diagnoses == []


def test_async_distributed_checkpoint_write_timeout(matcher):
    d = run(
        matcher,
        (
            "train.log",
            """
        [rank0]: step 2000 loss 1.9
        [rank0]: DistCheckpointError: Async checkpoint saving failed in background thread: write timeout after 600s
    """,
        ),
    ).top
    assert d is not None
    assert d.class_ == "checkpoint_write_timeout"


XID = "[Mon Nov 30 12:00:00 2026] NVRM: Xid (PCI:0000:3b:00): {code}, pid=4242, name=python3, {text}"
XIDS = {
    13: ("Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address", "gpu_xid_hardware"),
    31: (
        "Ch 00000010, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f12_34560000. "
        "Fault is of type FAULT_PDE ACCESS_TYPE_READ",
        "gpu_xid_hardware",
    ),
    43: ("Ch 00000008", "gpu_xid_hardware"),
    45: ("Ch 00000010", None),  # preemptive cleanup after another error: a consequence, never the cause
    48: (
        "An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, "
        "subpartition 0.",
        "gpu_ecc_error",
    ),
    61: ("Internal micro-controller breakpoint/warning (0x1234)", "gpu_xid_hardware"),
    62: ("Internal micro-controller halt (0x5678)", "gpu_xid_hardware"),
    63: ("Row Remapper: New row marked for remapping, reset gpu to activate.", "gpu_ecc_error"),
    64: ("Row Remapper: Failed to remap a row.", "gpu_xid_hardware"),
    74: ("NVLink: fatal error detected on link 3(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)", "nvlink_ib_error"),
    79: ("GPU has fallen off the bus.", "gpu_xid_hardware"),
    92: ("High single-bit ECC error rate", "gpu_ecc_error"),
    94: ("Contained: SM (0x1). RST: No, D-RST: No", "gpu_ecc_error"),
    95: ("Uncontained: LTC TAG (0x2,0x0). RST: Yes, D-RST: No", "gpu_ecc_error"),
    119: (
        "Timeout after 6s of waiting for RPC response from GPU0 GSP! Expected function 76 (GSP_RM_CONTROL).",
        "gpu_xid_hardware",
    ),
    120: ("GSP task failure, possible recovery action: reset the GPU", "gpu_xid_hardware"),
}


@pytest.mark.parametrize("code", sorted(XIDS))
def test_every_xid_that_matters(matcher, code):
    text, expected = XIDS[code]
    # a real Xid usually comes first; the watchdog timeouts on the other ranks are the noise after it
    report = run(
        matcher,
        (
            "node.log",
            XID.format(code=code, text=text) + "\n[rank1]:[E1130 12:10:00.000000000 "
            "ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
            "600100 milliseconds before timing out.\n",
        ),
    )
    d = report.top
    assert d is not None
    seen = [d.signature] + [c.signature for c in d.collateral]
    assert any(sig.startswith(("nvidia.xid", "nvml.")) for sig in seen), f"Xid {code} not recognised: {seen}"
    if expected:
        assert d.class_ == expected, d.signature
        assert d.values.get("xid", str(code)) == str(code)
    else:
        assert d.class_ == "nccl_timeout"
