"""Attribution rules over the per-rank view: each rule on a log built from real line formats, and the
report's `attribution` agreeing with `initiating_rank` on every corpus log."""

import json

import pytest
from conftest import CORPUS
from helpers import run

from signatures import Attribution, Report, diagnose

WATCHDOG = (
    "[E ProcessGroupNCCL.cpp:475] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL("
    "SeqNum=3, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800008 milliseconds "
    "before timing out."
)


def attribution(report: Report) -> Attribution:
    d = report.top
    assert d is not None, report
    a = d.attribution
    assert a.rank == d.initiating_rank and a.reasons and a.confidence in ("high", "medium", "low")
    return a


def test_the_silent_rank_is_the_one_missing_from_the_timeouts(matcher):
    log = "\n".join(
        [
            "[rank0]: step 10 loss 2.1",
            "[rank1]: step 10 loss 2.2",
            "[rank2]: step 10 loss 2.0",
            "[rank3]: step 10 loss 2.3",
        ]
        + [WATCHDOG.format(r=r) for r in (0, 1, 3)]
    )
    report = run(matcher, ("train.log", log))
    a = attribution(report)
    assert report.top is not None
    assert (a.rank, a.rule) == (2, "silent_rank") and report.top.class_ == "nccl_timeout"


def test_a_silent_rank_zero_is_implied_by_numbering(matcher):
    report = run(matcher, ("train.log", "\n".join(WATCHDOG.format(r=r) for r in (1, 2, 3))))
    assert (attribution(report).rank, attribution(report).rule) == (0, "silent_rank")


def test_the_world_size_names_a_silent_rank_never_seen(matcher):
    log = "world_size=4\n" + "\n".join(WATCHDOG.format(r=r) for r in (0, 1, 2))
    a = attribution(run(matcher, ("train.log", log)))
    assert (a.rank, a.rule, a.confidence) == (3, "silent_rank", "high")


def test_every_rank_timing_out_alike_names_no_rank(matcher):
    a = attribution(run(matcher, ("train.log", "\n".join(WATCHDOG.format(r=r) for r in range(4)))))
    assert a.rank is None and a.rule == "all_alike"


def test_the_rank_behind_in_sequence(matcher):
    line = (
        "[PG ID 0 PG GUID 0(default_pg) Rank {r}] Timeout at NCCL work: 610, last enqueued NCCL work: 616, "
        "last completed NCCL work: {c}."
    )
    log = "\n".join(line.format(r=r, c=c) for r, c in ((0, 609), (1, 609), (2, 604), (3, 609)))
    a = attribution(run(matcher, ("train.log", log)))
    assert (a.rank, a.rule) == (2, "behind_in_sequence")


def test_last_completed_minus_one_everywhere_means_frozen_before_any_collective(matcher):
    line = (
        "[PG ID 0 PG GUID 0 Rank {r}] Timeout at NCCL work: 1, last enqueued NCCL work: 1, "
        "last completed NCCL work: -1."
    )
    a = attribution(run(matcher, ("train.log", "\n".join(line.format(r=r) for r in range(4)))))
    assert a.rank is None and "before any collective" in a.reasons[0].text


def test_only_the_launcher_saw_it_sigkill(matcher):
    log = """W1203 08:20:01.000000 100 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 11 closing signal SIGTERM
W1203 08:20:01.000000 100 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 12 closing signal SIGTERM
E1203 08:20:02.000000 100 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 2 (pid: 13) of binary: /usr/bin/python3"""
    report = run(matcher, ("console.log", log))
    d = report.top
    assert d is not None
    a = attribution(report)
    assert (d.class_, a.rank, a.rule, d.action) == ("host_oom_killed", 2, "launcher_exit", "fix_and_restart")
    assert any("dmesg" in c or "--log-dir" in c for c in d.checklist + [d.fix])


def test_only_the_launcher_saw_it_exit_code_one(matcher):
    report = run(matcher, ("console.log", "srun: error: node17: task 3: Exited with exit code 1"))
    a = attribution(report)
    assert report.top is not None
    assert (report.top.class_, a.rank, a.confidence) == ("python_exception_other", 3, "low")


