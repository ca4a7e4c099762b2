"""The changes made after the blind runs_r31 (real CPU runs in tests/corpus/blind_r31), on the runs that showed
the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r31" / "runs"


def test_the_rank_whose_first_non_finite_loss_is_at_an_earlier_step(matcher, tmp_path):
    # two ranks, per-rank loss lines: rank 1's loss is nan at step 10 where rank 0's is still 3.5533; both are nan
    # from step 12 on (the all-reduce spreads it)
    log = RUNS / "014" / "console.log"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nan_inf_loss", 1, "first_sign")
    # the same log where rank 0's loss went nan at step 10 too: no rank went first
    text = log.read_text().replace("rank 0 epoch 0 step 10 loss 3.5533", "rank 0 epoch 0 step 10 loss nan")
    (tmp_path / "console.log").write_text(text)
    d = diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0]
    assert d.class_ == "nan_inf_loss" and d.attribution.rule != "first_sign"


def test_newer_transformers_quoted_log_values_are_read(matcher):
    # the HF Trainer prints {'loss': '4.144', 'grad_norm': 'nan', ...}: a NaN gradient norm (012), a divergence (016)
    assert diagnose([str(RUNS / "012" / "console.log")], matcher).diagnoses[0].class_ == "nan_inf_loss"
    assert diagnose([str(RUNS / "016" / "console.log")], matcher).diagnoses[0].class_ == "loss_spike_divergence"


def test_dtype_errors_from_a_loss_target_check_and_the_cpu_mixed_dtype_check(matcher):
    for run, rank in (("010", 1), ("035", 0)):
        d = diagnose([str(RUNS / run / "console.log")], matcher).diagnoses[0]
        assert (d.class_, d.initiating_rank) == ("dtype_mismatch", rank), run


def test_a_node_that_never_came_before_any_training_step_is_a_rendezvous_failure(matcher):
    # Lightning num_nodes=2 with only node 0 started: the store times out with 2/4 clients joined, and the other
    # local process loses its store connection when the server exits; no training step was ever logged
    d = diagnose([str(RUNS / "039" / "console.log")], matcher).diagnoses[0]
    assert d.class_ == "rendezvous_failure"


def test_srun_killing_a_task_after_the_others_failed_and_the_step_was_aborted_is_teardown(matcher, tmp_path):
    # blind runs_r32 032, srun -n 3: rank 0 sleeps silently, ranks 1 and 2 time out in gloo and exit 1, srun aborts
    # the step ("Job step aborted"), and only then reports "task 0: Killed": the timeout on the silent rank 0
    log = RUNS.parents[1] / "blind_r32" / "runs" / "032" / "console.log"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("nccl_timeout", 0)
    # the kill reported before any task exited on its own error is still the cause
    lines = log.read_text().splitlines()
    killed = next(line for line in lines if line.endswith("task 0: Killed"))
    first = next(i for i, line in enumerate(lines) if "RuntimeError" in line and "Timed out" in line)
    lines.remove(killed)
    lines.insert(first, killed)
    (tmp_path / "console.log").write_text("\n".join(lines) + "\n")
    assert diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0].class_ == "host_oom_killed"
