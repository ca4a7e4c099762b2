"""The attribution rule added after the blind runs_r15 (real CPU runs in tests/corpus/blind_r15/runs), on the run
that showed the gap and on runs that must keep their rank."""

from __future__ import annotations

from pathlib import Path

from helpers import run
from helpers import top_diagnosis as top

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r15" / "runs"
MADE_R14 = Path(__file__).resolve().parent / "corpus" / "made_r14" / "runs"


def test_a_repeated_nan_names_the_rank_whose_loss_went_bad_first(matcher):
    # rank 2 logs a non-finite loss at step 13 while ranks 0, 1 and 3 still log finite ones, and then stops the job
    # on its own check at step 15; each rank's non-finite losses are counted on their own (per_rank), so rank 0's
    # line at step 14 no longer reaches the threshold for them all
    d = top([RUNS / "010_torchrun_nan_loss_r2"], matcher)
    assert (d.class_, d.initiating_rank) == ("nan_inf_loss", 2)
    assert d.signature in ("train.loss_nonfinite_repeated", "train.loss_nonfinite_abort")
    assert "[rank2]" in d.attribution.reasons[0].text


def test_one_rank_alone_printing_nan_keeps_its_rank(matcher):
    d = top([MADE_R14 / "002_local_loss_nan"], matcher)
    assert (d.class_, d.initiating_rank) == ("nan_inf_loss", 3)


def test_ranks_going_bad_in_the_same_line_order_as_the_threshold_keep_the_first(matcher):
    report = run(
        matcher,
        (
            "train.log",
            """
            [rank1] step 10 loss 0.51
            [rank0] step 10 loss 0.50
            [rank0] step 11 loss nan
            [rank1] step 11 loss 0.49
            [rank0] step 12 loss nan
            [rank1] step 12 loss nan
            [rank0] step 13 loss nan
            [rank1] step 13 loss nan
            """,
        ),
    )
    d = report.diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("nan_inf_loss", 0)
    # both ranks non-finite from the same step: nothing tells which went first (two non-finite lines are the
    # threshold since blind_t6, so rank 1's two lines count as much as rank 0's)
    same = run(
        matcher,
        (
            "train.log",
            "[rank0] step 11 loss nan\n[rank1] step 11 loss nan\n[rank0] step 12 loss nan\n[rank1] step 12 loss nan\n",
        ),
    )
    d = same.diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nan_inf_loss", None, "all_alike")


def test_the_rank_that_never_joined_a_rendezvous_is_named(matcher):
    # ranks 0-2 time out waiting at the store ("3/4 clients joined") and exit 1; rank 3 waits on its own data
    # staging, raises nothing, and is killed when srun tears the step down
    d = top([RUNS / "024_srun_rank_never_joins_r3"], matcher)
    assert (d.class_, d.initiating_rank) == ("rendezvous_failure", 3)
    assert d.attribution.rule == "absent_rank" and "never reached the rendezvous" in d.attribution.reasons[-1].text


def test_a_rendezvous_every_rank_gave_up_on_stays_job_wide(matcher):
    report = run(
        matcher,
        (
            "slurm-7.out",
            """
            torch.distributed.DistStoreError: Timed out after 21 seconds waiting for clients. 3/4 clients joined.
            srun: error: vm: tasks 0-3: Exited with exit code 1
            """,
        ),
    )
    d = report.diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("rendezvous_failure", None)


def test_srun_task_lists_are_each_tasks_exit():
    from signatures._ranks import task_ranks

    assert task_ranks("srun: error: vm: tasks 1-2: Exited with exit code 1", 1) == [1, 2]
    assert task_ranks("srun: error: vm: tasks 0,2-4,7: Exited with exit code 1", 0) == [0, 2, 3, 4, 7]
    assert task_ranks("srun: error: vm: task 3: Killed", 3) == [3]
    assert task_ranks("srun: error: vm: tasks 5-9000000: Exited with exit code 1", 5)[-1] == 5 + 4095
