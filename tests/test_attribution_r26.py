"""The changes made after the blind runs_r26 (real CPU runs in tests/corpus/blind_r26), on the runs that showed
the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r26" / "runs"


def test_stacks_dumped_before_a_cancel_of_a_stalled_job_name_the_rank_it_hung_on(matcher, tmp_path):
    # srun --label: rank 0 deadlocks in on_step after step 100; the engineer dumps every rank's stack
    # (faulthandler: ranks 1-3 in backward's all-reduce, rank 0 in on_step), then scancels the job 2 minutes later
    log = RUNS / "017_sbatch_deadlock_hang_stackdump" / "slurm-22.out"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("job_hang_no_progress", 0, "odd_stack_out")
    # the same cancel while the job was still stepping (the cancel's time moved to just after the last step):
    # a cancel of a running job, whatever its stacks show
    text = log.read_text().replace("CANCELLED AT 2026-12-06T05:24:34", "CANCELLED AT 2026-12-06T05:22:28")
    (tmp_path / "slurm-22.out").write_text(text)
    assert diagnose([str(tmp_path / "slurm-22.out")], matcher).diagnoses[0].class_ == "preemption_sigterm"


def test_a_save_one_rank_started_and_then_fell_silent_names_that_rank(matcher, tmp_path):
    # rank 0 queued an async checkpoint onto a stalled mount and froze (no traceback, SIGTERMed by the agent);
    # ranks 1-3 timed out in the next all-reduce: the save rank 0 alone started, then silence, is where it stopped
    run = RUNS / "033_sbatch_torchrun_async_ckpt_deadline"
    d = diagnose([str(run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("checkpoint_writer_hang", 0, "pending_on_one_rank")
    # the same console where rank 0 also reported the timeout is no longer a silent rank's save: no rank
    text = (run / "slurm-25.out").read_text()
    timeout = next(line for line in text.splitlines() if line.startswith("[default2]:[rank2]: RuntimeError"))
    text += timeout.replace("[default2]:[rank2]", "[default0]:[rank0]") + "\n"
    (tmp_path / "slurm-25.out").write_text(text)
    d = diagnose([str(tmp_path / "slurm-25.out")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (None, "job_wide")
