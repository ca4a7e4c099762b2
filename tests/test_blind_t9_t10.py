"""What blind_t9 and blind_t10 revealed (issue-thread excerpts scored blind on 1765120), each with a variant that
must not change."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes

HERE = Path(__file__).resolve().parent / "realworld"
T9, T10 = HERE / "blind_t9" / "logs", HERE / "blind_t10" / "logs"


def _top(report):
    d = report.diagnoses[0]
    return d.signature, d.class_, d.initiating_rank


def test_composers_launcher_record_names_the_rank_and_its_signal(matcher):
    assert _top(diagnose([str(T9 / "007_llmfoundry_composer_rank2_sigbus.log")], matcher)) == (
        "launcher.exit_sigbus",
        "dataloader_worker_killed",
        2,
    )
    for code, sig in (("-9", "launcher.exit_sigkill"), ("1", "launcher.exit_error")):
        line = f"ERROR:composer.cli.launcher:Rank 3 crashed with exit code {code}.\n".encode()
        assert _top(diagnose_sources([source_from_bytes("c.log", line)], matcher))[::2] == (sig, 3)


def test_a_spot_preemption_and_a_critical_xid_are_read(matcher):
    report = diagnose([str(T9 / "015_skypilot_spot_cluster_preempted.log")], matcher)
    assert _top(report)[:2] == ("skypilot.cluster_preempted", "preemption_sigterm")
    assert report.diagnoses[0].action == "restart"
    assert _top(diagnose([str(T9 / "024_gke_megatron_critical_xid.log")], matcher))[:2] == (
        "nvidia.xid_unclassified",
        "gpu_xid_hardware",
    )


def test_a_screen_copy_padded_in_part_is_rejoined(matcher, tmp_path):
    # a 75-column terminal: some wrapped lines padded with spaces, some not (the watchdog timeout of rank 1)
    src = T10 / "003_graphgpt_lightning_nccl_timeout.log"
    report = diagnose([str(src)], matcher)
    assert report.diagnoses[0].signature == "nccl.watchdog_collective_timeout"
    assert "wrapped at 75 columns" in report.stats.notes[0]
    # the same lines with their padding and no wrap (each record on its own line): read as they are
    flat = tmp_path / "flat.log"
    flat.write_text("step 1 loss 0.5   \nstep 2 loss 0.4  \nstep 3 loss 0.3 \n" * 4)
    assert not diagnose([str(flat)], matcher).stats.notes


def test_a_store_lost_while_fetching_the_nccl_id_names_the_rank_that_published_it(matcher, tmp_path):
    src = T10 / "011_llamafactory_baichuan_store_reset_by_peer.log"
    d = diagnose([str(src)], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == (
        "c10d.nccl_unique_id_store_lost",
        "nccl_remote_peer_exited",
        0,
    )
    # the same get timing out: rank 0 is late, not gone, and the failure is the job's rendezvous
    late = tmp_path / "late.log"
    late.write_text(src.read_text().replace("got error: Connection reset by peer", "got error: Socket Timeout"))
    d = diagnose([str(late)], matcher).diagnoses[0]
    assert (d.signature, d.class_) == ("c10d.nccl_unique_id_exchange_failed", "rendezvous_failure")


def test_transformers_loading_warnings_are_a_log(matcher):
    report = diagnose([str(T10 / "015_onetrainer_unused_weights_healthy.log")], matcher)
    assert report.outcome == "healthy"
