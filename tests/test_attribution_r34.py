"""The changes made after the blind runs_r34 (real CPU runs in tests/corpus/blind_r34), on the runs that showed
the gaps and on variants that must not trigger them."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r34" / "runs"


def _copy(run: str, tmp_path: Path, edit=lambda name, text: text) -> list[str]:
    out = []
    for f in sorted((RUNS / run).iterdir()):
        (tmp_path / f.name).write_text(edit(f.name, f.read_text()))
        out.append(str(tmp_path / f.name))
    return out


def test_a_step_cancelled_under_a_collective_timeout_is_srun_tearing_it_down(matcher, tmp_path):
    # srun -K, per-task files: ranks 0 and 2 time out after 30 s waiting on rank 1 (blocked on a FIFO, silent);
    # srun then cancels the step, and slurmstepd's cancel line lands under rank 0's traceback
    d = diagnose(_copy("006", tmp_path), matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_timeout", 1, "silent_rank")

    # the same cancel printed above the timeout: a cancel from outside, which the timeouts followed, is not their
    # teardown; the steps had stopped 30 s before it, so it ended a job that had hung (job.stopped_after_stall)
    def cancel_first(name: str, text: str) -> str:
        if not name.endswith("-0.out"):
            return text
        lines = text.splitlines()
        cancel = [line for line in lines if "CANCELLED AT" in line]
        rest = [line for line in lines if "CANCELLED AT" not in line]
        at = next(i for i, line in enumerate(rest) if line.startswith("[rank0]: Traceback"))
        return "\n".join(rest[:at] + cancel + rest[at:]) + "\n"

    (tmp_path / "b").mkdir()
    d = diagnose(_copy("006", tmp_path / "b", cancel_first), matcher).diagnoses[0]
    assert (d.signature, d.class_) == ("job.stopped_after_stall", "job_hang_no_progress")


def test_of_several_silent_ranks_the_one_whose_last_word_is_not_its_step(matcher, tmp_path):
    # mp.spawn: rank 0 deadlocks after "flushing metrics buffer"; rank 2 times out and mp.spawn terminates the other
    # two, so ranks 0 and 1 both reported nothing, but rank 1's last word is its step 8 like everyone's
    d = diagnose(_copy("007", tmp_path), matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule, d.attribution.confidence) == (
        "nccl_timeout",
        0,
        "silent_rank",
        "low",
    )
    assert "flushing metrics buffer" in d.attribution.reasons[0].text
    # without that line both silent ranks ended on their step: nothing tells them apart
    (tmp_path / "b").mkdir()
    files = _copy("007", tmp_path / "b", lambda n, t: t.replace("INFO [rank0] train: flushing metrics buffer\n", ""))
    d = diagnose(files, matcher).diagnoses[0]
    assert d.initiating_rank != 0 or d.attribution.rule != "silent_rank"


def test_a_gradient_norm_every_rank_shares_is_not_one_ranks_first_sign(matcher, tmp_path):
    # a tail: rank 3 and rank 0 log grad_norm nan at step 14 (the all-reduced gradient) around rank 2's
    # "loss is nan" check; the inf was in rank 2's batch
    d = diagnose(_copy("016", tmp_path), matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("nan_inf_loss", 2)
    # with rank 0's line gone, rank 3 alone showed the trouble before rank 2's check: its first sign stands
    (tmp_path / "b").mkdir()

    def only_rank3(name: str, text: str) -> str:
        return "".join(line for line in text.splitlines(keepends=True) if "[rank0] train: step 14/30" not in line)

    d = diagnose(_copy("016", tmp_path / "b", only_rank3), matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (3, "first_sign")