def test_deepspeeds_launcher_record_names_the_exit_but_not_the_rank(matcher):
    # DeepSpeed's sigkill_handler prints the last command it started, not the failed child's: its --local_rank=1
    # is not the rank that died (deepspeed/launcher/launch.py)
    log = """[2023-07-10 04:26:05,876] [INFO] [launch.py:318:sigkill_handler] Killing subprocess 94984
[2023-07-10 04:26:05,876] [INFO] [launch.py:318:sigkill_handler] Killing subprocess 94985
[2023-07-10 04:26:35,999] [ERROR] [launch.py:324:sigkill_handler] ['/venv/bin/python3.10', '-u', 'trainCLM.py', \
'--local_rank=1', '--deepspeed', 'ds_config.json'] exits with return code = {code}""".replace("\\\n", "")
    for code, cls in (("-9", "host_oom_killed"), ("-11", "native_crash"), ("-7", "dataloader_worker_killed")):
        report = run(matcher, ("console.log", log.format(code=code)))
        assert report.top is not None, code
        assert (report.top.class_, report.top.initiating_rank) == (cls, None), code
        assert attribution(report).rule in ("launcher_exit", "unknown"), code
        # the signature's "Rank {rank} was killed" reads "A rank was killed", not "Rank unknown was killed"
        assert "unknown" not in report.top.summary.lower() and " rank" in report.top.summary.lower(), code


def test_srun_cancelling_the_step_is_teardown_not_preemption(matcher):
    log = """srun: error: node17: task 0: Exited with exit code 1
slurmstepd: error: *** STEP 1234.0 ON node17 CANCELLED AT 2026-12-03T08:00:00 ***
srun: error: node17: task 1: Terminated"""
    report = run(matcher, ("slurm-1234.out", log))
    assert report.top is not None
    assert report.top.class_ != "preemption_sigterm" and report.top.initiating_rank == 0


def test_a_real_preemption_is_still_one(matcher):
    log = "slurmstepd: error: *** STEP 1234.0 ON node17 CANCELLED AT 2026-12-03T08:00:00 DUE TO PREEMPTION ***"
    report = run(matcher, ("slurm-1234.out", log))
    assert report.top is not None
    assert report.top.class_ == "preemption_sigterm" and report.top.action == "restart"


def test_the_odd_one_out_in_a_collective_mismatch(matcher):
    fp = "CollectiveFingerPrint(SequenceNumber=100, OpType=ALLREDUCE, TensorShape=[{n}], TensorDtypes=Float)"
    lines = [
        f"[rank{r}]: RuntimeError: Detected mismatch between collectives on ranks. Rank {r} is running "
        f"collective: {fp.format(n=5313 if r == 3 else 5573)}, but Rank {3 if r != 3 else 0} is running "
        f"collective: {fp.format(n=5313 if r != 3 else 5573)}."
        for r in range(4)
    ]
    a = attribution(run(matcher, ("console.log", "\n".join(lines))))
    assert (a.rank, a.rule) == (3, "collective_odd_one_out")


def test_an_exception_the_rank_survived_is_not_a_failure(matcher):
    log = """2026-12-03 08:24:05,230 INFO [rank0] step 0 loss 0.9000 lr 0.02
Traceback (most recent call last):
  File "/w/train.py", line 24, in __init__
    self.sock = socket.create_connection((host, port), timeout=2)
ConnectionRefusedError: [Errno 111] Connection refused
2026-12-03 08:24:07,232 WARNING [rank0] metrics relay not reachable (attempt 2/6), retrying in 2s
2026-12-03 08:24:16,007 INFO [rank0] step 25 loss 0.4485 lr 0.0200
2026-12-03 08:24:16,778 INFO [rank0] step 50 loss 0.3468 lr 0.0200"""
    report = run(matcher, ("console.log", log))
    assert report.diagnoses == [] and report.unrecognised == []


