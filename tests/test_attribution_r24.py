"""The changes made after the blind runs_r24 (real CPU runs in tests/corpus/blind_r24), on the runs that showed
the gaps and on variants that must not trigger them."""

from __future__ import annotations

import shutil
from pathlib import Path

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r24" / "runs"


def test_an_error_file_on_a_later_node_takes_the_global_rank_its_workers_log_names(matcher, tmp_path):
    # three torchrun agents with --log-dir: node 2's attempt_0/0/ is local rank 0, global rank 4; its stderr.log
    # says [rank4], its error.json says no rank
    run = RUNS / "024_oov_token_3nodes"
    d = diagnose([str(run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("tokenizer_or_data_error", 4)
    assert d.attribution.rank == 4
    # the error file alone: nothing names rank 4, so its directory's local rank is all there is
    alone = tmp_path / "node2" / "attempt_0" / "0"
    alone.mkdir(parents=True)
    shutil.copy(next(run.glob("node2/*/attempt_0/0/error.json")), alone / "error.json")
    assert diagnose([str(tmp_path)], matcher).diagnoses[0].initiating_rank == 0


def _agent_console(ranks: tuple[int, int], failed_local: int) -> str:
    """One torchrun agent's console (2 workers) with its workers' own progress lines and a failed worker."""
    lines = ["W1206 03:33:04.708000 10147 torch/distributed/run.py:874] *****************************************"]
    for step in (5, 10):
        lines += [f"2026-12-06 03:33:{10 + step},669 INFO [rank{r}] train: step {step} loss 0.3653" for r in ranks]
    lines += [
        f"[rank{ranks[failed_local]}]: Traceback (most recent call last):",
        f'[rank{ranks[failed_local]}]:   File "/job/train.py", line 26, in main',
        f"[rank{ranks[failed_local]}]:     fetch_tokenizer(log)",
        f"[rank{ranks[failed_local]}]: OSError: [Errno 5] Input/output error",
        "W1206 03:33:28.532000 10147 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 10189 "
        "closing signal SIGTERM",
        "E1206 03:33:28.571000 10147 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
        f"local_rank: {failed_local} (pid: 10187) of binary: /venv/bin/python3",
    ]
    return "\n".join(lines) + "\n"


def test_a_later_nodes_agent_names_its_failed_worker_by_local_rank(matcher, tmp_path):
    # the launcher's line alone (the worker's traceback cut from the paste): local rank 1 of the node whose
    # workers are ranks 2 and 3 is rank 3
    text = _agent_console((2, 3), 1)
    (tmp_path / "node1.log").write_text("\n".join(x for x in text.splitlines() if "[rank3]: " not in x) + "\n")
    d = diagnose([str(tmp_path / "node1.log")], matcher).diagnoses[0]
    assert d.initiating_rank == 3
    # on the first node local is global: local rank 1 stays rank 1
    (tmp_path / "node1.log").unlink()
    text = _agent_console((0, 1), 1)
    (tmp_path / "node0.log").write_text("\n".join(x for x in text.splitlines() if "[rank1]: " not in x) + "\n")
    assert diagnose([str(tmp_path / "node0.log")], matcher).diagnoses[0].initiating_rank == 1


def test_ranks_one_to_three_alone_are_not_read_as_a_later_node(matcher, tmp_path):
    # a single node whose rank 0 printed nothing: the agent's local rank 0 is rank 0, not rank 1
    lines = [f"2026-12-06 03:33:1{s},669 INFO [rank{r}] train: step {s} loss 0.3" for s in (1, 2) for r in (1, 2, 3)]
    lines.append(
        "E1206 03:33:28.571000 10147 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -9) "
        "local_rank: 0 (pid: 10187) of binary: /venv/bin/python3"
    )
    (tmp_path / "console.log").write_text("\n".join(lines) + "\n")
    assert diagnose([str(tmp_path / "console.log")], matcher).diagnoses[0].initiating_rank == 0


def test_a_failure_tables_tracebacks_belong_to_the_rank_of_their_entry(matcher, tmp_path):
    # only torchrun's console (--redirects 3): its failure table holds rank 2's KeyError under "traceback :" and
    # ranks 0 and 1's lost peers under theirs; no line of the table carries a rank prefix
    run = RUNS / "018_launcher_only_keyerror"
    d = diagnose([str(run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("python_exception_other", 2, "explicit_root")
    assert "eval_interval" in d.evidence[0].text
    # the table without rank 2's traceback: the launcher's record still names rank 2 (the others lost a peer)
    lines = (run / "torchrun.txt").read_text().splitlines()
    (tmp_path / "torchrun.txt").write_text("\n".join(x for x in lines if "KeyError" not in x) + "\n")
    d = diagnose([str(tmp_path / "torchrun.txt")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (2, "launcher_exit")


def test_a_receive_that_never_got_its_send_names_the_sender_that_went_on(matcher, tmp_path):
    # rank 2 skipped its send to rank 3 and went on to all_reduce with ranks 0 and 1; rank 3's traceback is in
    # dist.recv(boundary, src=2)
    run = RUNS / "010_p2p_skipped_send"
    d = diagnose([str(run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("collective_mismatch", 2)
    assert "send from rank 2" in d.attribution.reasons[0].text
    # a receive whose source the code line does not give as a number: the rank in the other call is named
    text = (run / "job.out").read_text().replace("dist.recv(boundary, src=2)", "dist.recv(boundary, src=prev)")
    (tmp_path / "job.out").write_text(text)
    assert diagnose([str(tmp_path / "job.out")], matcher).diagnoses[0].initiating_rank == 3


NODE_LOST_RUNS = [
    RUNS / "003_node_lost",  # JSON lines (blind)
    RUNS.parent.parent / "made_r26" / "runs" / "001_node_lost_two_agents",  # Python logging (made here after)
]


def test_a_node_whose_log_stops_mid_training_while_the_others_lose_it_went_away(matcher, tmp_path):
    for run in NODE_LOST_RUNS:
        d = diagnose([str(run)], matcher).diagnoses[0]
        assert (d.class_, d.initiating_rank, d.attribution.rule) == ("node_failure", None, "node_lost"), run.name
        assert d.attribution.confidence == "medium"
        assert "2, 3 logged training progress and then nothing" in d.attribution.reasons[0].text
    # the surviving node's console alone: lost peers, then the restart's rendezvous timed out (low confidence)
    shutil.copy(NODE_LOST_RUNS[1] / "node0.log", tmp_path / "node0.log")
    d = diagnose([str(tmp_path / "node0.log")], matcher).diagnoses[0]
    assert (d.class_, d.attribution.confidence) == ("node_failure", "low")


def test_a_node_whose_log_ends_in_its_own_error_did_not_vanish(matcher, tmp_path):
    run = NODE_LOST_RUNS[1]
    shutil.copy(run / "node0.log", tmp_path / "node0.log")
    text = (run / "node1.log").read_text()
    (tmp_path / "node1.log").write_text(
        text + '[rank3]: Traceback (most recent call last):\n[rank3]:   File "/job/train.py", line 21, in main\n'
        "[rank3]:     x = next(it)\n[rank3]: OSError: [Errno 5] Input/output error\n"
    )
    d = diagnose([str(tmp_path)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) != ("node_failure", None)
    assert d.initiating_rank == 3


def test_the_rank_whose_own_loss_went_nan_is_named_not_the_first_to_print_the_global_nan(matcher, tmp_path):
    # step 7: ranks 0 and 2 print "local_loss <finite> global_loss nan", rank 1 "local_loss nan global_loss nan"
    # (rank 0 prints first, a few ms earlier); every rank then raises on the non-finite global loss
    run = RUNS / "001_nan_recurs"
    d = diagnose([str(run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nan_inf_loss", 1, "first_sign")
    assert "non-finite values than the others'" in d.attribution.reasons[0].text
    # rank 1's local loss finite too: nothing tells the ranks apart but the order, and rank 0 printed first
    text = (
        (run / "train.log")
        .read_text()
        .replace("[rank1] train: step 7 local_loss nan", "[rank1] train: step 7 local_loss 0.5")
    )
    (tmp_path / "train.log").write_text(text)
    assert diagnose([str(tmp_path / "train.log")], matcher).diagnoses[0].initiating_rank == 0


def test_agents_waiting_for_each_others_rendezvous_keys_are_a_rendezvous_failure(matcher):
    # torchrun --nnodes 1:2: node 1 joins during training; both agents then wait in the store for keys of the
    # new round (role_info, MASTER_ADDR) and fail with DistStoreError; no worker failed
    d = diagnose([str(RUNS / "031_elastic_scaleup_stuck")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("rendezvous_failure", None)
    assert d.signature == "elastic.rendezvous_store_wait_timeout"


def test_a_helper_thread_that_died_before_the_job_stalled_until_its_time_limit_is_the_root(matcher, tmp_path):
    # srun --label, --time=1: rank 1's tokenizer thread dies (KeyError: 'text'); rank 1 trains 5 more steps on
    # the queued batches, then blocks on the empty queue; the others wait in all_reduce; the limit ends the job
    run = RUNS / "012_slurm_tokenizer_thread"
    d = diagnose([str(run)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("tokenizer_or_data_error", 1)
    assert any("until the time limit ended the job" in r.text for r in d.attribution.reasons)
    # without the thread's traceback: the job stalled and the limit ended it, on no rank in particular
    lines = [x for x in (run / "slurm-6.out").read_text().splitlines() if not x.startswith("1: ") or "step" in x]
    (tmp_path / "slurm-6.out").write_text("\n".join(lines) + "\n")
    d = diagnose([str(tmp_path / "slurm-6.out")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("job_hang_no_progress", None)
