"""The changes made after the blind runs_r25 (real CPU runs in tests/corpus/blind_r25), on the runs that showed
the gaps and on variants that must not trigger them."""

from __future__ import annotations

import shutil
from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r25" / "runs"


def test_torchruns_own_sigkill_of_a_frozen_worker_is_teardown_not_the_oom_killer(matcher, tmp_path):
    # torchrun: "Unable to shutdown process 5009 via 15, forcefully exiting via 9", then the table's "exitcode : -9
    # (pid: 5009)"; rank 3 (pid 5009) froze in its async checkpoint save while the others timed out
    d = diagnose([str(RUNS / "006_async_ckpt_hang")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("checkpoint_writer_hang", 3)
    assert d.class_ != "host_oom_killed"
    # without torchrun's line saying it forced the kill, the failure table still times the kill 30 s after the
    # others' own exits (blind_t26 010): teardown all the same
    log = (RUNS / "006_async_ckpt_hang" / "console.log").read_text().splitlines()
    unforced = [x for x in log if "forcefully exiting" not in x]
    (tmp_path / "console.log").write_text("\n".join(unforced) + "\n")
    d = diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("checkpoint_writer_hang", 3)
    # with neither, a kill the table times with the others' exits is read as the OOM killer's again
    same = [x.replace("02:49:57", "02:49:27") for x in unforced]
    (tmp_path / "console.log").write_text("\n".join(same) + "\n")
    assert diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0].class_ == "host_oom_killed"


def test_dataloader_workers_terminated_after_the_agent_got_sigterm_are_the_preemptions_knock_on(matcher):
    # four torchrun agents; node 2's agent "Received 15 death signal, shutting down workers"; rank 2's workers then
    # "killed by signal: Terminated"; the other nodes lose their peer
    d = diagnose([str(RUNS / "014_spot_sigterm_node2")], matcher).diagnoses[0]
    assert d.class_ == "preemption_sigterm"


def test_a_time_limit_long_after_the_ranks_timed_out_is_the_end_not_the_cause(matcher):
    # srun --label: ranks 0, 1 and 3 time out (30 s) in the eval all-reduce after step 20; rank 2 is stuck in a
    # metrics flush; the time limit comes about 3 minutes after the last step and rank 2 then gets its SIGTERM
    d = diagnose([str(RUNS / "007_metrics_flush_hang")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_timeout", 2, "silent_rank")


def test_a_helper_threads_death_in_a_run_every_rank_then_finished_is_healthy(matcher, tmp_path):
    # blind_r24 028, JSON lines: the metrics-uploader thread dies (no rank), every rank trains on to step 50 and
    # logs "run complete"
    run = RUNS.parent.parent / "blind_r24" / "runs" / "028_healthy_uploader_thread_dies"
    assert diagnose([str(run)], matcher).outcome == "healthy"
    # the same log cut before the ranks said they were done: the thread's death is still reported
    lines = (run / "run.log").read_text().splitlines()
    (tmp_path / "run.log").write_text("\n".join(x for x in lines if "run complete" not in x) + "\n")
    assert diagnose([str(tmp_path / "run.log")], matcher).outcome != "healthy"


def test_a_stop_signal_that_reached_one_nodes_launcher_names_that_nodes_rank(matcher, tmp_path):
    # four torchrun agents, one worker each: node 2's agent got SIGTERM (a spot reclaim), the others lost rank 2
    run = RUNS / "014_spot_sigterm_node2"
    d = diagnose([str(run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("preemption_sigterm", 2, "preempted_node")
    # node 2's log alone: one source, nothing to tell it from the others by; the preemption is the job's
    shutil.copy(run / "logs" / "node2.log", tmp_path / "node2.log")
    d = diagnose([str(tmp_path / "node2.log")], matcher).diagnoses[0]
    assert d.class_ == "preemption_sigterm"
    assert d.attribution.rule != "preempted_node"