def test_the_report_says_whether_to_requeue(matcher):
    report = run(
        matcher, ("rank3.log", "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.")
    )
    d = report.top
    assert d is not None
    assert d.action == "fix_and_restart" and d.action_reason


@pytest.mark.parametrize(
    "row", [json.loads(x) for x in (CORPUS / "labels.jsonl").read_text().splitlines()], ids=lambda r: r["file"]
)
def test_attribution_agrees_with_the_initiating_rank_on_the_corpus(matcher, row):
    from signatures import diagnose

    report = diagnose([str(CORPUS / row["file"])], matcher)
    if report.diagnoses:
        attribution(report)


def test_an_unrecognised_failure_still_names_the_first_rank_and_a_family(matcher):
    log = "[rank2]: step 3 of 10\n[rank2]: ERROR: the shard index could not decode record 17\n[rank0]: ERROR: bye"
    report = run(matcher, ("console.log", log))
    assert report.diagnoses == [] and report.unrecognised
    hint = report.unrecognised_hint
    assert hint is not None
    assert hint.rank == 2 and hint.family == "data" and hint.confidence == "low"


def test_collateral_counts_every_line_not_only_the_kept_ones(matcher):
    """The scan keeps a few events per rank; the collateral count is every watchdog line of those ranks."""
    oom = "[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
    timeouts = [f"[rank{r}]:" + WATCHDOG.format(r=r) for _ in range(30) for r in range(64) if r != 5]
    report = run(matcher, ("train.log", "\n".join([oom] + timeouts)))
    assert report.top is not None
    assert report.top.class_ == "cuda_oom"
    watchdog = [c for c in report.top.collateral if c.signature == "nccl.watchdog_collective_timeout"]
    assert watchdog and watchdog[0].count == len(timeouts)


def test_mp_spawn_names_the_process_whose_traceback_follows(matcher):
    log = "\n".join(
        [
            "torch.multiprocessing.spawn.ProcessRaisedException: ",
            "",
            "-- Process 2 terminated with the following error:",
            "Traceback (most recent call last):",
            '  File "/work/train.py", line 40, in worker',
            "    check(batch)",
            "ValueError: batch 17 has 0 rows",
        ]
    )
    report = run(matcher, ("train.log", log))
    a = attribution(report)
    assert report.top is not None
    assert (report.top.initiating_rank, a.rule) == (2, "explicit_root")  # the lines under the header are its


TWO_NODES = """\
ImportError: /opt/ext/_C.so: undefined symbol: _ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSs
E1203 12:34:53.780000 10194 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 0 (pid: 10208) of binary: /venv/bin/python3
Root Cause (first observed failure):
[0]:
  time      : 2026-12-03_12:34:53
  host      : nodeb
  rank      : 1 (local_rank: 0)
  exitcode  : 1 (pid: 10208)
  error_file: <N/A>
torch.distributed.DistStoreError: wait timeout after 20000ms, keys: /default_pg//0//cuda//0
E1203 12:35:13.846000 10192 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 0 (pid: 10209) of binary: /venv/bin/python3
Root Cause (first observed failure):
[0]:
  time      : 2026-12-03_12:35:13
  host      : nodea
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 10209)
  error_file: <N/A>
"""


def test_two_agents_local_ranks_are_read_as_global_and_the_first_to_fail_named(matcher):
    """Two torchrun agents (two nodes) in one console: each says local_rank 0; their failure tables give the
    global ranks for the same pids, and rank 1 failed 20 s before rank 0 timed out waiting for it."""
    report = run(matcher, ("console.log", TWO_NODES))
    a = attribution(report)
    assert report.top is not None
    assert report.top.class_ == "dependency_abi_mismatch"
    assert (a.rank, a.rule, a.confidence) == (1, "recovered_rank", "low")
    assert "20 s before rank 0" in a.model_dump_json()


