"""The changes made after the blind runs_r18 (real CPU runs in tests/corpus/blind_r18/runs), on the runs that
showed the gaps."""

from __future__ import annotations

from pathlib import Path

import pytest

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r18" / "runs"


@pytest.fixture
def in_run(monkeypatch, matcher):
    def diagnose(name: str):
        monkeypatch.chdir(RUNS / name)
        import signatures

        return signatures.diagnose(["."], matcher=matcher)

    return diagnose


def test_a_checkpoint_renamed_across_filesystems_is_a_storage_error(in_run):
    # rank 0 stages the file in /dev/shm and os.rename()s it into the checkpoint directory on another mount
    d = in_run("019_ckpt_publish_exdev").diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("storage.cross_device_rename", "storage_io_error", 0)


def test_a_dataloader_timeout_is_an_input_pipeline_failure_not_a_dead_worker(in_run):
    # the collate function spins on an empty document: no worker died
    d = in_run("027_packing_collate_spin").diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("dataloader.timeout", "tokenizer_or_data_error", 3)
