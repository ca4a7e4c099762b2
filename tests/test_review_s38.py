"""A review of stop 38's changes (025c895..2e0a0ec) by a helper who probed each one with logs of its own; each probe
here, with what it must give. Two of the changes were withdrawn after it (epoch-second times read from JSON records,
and a half-step tolerance for the rank that went elsewhere before a time limit); the rest were narrowed."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import top

from signatures import diagnose, diagnose_sources
from signatures._sources import source_from_bytes

PROBES = Path(__file__).resolve().parent / "fixtures" / "review_s38"


def _of(name: str, matcher):
    return diagnose([str(PROBES / name)], matcher)


def test_json_epoch_seconds_are_not_set_against_a_schedulers_local_stamps(matcher):
    # four ranks log {"ts": <epoch seconds>} every 0.5 s; Slurm's "CANCELLED AT 2026-12-08T05:22:30 DUE TO TIME
    # LIMIT" is local time on a UTC+8 cluster, 1 s after the last step: read as UTC, the epochs made it look like
    # hours of silence, a hang. The epochs are not read as times, and the time limit stands
    lines = []
    for step in range(1, 301):
        for rank in range(4):
            record = {"ts": 1796678400 + step * 0.5 + rank / 1000, "level": "INFO", "rank": rank}
            lines.append(f"{rank}: " + json.dumps({**record, "msg": f"step {step}/100000 loss=2.0", "step": step}))
    lines += [
        "slurmstepd-gpu01: error: *** JOB 4242 ON gpu01 CANCELLED AT 2026-12-08T05:22:30 DUE TO TIME LIMIT ***",
        "srun: error: gpu01: tasks 0-3: Terminated",
    ]
    text = "\n".join(lines) + "\n"
    report = diagnose_sources([source_from_bytes("slurm-4242.out", text.encode())], matcher)
    assert top(report)[:2] == ("slurm.time_limit_cancelled", "slurm_time_limit")


def test_a_ranks_routine_line_after_each_step_does_not_make_it_the_one_that_went_elsewhere(matcher):
    # rank 0 logs "lr=... tokens_per_sec=..." 2 ms after every step; rank 3 logs "entering eval" after step 3 and
    # hangs until the time limit: rank 3, not rank 0, and not a plain time limit
    assert top(_of("stall_extra.out", matcher)) == ("slurm.time_limit_after_stall", "job_hang_no_progress", 3)
    text = (PROBES / "stall_extra.out").read_text()
    quiet = "".join(line for line in text.splitlines(keepends=True) if "entering eval" not in line)
    assert quiet != text
    report = diagnose_sources([source_from_bytes("slurm-7.out", quiet.encode())], matcher)
    assert top(report) == ("slurm.time_limit_after_stall", "job_hang_no_progress", None)


def test_a_metrics_nan_warnings_from_tensorboardx_do_not_hide_a_later_crash(matcher):
    # nine "NaN or Inf found in input tensor." on rank 0 while its losses stay finite, then rank 1's CUDA OOM
    assert top(_of("tbx_oom.log", matcher)) == ("cuda.out_of_memory", "cuda_oom", 1)


def test_an_exit_barrier_that_waited_out_its_timeout_is_not_handled(matcher):
    # every rank of this node said "training finished", then its agent waited 300 s at the exit barrier: a peer node
    # never finished, which the store timeout says
    report = _of("barrier_timeout_node0.log", matcher)
    assert report.outcome == "diagnosed" and top(report)[1] == "nccl_timeout"


def test_a_retried_eagain_in_a_heartbeat_thread_is_no_process_limit(matcher):
    assert _of("eagain_retry.log", matcher).outcome == "healthy"


def test_texts_that_only_look_like_the_new_log_patterns_are_still_no_training_logs(matcher):
    # a markdown table headed "time (ms) | fp16 | bf16", a Flask and a certbot log in logging.basicConfig's format,
    # "wandb: Currently logged in as: ...", an API response with "created": <epoch seconds>
    for name in ("bench_table.md", "flask.txt", "certbot.txt", "wandb_login.txt", "openai.json"):
        assert _of(name, matcher).outcome == "not_a_log", name