@pytest.mark.parametrize(
    "head",
    [
        "I1203 12:00:00.000 1 torch/distributed/launcher/api.py:188] Starting elastic_operator with launch configs:\n"
        "  entrypoint       : train.py\n  min_nodes        : 2\n  max_nodes        : 2\n  nproc_per_node   : 2\n",
        "  role_world_sizes=[4, 4, 4, 4]\n  global_world_sizes=[4, 4, 4, 4]\n",
        "SLURM_NTASKS=4\n",
    ],
)
def test_the_world_size_comes_from_launchers_too(matcher, head):
    """torchrun's launch configuration (nproc_per_node x max_nodes), its rendezvous result, or Slurm's task count
    make a rank that printed nothing at all the silent one, with high confidence."""
    a = attribution(run(matcher, ("train.log", head + "\n".join(WATCHDOG.format(r=r) for r in (0, 1, 2)))))
    assert (a.rank, a.rule, a.confidence) == (3, "silent_rank", "high")


def test_an_exception_in_a_thread_belongs_to_the_rank_that_reported_no_knock_on(matcher):
    """A background thread's exception is printed with no rank; the main thread of that rank then waits, and the
    other ranks time out: the exception started it, on the one rank whose own errors are not timeouts."""
    log = "\n".join(
        [
            "2026-12-03 12:39:52,466 INFO rank0 MainThread: epoch 0 train loss 0.6300, launching async eval",
            "2026-12-03 12:39:52,467 INFO rank1 MainThread: epoch 0 train loss 0.5547, launching async eval",
            "2026-12-03 12:39:52,468 INFO rank2 MainThread: epoch 0 train loss 0.5885, launching async eval",
            "Exception in thread async-eval-0:",
            "Traceback (most recent call last):",
            '  File "/work/eval.py", line 20, in evaluate',
            "    precision = tp / (tp + fp)",
            "ZeroDivisionError: division by zero",
            "[rank2]: RuntimeError: [../gloo/transport/tcp/unbound_buffer.cc:129] Timed out waiting 20000ms for send "
            "operation to complete",
            "[rank0]: RuntimeError: [../gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 20000ms for recv "
            "operation to complete",
            "E1203 12:40:13.693000 12195 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
            "local_rank: 0 (pid: 12197) of binary: /venv/bin/python3",
        ]
    )
    report = run(matcher, ("console.log", log))
    a = attribution(report)
    assert report.top is not None
    assert report.top.signature == "python.uncaught_exception"
    assert (a.rank, a.rule) == (1, "recovered_rank")


CAUGHT = """\
2026-12-03 13:13:51,609 rank=1 ERROR fetch: get s3://bucket/shard-01.pt failed (attempt 1/5), retrying in 0.5s
Traceback (most recent call last):
  File "/work/train.py", line 22, in fetch
    return store.get(key)
  File "/work/train.py", line 15, in get
    raise ConnectionResetError(104, "Connection reset by peer")
ConnectionResetError: [Errno 104] Connection reset by peer
2026-12-03 13:13:53,997 rank=2 WARNING upload_trace: profiler trace upload skipped
Traceback (most recent call last):
  File "/work/train.py", line 30, in upload_trace
    with open(path) as f: f.read()
FileNotFoundError: [Errno 2] No such file or directory: '/tmp/profiler/trace_rank2.json'
2026-12-03 13:13:54,000 rank=0 INFO worker: all shards done; saving final model
job finished OK
"""


def test_tracebacks_printed_by_a_warning_or_a_retry_are_not_failures(matcher):
    report = run(matcher, ("console.log", CAUGHT))
    assert not report.diagnoses and not report.unrecognised, report


def test_a_warning_on_another_stream_does_not_excuse_a_ranks_traceback(matcher):
    """torchrun prefixes a worker's stderr; an unprefixed warning above a "[rank0]:" traceback did not print it."""
    log = (
        "2026-12-03 08:16:33.350 WARNING trainer rank=0 flight recorder dumped to /tmp/fr/fr_trace_rank_0\n"
        "[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "/work/train.py", line 40, in main\n'
        "[rank0]:     loss.backward()\n"
        "[rank0]: RuntimeError: [../gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 20000ms for recv "
        "operation to complete\n"
    )
    assert run(matcher, ("console.log", log)).top is not None


