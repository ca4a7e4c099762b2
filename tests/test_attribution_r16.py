"""The attribution rules added after the blind runs_r16 (real CPU runs in tests/corpus/blind_r16/runs), on the runs
that showed the gaps and on in-memory logs that must keep their answer. Each run is diagnosed from its own
directory, as a user (and the evaluator) gave it: its directory's name ("..._rank3") is ours, not evidence."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run
from helpers import top_diagnosis as top

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r16" / "runs"


@pytest.fixture
def in_run(monkeypatch, matcher):
    def diagnose(name: str):
        monkeypatch.chdir(RUNS / name)
        return top(["."], matcher)

    return diagnose


def test_the_rank_waiting_in_a_different_collective_is_named(in_run):
    # all four ranks time out; three inside all_reduce, rank 1 inside broadcast: the ranks called different
    # collectives (a mismatch, the evaluator's label), found from the timeouts' tracebacks
    d = in_run("028_bcast_vs_allreduce_rank1")
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("collective_mismatch", 1, "collective_odd_one_out")
    assert "inside broadcast" in d.attribution.reasons[0].text and "0, 2, 3" in d.attribution.reasons[0].text


C10D_FRAME = (
    '[rank{r}]:   File "/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252, in {call}'
)
TIMEOUT = "[rank{r}]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 15000ms for recv operation to complete"


def _timeouts(calls: dict[int, str]) -> str:
    lines = []
    for r, call in calls.items():
        lines += [
            f"[rank{r}]: Traceback (most recent call last):",
            f'[rank{r}]:   File "/job/train.py", line 90, in <module>',
            f"[rank{r}]:     dist.{call}(t)",
            C10D_FRAME.format(r=r, call=call),
            f"[rank{r}]:     work.wait()",
            TIMEOUT.format(r=r),
        ]
    return "\n".join(lines)


def test_ranks_split_between_two_collectives_name_no_one(matcher):
    # two against two: no majority says which side went its own way
    report = run(matcher, ("train.log", _timeouts({0: "all_reduce", 1: "broadcast", 2: "all_reduce", 3: "broadcast"})))
    d = report.diagnoses[0]
    assert d.class_ == "nccl_timeout" and d.attribution.rule != "collective_odd_one_out"


def test_ranks_all_in_the_same_collective_are_alike(matcher):
    report = run(matcher, ("train.log", _timeouts({0: "all_reduce", 1: "all_reduce", 2: "all_reduce"})))
    d = report.diagnoses[0]
    assert d.initiating_rank is None and d.attribution.rule == "all_alike"


def test_a_save_a_silent_rank_started_and_never_finished_is_the_cause(in_run):
    # torchrun --log-dir: rank 0's own log ends on "saving checkpoint to ..."; ranks 1 and 2 time out in gloo
    d = in_run("019_ckpt_write_hang_rank0")
    assert (d.signature, d.class_, d.initiating_rank) == (
        "checkpoint.save_never_completed",
        "checkpoint_writer_hang",
        0,
    )


def test_a_log_that_merely_ends_on_a_save_start_is_still_no_hang(matcher):
    report = run(matcher, ("rank0.log", "[rank0] step 20 loss 0.89\n[rank0] saving checkpoint to /ckpt/step20.pt\n"))
    assert report.outcome == "healthy"


def test_the_store_port_taken_names_rank_0_when_no_line_says_a_rank(in_run):
    # env:// rendezvous: only rank 0 starts the store's server; its EADDRINUSE traceback carries no rank prefix
    d = in_run("013_port_in_use")
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("port_in_use", 0, "recovered_rank")
    assert "_rendezvous_handler" not in d.attribution.reasons[-1].text  # said in words, not in code names
    assert "rank 0 alone starts the store" in d.attribution.reasons[-1].text


def test_mp_spawn_exit_report_gives_the_unranked_traceback_its_rank(in_run):
    # "Process SpawnProcess-4:" and an EMFILE traceback with no rank; the parent: "process 3 terminated with
    # exit code 1"
    d = in_run("014_emfile_rank3")
    assert (d.class_, d.initiating_rank) == ("too_many_open_files", 3)


def test_node_numbered_files_are_not_read_as_one_rank_each(in_run):
    # node0.out and node1.out: one torchrun agent per node (ranks 0-1 and rank 2); the failing worker on node 1
    # is global rank 2, not rank 1
    d = in_run("015_ext_undefined_symbol_node1")
    assert (d.class_, d.initiating_rank) == ("dependency_abi_mismatch", 2)


def test_per_task_files_still_name_their_task(matcher):
    report = run(
        matcher,
        ("train-42-0.out", "step 10 loss 0.5\n"),
        ("train-42-1.out", "Traceback (most recent call last):\nValueError: bad record in shard 17\n"),
    )
    assert report.diagnoses[0].initiating_rank == 1


def test_an_exception_restating_a_logged_store_timeout_is_that_timeout(in_run):
    # rank 0 fails to download its tokenizer (URLError) before it creates the store; ranks 1 and 2 log the store
    # connect timeout from C++ and then raise it into Python with the same words: those are not new failures
    d = in_run("034_hub_download_refused_rank0")
    assert d.initiating_rank == 0 and "Connection refused" in d.first_seen.text and d.first_seen.line < 53


def test_one_mismatch_report_naming_the_first_rank_checked_says_it_cannot_tell(in_run):
    # mp.spawn printed rank 2's report alone: "Rank 2 is running ... but Rank 0 is running ...". Rank 2 compares
    # itself with rank 0 first, so the report reads the same whether rank 2 or rank 0 is the odd one
    d = in_run("004_coll_shape_debug_rank2")
    assert d.class_ == "collective_mismatch" and d.attribution.confidence == "low"
    assert "rank 2's" in d.attribution.reasons[0].text and "either of the two" in d.attribution.reasons[0].text


def test_a_report_naming_a_rank_other_than_the_first_checked_is_sure(matcher):
    # rank 0 compares itself with rank 1 first; naming rank 2 means ranks 0 and 1 agree and rank 2 differs
    text = (
        "[rank0]: RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running collective: "
        "CollectiveFingerPrint(SequenceNumber=34, OpType=ALLREDUCE, TensorShape=[4], TensorDtypes=Float), but Rank 2 "
        "is running collective: CollectiveFingerPrint(SequenceNumber=34, OpType=ALLREDUCE, TensorShape=[5], "
        "TensorDtypes=Float).\n"
    )
    d = run(matcher, ("train.log", text)).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.confidence) == ("collective_mismatch", 2, "high")


def test_the_rank_that_finished_its_data_and_then_timed_out_started_it(monkeypatch, matcher):
    # runs_r15 009 (blind miss): rank 1 runs out of shards, logs "training finished after 20 steps" and waits in
    # its final barrier; ranks 0, 2 and 3 time out in DDP's all_reduce, rank 1 in the barrier
    monkeypatch.chdir(RUNS.parent.parent / "blind_r15" / "runs" / "009_bashloop_uneven_data_r1")
    d = top(["."], matcher)
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_timeout", 1, "finished_early")


def test_every_rank_finishing_before_its_timeout_names_no_one(matcher):
    lines = []
    for r in range(3):
        lines += [f"[rank{r}] training finished after 20 steps", TIMEOUT.format(r=r)]
    d = run(matcher, ("train.log", "\n".join(lines) + "\n")).diagnoses[0]
    assert d.attribution.rule != "finished_early"


def test_a_download_that_failed_and_was_retried_while_training_went_on_is_no_failure(matcher):
    # a metrics or feature service refused once; the rank logged the traceback and kept training
    body = """
    [rank0] step 10 loss 0.50
    Traceback (most recent call last):
      File "/job/feeds.py", line 40, in fetch
        with urllib.request.urlopen(url, timeout=5) as r:
      File "/usr/lib/python3.11/urllib/request.py", line 1351, in do_open
        raise URLError(err)
    urllib.error.URLError: <urlopen error [Errno 111] Connection refused>
    [rank0] step 11 loss 0.49
    [rank0] step 12 loss 0.48
    """
    assert run(matcher, ("rank0.log", body)).outcome != "diagnosed"


def test_a_download_that_failed_at_start_up_is_the_cause(matcher):
    body = """
    [rank0] downloading tokenizer from http://mirror.internal:8080/tok.json
    Traceback (most recent call last):
      File "/usr/lib/python3.11/urllib/request.py", line 1351, in do_open
        raise URLError(err)
    urllib.error.URLError: <urlopen error [Errno 111] Connection refused>
    """
    d = run(matcher, ("rank0.log", body)).diagnoses[0]
    assert (d.signature, d.class_) == ("net.download_connection_failed", "hub_network_error")
