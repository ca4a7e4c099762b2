"""The gaps the blind runs_r14 showed (its runs were lost with the scratch directory of the try that scored it),
each reproduced here as a real CPU run (torch 2.13, gloo; the scripts are in tests/corpus/made_r14/gen) and checked
with a variant that must not trigger the rule."""

from __future__ import annotations

from pathlib import Path

from helpers import top_diagnosis as top

RUNS = Path(__file__).resolve().parent / "corpus" / "made_r14" / "runs"


def test_a_rank_killed_by_sigfpe_is_named_with_its_cause(matcher):
    # rank 2's native helper divides by a count that is zero on its shard: torchrun's table says -8 (SIGFPE)
    # for rank 2 and -15 for the three it then stopped
    d = top([RUNS / "001_sigfpe_native_div"], matcher)
    assert (d.signature, d.class_, d.initiating_rank) == ("process.sigfpe", "native_crash", 2)


def test_sigfpe_counts_as_a_fatal_exit_in_the_rank_view(matcher):
    from signatures._ranks import FATAL_EXITS, SRUN_SIGNALS

    assert FATAL_EXITS["-8"] == FATAL_EXITS["136"] == "SIGFPE"
    assert SRUN_SIGNALS["Floating point exception"] == "-8"


def test_srun_record_of_a_floating_point_exception_names_the_task(matcher, tmp_path):
    log = tmp_path / "slurm-81.out"
    log.write_text(
        "0: step 10 loss 0.51\n1: step 10 loss 0.52\n"
        "srun: error: node07: task 1: Floating point exception\n"
        "srun: error: node07: task 0: Terminated\n"
    )
    d = top([log], matcher)
    assert (d.signature, d.initiating_rank) == ("process.sigfpe", 1)


def test_a_local_loss_reported_in_words_is_the_first_sign(matcher):
    # "rank 3 step 30 local loss is nan" one step before every rank's FloatingPointError on the global loss
    d = top([RUNS / "002_local_loss_nan"], matcher)
    assert (d.class_, d.initiating_rank) == ("nan_inf_loss", 3)
    assert d.attribution is not None and d.attribution.rule == "first_sign"


def test_a_rank_that_never_started_is_the_one_the_store_waited_for(matcher):
    d = top([RUNS / "003_world_size_short"], matcher)
    assert (d.signature, d.class_) == ("c10d.store_clients_join_timeout", "rendezvous_failure")
    assert d.initiating_rank == 3 and d.attribution is not None and d.attribution.rule == "absent_rank"


def test_a_worker_that_cannot_bind_the_store_port_is_named(matcher):
    # mp.spawn: "-- Process 0 terminated with the following error: ... EADDRINUSE": rank 0 hosts the store
    d = top([RUNS / "004_spawn_port_held"], matcher)
    assert (d.class_, d.initiating_rank) == ("port_in_use", 0)


def test_the_launcher_agent_failing_to_bind_names_no_rank(matcher, tmp_path):
    log = tmp_path / "agent.log"
    log.write_text(
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
        "port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use\n"
    )
    d = top([log], matcher)
    assert d.class_ == "port_in_use" and d.initiating_rank is None


def test_a_checkpoint_that_pickled_renamed_code_is_a_load_mismatch(matcher):
    for log in ("load.log", "load2.log"):  # module gone; module there but the class renamed
        d = top([RUNS / "005_ckpt_module_renamed" / log], matcher)
        assert (d.signature, d.class_) == ("checkpoint.pickled_class_missing", "checkpoint_load_mismatch"), log


def test_a_missing_package_outside_torch_load_stays_an_environment_error(matcher, tmp_path):
    log = tmp_path / "train.log"
    log.write_text(
        "Traceback (most recent call last):\n"
        '  File "/job/train.py", line 3, in <module>\n'
        "    import legacy_models\n"
        "ModuleNotFoundError: No module named 'legacy_models'\n"
    )
    d = top([log], matcher)
    assert (d.signature, d.class_) == ("python.module_not_found", "dependency_abi_mismatch")


def test_the_rank_whose_collective_differs_is_named(matcher):
    d = top([RUNS / "006_collective_shape_rank2"], matcher)
    assert (d.class_, d.initiating_rank) == ("collective_mismatch", 2)