R6 = CORPUS / "blind_r6" / "runs"


def _diagnose_run(matcher, name: str, *inputs: str) -> Report:
    from signatures import diagnose

    return diagnose([str(R6 / name / i) for i in inputs], matcher=matcher)


def test_a_step_cancel_after_a_task_failed_is_teardown_even_without_timestamps(matcher):
    """srun --kill-on-bad-exit: "task 2: Exited with exit code 1", then "*** STEP 6.0 ... CANCELLED"; the task's
    own file has no timestamps, so only the kind of cancel (a step, not the job) says which came first."""
    report = _diagnose_run(matcher, "008_srun_kill_on_bad_exit_shape", ".")
    assert report.top is not None
    assert (report.top.class_, report.top.initiating_rank) == ("shape_mismatch", 2)
    assert "preemption_sigterm" not in [d.class_ for d in report.diagnoses]


def test_one_ranks_first_sign_names_it_when_every_rank_then_fails_alike(matcher):
    """Every rank raises the same non-finite grad-norm error; only rank 1 logged loss=inf first."""
    report = _diagnose_run(matcher, "011_nan_grad_norm", "logs", "slurm-9.out")
    a = attribution(report)
    assert report.top is not None
    assert (report.top.class_, a.rank, a.rule) == ("nan_inf_loss", 1, "first_sign")
    assert a.reasons[0].source is not None
    assert "loss=inf" in a.reasons[0].text and a.reasons[0].source.endswith("rank1.log")


def test_a_mismatch_only_one_rank_reported_names_the_rank_whose_numbers_differ(matcher):
    # task 1 printed "trainable params: 69160" where tasks 0 and 2 printed 133160 (a stale config on it)
    report = _diagnose_run(matcher, "005_allreduce_shape_mismatch", "srun.log")
    a = attribution(report)
    assert report.top is not None
    assert (report.top.signature, a.rank, a.rule, a.confidence) == (
        "gloo.received_size_mismatch",
        1,
        "odd_value_out",
        "medium",
    )
    assert '"params: 69160" where ranks 0 and 2 both printed "params: 133160"' in a.reasons[0].text


def test_a_mismatch_only_one_rank_reported_names_that_rank(matcher, tmp_path):
    # the same run without the lines telling the ranks' sizes: only the reporter is left to name
    log = (R6 / "005_allreduce_shape_mismatch" / "srun.log").read_text().splitlines()
    (tmp_path / "srun.log").write_text("\n".join(line for line in log if "trainable params" not in line) + "\n")
    report = diagnose([str(tmp_path / "srun.log")], matcher=matcher)
    a = attribution(report)
    assert report.top is not None
    assert (report.top.signature, a.rank, a.rule, a.confidence) == (
        "gloo.received_size_mismatch",
        1,
        "mismatch_reporter",
        "low",
    )


def test_a_rank_killed_by_a_signal_beats_its_peers_lost_connections(matcher):
    """Console only: torchrun saw rank 2 end with SIGKILL; ranks 1 and 3 report "Connection closed by peer"."""
    report = _diagnose_run(matcher, "002_oom_killed_console_only", "console.log")
    assert report.top is not None
    assert (report.top.class_, report.top.initiating_rank) == ("host_oom_killed", 2)


def test_an_error_logged_with_skipping_is_handled(matcher):
    """ERROR "failed to decode caption of sample 8812, skipping it" and its traceback, then training goes on."""
    report = _diagnose_run(matcher, "017_healthy_retries", "console.log", "torchrun_logs")
    assert report.outcome == "healthy", [d.signature for d in report.diagnoses]


R7 = CORPUS / "blind_r7" / "runs"


def _diagnose_r7(matcher, name: str, *inputs: str) -> Report:
    from signatures import diagnose

    return diagnose([str(R7 / name / i) for i in inputs], matcher=matcher)


