"""What runs_r35 revealed (real runs scored blind on 6257654): a rank's line glued after another rank's unfinished
progress bar in a torchrun --tee console is the later rank's."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes
from signatures._lines import glued_rank

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r35" / "runs"


def test_a_line_glued_after_another_ranks_progress_bar_is_the_later_ranks(matcher):
    d = diagnose([str(RUNS / "008" / "console.log")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("dataloader_worker_killed", 1, "explicit_root")
    assert glued_rank("[default0]:Epoch 0:  3%|  | 1/30 [00:00<00:09][default1]:ERROR: Unexpected bus error", 0) == 1
    assert glued_rank("[default1]:[rank1]: RuntimeError: DataLoader worker (pid 1) is killed by signal", 1) == 1
    assert glued_rank("[default2]:[rank2]: ValueError: bad value for rank0 x", 2) == 2


def test_an_unglued_line_keeps_its_own_prefix(matcher):
    text = b"[default0]:step 5 loss 0.1\n[default1]:ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
    d = diagnose_sources([source_from_bytes("c.log", text)], matcher).diagnoses[0]
    assert d.initiating_rank == 1
    # a message that quotes another rank's label after its own is still its own rank's, when it names one rank
    text = b"[default0]:[rank0]: RuntimeError: [rank0]: expected 2 tensors\n"
    assert diagnose_sources([source_from_bytes("d.log", text)], matcher).diagnoses[0].initiating_rank == 0