@pytest.mark.parametrize(
    "run,inputs",
    [
        ("018_healthy_retries", ["srun_robust.log"]),  # an ERROR record, then "training complete" on every rank
        ("020_healthy_callbacks", ["torchrun.out", "logs"]),  # JSON lines: "lvl": "error", then "event": "finished"
        ("019_healthy_restart", ["stdout_stderr.log"]),  # attempt 0 fails, torchrun restarts, all ranks finish
    ],
)
def test_errors_every_rank_went_past_to_the_end_are_not_the_jobs_failure(matcher, run, inputs):
    report = _diagnose_r7(matcher, run, *inputs)
    assert report.outcome == "healthy", ([d.signature for d in report.diagnoses], report.unrecognised)


def test_a_job_that_did_not_go_past_its_errors_still_failed(matcher):
    """The same log up to torchrun's restart (as a log of a job without --max-restarts ends): rank 1's error,
    the peers' lost connections and the launcher's record stand."""
    text = (R7 / "019_healthy_restart" / "stdout_stderr.log").read_text()
    cut = text[: text.index("restart #1")]
    report = run(matcher, ("console.log", cut[: cut.rindex("\n") + 1]))
    assert report.outcome == "diagnosed" and report.top is not None and report.top.initiating_rank == 1


def test_a_first_sign_in_progress_bar_segments_goes_by_their_order(matcher):
    """tqdm bars of three ranks rewritten with \\r on one line: rank 1's loss=nan comes first."""
    report = _diagnose_r7(matcher, "012_tqdm_nan", "train_console.log")
    a = attribution(report)
    assert report.top is not None
    assert (report.top.class_, a.rank, a.rule) == ("nan_inf_loss", 1, "first_sign")


def test_a_corrupt_torch_save_file_in_a_dataloader_is_data_not_a_checkpoint(matcher):
    report = _diagnose_r7(matcher, "007_dataloader_corrupt", "run.log")
    assert report.top is not None
    assert (report.top.signature, report.top.class_, report.top.initiating_rank) == (
        "data.corrupt_tensor_file",
        "tokenizer_or_data_error",
        1,
    )


def test_ctrl_c_in_one_ranks_terminal_is_that_rank_being_stopped(matcher):
    report = _diagnose_r7(matcher, "017_tmux_ctrl_c", "pane_rank0.txt", "pane_rank1.txt", "pane_rank2.txt")
    assert report.top is not None
    assert (report.top.signature, report.top.initiating_rank) == ("python.keyboard_interrupt", 1)


@pytest.mark.parametrize(
    "line,rank",
    [("rank1:  38%|###   | 23/60", 1), ("[r2] 18 batches in my shard", 2), ("3: [r2] x", 2), ("- rank0 - INFO", 0)],
)
def test_rank_names_of_progress_bars_and_loggers(line, rank):
    from signatures._context import rank_and_host
    from signatures._lines import parse_prefix

    assert rank_and_host(line)[0] == rank == parse_prefix(line).rank


@pytest.mark.parametrize("line", ["prank1: x", "see rank0.log", "ranks: 4", "[r] x"])
def test_words_that_are_not_rank_names(line):
    from signatures._context import rank_and_host

    assert rank_and_host(line)[0] is None


def test_per_task_files_numbered_from_0_name_their_ranks():
    from signatures._ranks import numbered_sources

    names = ["logs/llm-ft-24-0.out", "logs/llm-ft-24-1.out", "logs/llm-ft-24-2.out", "srun.log"]
    assert numbered_sources(names) == {"logs/llm-ft-24-0.out": 0, "logs/llm-ft-24-1.out": 1, "logs/llm-ft-24-2.out": 2}
    assert numbered_sources(["slurm-4242.out"]) == {}  # a lone number is a job id, not a rank
    assert numbered_sources(["run-1.log", "run-2.log"]) == {}  # not counted from 0
    assert numbered_sources(["a-0.log", "a-2.log"]) == {}  # a gap: not a complete set of tasks


def test_a_rendezvous_that_waited_for_a_rank_that_failed_first_is_its_knock_on(matcher):
    """srun per-task files: task 1 fails importing a stale extension; task 0 (the store) times out waiting for
    clients 41 s later, though its traceback's only timestamp is from before the wait (blind_r8 007)."""
    from signatures import diagnose

    report = diagnose([str(CORPUS / "blind_r8" / "runs" / "007_ext_undefined_symbol")], matcher=matcher)
    assert report.top is not None
    assert (report.top.signature, report.top.initiating_rank) == ("python.undefined_symbol", 1)


def test_a_torchrun_restart_whose_last_attempt_finished_is_healthy(matcher):
    """--log-dir attempt_0/ holds rank 1's failure and the peers' lost connection, attempt_1/ both ranks
    finishing: the errors of attempt 0 (and the console's record of them) were gone past (blind_r9 019)."""
    from signatures import diagnose

    run_dir = CORPUS / "blind_r9" / "runs" / "019_healthy_elastic_restart"
    assert diagnose([str(run_dir)], matcher=matcher).outcome == "healthy"
    attempt_0 = [str(p) for p in sorted((run_dir / "elastic_logs").rglob("attempt_0/*/*.log"))]
    assert diagnose(attempt_0, matcher=matcher).outcome == "diagnosed"  # without the attempt that finished


# ---- after blind runs_r10 -----------------------------------------------------------------------------------

R10 = CORPUS / "blind_r10" / "runs"


def _top(run: str, matcher):
    from signatures import diagnose

    report = diagnose([str(R10 / run)], matcher=matcher)
    assert report.top is not None and report.top.attribution is not None
    return report.top


def test_a_rank_that_stopped_early_by_itself_is_the_peer_the_others_lost(matcher):
    """mp.spawn: rank 1 prints "early stopping: ..." and returns; rank 0 then loses its peer (runs_r10 013)."""
    top = _top("013_local_early_stop", matcher)
    assert (top.class_, top.initiating_rank, top.attribution.rule) == ("nccl_remote_peer_exited", 1, "finished_early")
    assert "stopped training on its own" in top.attribution.reasons[0].text


def test_a_save_only_one_rank_started_and_never_finished_is_that_ranks(matcher):
    """srun --label: rank 0 says it saves and says nothing more; ranks 1 and 2 time out in a barrier (runs_r10 019)."""
    top = _top("019_ckpt_writer_hang", matcher)
    assert (top.class_, top.initiating_rank, top.attribution.rule) == (
        "checkpoint_writer_hang",
        0,
        "pending_on_one_rank",
    )


def test_srun_naming_several_tasks_in_one_exit_line_is_a_failure_before_the_step_cancel(matcher):
    """`srun: error: vm: tasks 0,2: Exited with exit code 1` then the step cancelled: teardown, and the rank that
    never reported the gloo timeout is the silent culprit (runs_r10 002)."""
    top = _top("002_flock_silent", matcher)
    assert (top.class_, top.initiating_rank, top.attribution.rule) == ("nccl_timeout", 1, "silent_rank")


def test_the_second_agents_local_ranks_are_read_as_global_ones(matcher):
    """Two torchrun agents: node 1's "[default0]:" lines are rank 2's (its failure table says rank 2, local_rank 0),
    and so is its --log-dir attempt_0/0/ file, whose worker says rank=2 (runs_r10 015)."""
    top = _top("015_gloo_ifname", matcher)
    assert (top.signature, top.initiating_rank, top.ranks) == ("gloo.socket_interface_not_found", 2, [2])


def test_mp_spawns_exit_report_of_a_signal_names_the_process(matcher):
    top = _top("003_deep_thread_segv", matcher)
    assert (top.signature, top.initiating_rank) == ("process.segfault", 1)


def test_a_handled_error_before_training_went_on_with_a_loss_the_rule_does_not_follow_is_survived(matcher):
    """ "step 25 contrastive_loss 0.05": any training loss shows the rank going on, though the divergence rule follows
    only the training loss's names (runs_r10 022)."""
    from signatures import diagnose

    assert diagnose([str(R10 / "022_healthy_late_node")], matcher=matcher).outcome == "healthy"


# ---- after blind runs_r11 -----------------------------------------------------------------------------------

R11 = CORPUS / "blind_r11" / "runs"


def test_a_non_finite_loss_warned_by_a_rank_that_does_not_log_progress_is_its_first_sign(matcher):
    """Rank 0 logs the job's progress (JSON lines with "rank": 0); rank 1 alone warns "non-finite local loss"
    before clip_grad_norm_ fails on all four ranks (runs_r11 006): rank 1, though it never logs progress."""
    from signatures import diagnose

    top = diagnose([str(R11 / "006_masked_loss_nan_clip")], matcher=matcher).top
    assert top is not None and top.attribution is not None
    assert (top.class_, top.initiating_rank, top.attribution.rule) == ("nan_inf_loss", 1, "first_sign")


def test_json_lines_name_their_rank():
    from signatures._context import rank_and_host
    from signatures._lines import parse_prefix

    line = '{"ts": "2026-12-03T18:27:28.169Z", "level": "WARNING", "rank": 1, "msg": "non-finite local loss"}'
    assert parse_prefix(line).rank == 1 and rank_and_host(line)[0] == 1
    assert parse_prefix('{"msg": "ranked", "ranks": 4}').rank is None


def test_a_full_state_dict_loaded_into_an_fsdp2_model_is_fsdps_not_a_size_mismatch(matcher):
    """Equal shapes, "got mixed torch.Tensor and DTensor" / "placement changes are not supported" (runs_r11 008)."""
    from signatures import diagnose

    top = diagnose([str(R11 / "008_fsdp2_full_sd_load")], matcher=matcher).top
    assert top is not None and (top.signature, top.class_) == ("fsdp.dtensor_mixed_with_tensor", "fsdp_error")


# ---- after blind runs_r12 -----------------------------------------------------------------------------------

R12 = CORPUS / "blind_r12" / "runs"


@pytest.mark.parametrize(
    ("run", "signature", "cls", "rank"),
    [
        ("007_lfs_pointer_ckpt", "checkpoint.unpickling_invalid_load_key", "checkpoint_corrupt", 0),
        ("008_float_token_shard", "torch.dtype_mismatch", "dtype_mismatch", 2),
        ("014_bn_last_batch_one", "torch.batchnorm_single_value", "shape_mismatch", 3),
    ],
)
def test_runs_r12_failures_named_by_their_own_signatures(matcher, run, signature, cls, rank):
    """A git-lfs pointer loaded as a checkpoint is corrupt, not an object the safe loader refused; float token ids at
    the embedding; BatchNorm on a one-sample tail batch."""
    from signatures import diagnose

    top = diagnose([str(R12 / run)], matcher=matcher).top
    assert top is not None and (top.signature, top.class_, top.initiating_rank) == (signature, cls, rank)


def test_an_agent_that_lost_the_store_after_a_rank_failed_on_its_own_is_its_knock_on(matcher):
    """Two torchrun agents: rank 0's FileNotFoundError ends node 0's agent, which hosted the rendezvous store;
    node 1's agent then fails to shut the rendezvous down (runs_r12 005): rank 0's failure, not a rendezvous."""
    from signatures import diagnose

    top = diagnose([str(R12 / "005_eval_split_missing")], matcher=matcher).top
    assert top is not None and top.initiating_rank == 0 and top.class_ != "rendezvous_failure"


def test_a_numpy_overflow_warning_on_one_rank_is_the_first_sign_of_everyones_nan(matcher):
    """blind_r9 010: torchrun --tee 3; rank 1 alone printed "RuntimeWarning: overflow encountered in cast" (its
    loader packs features into float16), then every rank raised on a NaN average loss."""
    report = diagnose([str(CORPUS / "blind_r9" / "runs" / "010_fp16_cast_overflow" / "slurm-33.out")], matcher=matcher)
    a = attribution(report)
    assert report.top is not None
    assert (report.top.class_, a.rank, a.rule) == ("nan_inf_loss", 1, "first_sign")
    assert "overflow encountered in cast" in a.reasons[0].text
