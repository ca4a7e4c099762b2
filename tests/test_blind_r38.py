"""What runs_r38 (32 messy real runs scored blind on 6b0a024) and runs_r39 (32 runs around error files, DDP, loaders and
checkpoints, scored blind on 0078f6e) revealed, each with a variant that must not change."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from signatures import diagnose, diagnose_sources, source_from_bytes

R38 = Path(__file__).resolve().parent / "corpus" / "blind_r38" / "runs"


def _top(report):
    d = report.diagnoses[0] if report.diagnoses else None
    return (d.signature, d.class_, d.initiating_rank) if d else (report.outcome, None, None)


def diagnose_text(text: str, matcher):
    return diagnose_sources([source_from_bytes("paste.log", text.encode())], matcher)


def _run(where: Path) -> list[str]:
    return [str(where / "console.log"), str(where / "logs")]


def test_a_workers_stderr_error_its_stdout_trained_past_is_not_a_failure(matcher, tmp_path):
    # torchrun --redirects 3: rank 0's stderr.log holds a caught metrics-upload error (untimed); its stdout.log shows
    # training going on to "training finished"
    assert diagnose(_run(R38 / "006"), matcher).outcome == "healthy"
    # the same error when the worker's stdout never says it finished: the error stands
    copy = tmp_path / "006"
    shutil.copytree(R38 / "006", copy)
    (stdout,) = copy.glob("logs/*/attempt_0/0/stdout.log")
    stdout.write_text("".join(line for line in stdout.open() if "training finished" not in line))
    assert _top(diagnose(_run(copy), matcher))[1:] == ("hub_network_error", 0)
    # a worker that said it finished and then crashed, which its launcher saw fail: its stderr is not vouched for
    crashed = tmp_path / "crashed"
    shutil.copytree(R38 / "006", crashed)
    (stderr,) = crashed.glob("logs/*/attempt_0/0/stderr.log")
    with stderr.open("a") as fh:
        fh.write('Traceback (most recent call last):\n  File "/w/train.py", line 9, in <module>\n    save()\n')
        fh.write("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n")
    with (crashed / "console.log").open("a") as fh:
        fh.write(
            "E1206 22:31:25.862000 17069 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) "
            "local_rank: 0 (pid: 17075) of binary: /usr/bin/python3\n"
        )
    assert _top(diagnose(_run(crashed), matcher))[1:] == ("cuda_oom", 0)


def test_a_failure_in_a_torchrun_attempt_comes_before_the_next_attempts(matcher):
    # attempt 0: rank 2's torn JSON record (an untimed traceback in its stderr.log); attempt 1: every rank fails to
    # connect, stamped; torchrun's final table names attempt 1's rank 0
    d = diagnose(_run(R38 / "032"), matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("tokenizer_or_data_error", 2)
    assert "attempt_0/2/" in d.first_seen.source


# runs_r39 (32 real runs scored blind on 0078f6e)
R39 = Path(__file__).resolve().parent / "corpus" / "blind_r39" / "runs"


def test_a_worker_killed_on_the_second_agent_is_the_cause_of_the_first_agents_lost_store(matcher, tmp_path):
    # srun --label runs two torchrun agents of 4; the second agent's local rank 3 (global 7) is SIGKILLed by a memory
    # cgroup; the first agent's rendezvous heartbeat fails 0.3 s later (the store went with the second agent)
    log = R39 / "005" / "slurm-11.out"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("launcher.exit_sigkill", "host_oom_killed", 7)
    # the failure table read behind srun's label: "1:   rank : 7 (local_rank: 3)" then "1:   exitcode : -9"
    text = log.read_text()
    table = text[text.index("1:   rank      : 7") :]
    table = table[: table.index("traceback")]
    assert _top(diagnose_text(table, matcher)) == ("launcher.exit_sigkill", "host_oom_killed", 7)
    # a store failure stamped before the kill is not its knock-on
    before = tmp_path / "before.out"
    before.write_text(text.replace("W1207 00:11:29.985000 9468", "W1207 00:11:28.985000 9468"))
    assert _top(diagnose([str(before)], matcher))[0] != "launcher.exit_sigkill"


def test_an_explicit_eio_beats_the_short_write_torch_save_reports_after_it(matcher):
    # rank 3's OSError: [Errno 5] Input/output error, then torch.save's "unexpected pos" in the chained exception
    assert _top(diagnose([str(R39 / "016" / "console.log"), str(R39 / "016" / "logs")], matcher)) == (
        "storage.eio",
        "storage_io_error",
        3,
    )
    # the short write alone is still the disk that filled up
    short = "[rank0]: RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 5568 vs 5520\n"
    assert _top(diagnose_text(short, matcher))[:2] == ("checkpoint.zip_writer_short_write", "checkpoint_disk_full")


def test_a_warning_the_trainer_logged_and_trained_past_to_the_end_is_not_a_failure(matcher, tmp_path):
    # a DataLoader worker killed, caught by the trainer ("WARNING: data loader failed: ... restarting"), every rank
    # then finishes
    assert diagnose([str(R39 / "017" / "console.log")], matcher).outcome == "healthy"
    # the same warning when training does not go on to finish: the worker's death stands
    cut = tmp_path / "cut.log"
    cut.write_text("".join(ln for ln in (R39 / "017" / "console.log").open() if "training finished" not in ln))
    assert _top(diagnose([str(cut)], matcher))[1] == "dataloader_worker_killed"
    # NCCL reports its errors at WARN: a GPU's uncorrectable ECC error stands though the ranks trained on to the end
    ecc = (
        "[rank0]: step 1 loss 2.31\n[rank1]: step 1 loss 2.30\n"
        "gpu-node-3:41235:41302 [1] NCCL WARN Cuda failure 'uncorrectable ECC error encountered'\n"
        "[rank0]: step 2 loss 2.20\n[rank1]: step 2 loss 2.21\n"
        "[rank0]: training finished\n[rank1]: training finished\n"
    )
    assert _top(diagnose_text(ecc, matcher))[1] == "gpu_ecc_error"
    # and a warning that is a hardware failure, logged by Python at WARNING, is not trained past either
    xid = ecc.replace(
        "gpu-node-3:41235:41302 [1] NCCL WARN Cuda failure 'uncorrectable ECC error encountered'",
        "[rank1]: WARNING: RuntimeError: CUDA error: uncorrectable ECC error encountered",
    )
    assert _top(diagnose_text(xid, matcher))[1] == "gpu_ecc_error"


def test_a_rank_that_left_early_is_not_requeued_as_if_transient(matcher):
    d = diagnose([str(R39 / "010" / "console.log")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (1, "finished_early")
    assert d.action == "fix_and_restart" and "stop again" in d.action_reason


# runs_r40 (35 real runs scored blind on 53ebe44)
R40 = Path(__file__).resolve().parent / "corpus" / "blind_r40" / "runs"


def test_an_exception_python_ignored_at_exit_is_not_a_failure(matcher):
    # "Exception ignored in atexit callback: <function ...>" then its traceback, after every rank exited cleanly
    assert diagnose([str(R40 / "030" / "console.log")], matcher).outcome == "healthy"
    raised = (
        "1: Traceback (most recent call last):\n"
        '1:   File "/w/train.py", line 326, in close_tracker\n'
        "1: ConnectionResetError: tracker session already closed by server\n"
    )
    assert diagnose_text(raised, matcher).outcome != "healthy"  # the same traceback, not ignored, is a failure


def test_a_restart_that_then_finished_in_a_console_without_rank_prefixes_is_healthy(matcher, tmp_path):
    # torchrun --max-restarts 1: "failed (exitcode: -9) local_rank: 2", then attempt 1 trains and every rank finishes
    assert diagnose([str(R40 / "021" / "console.log")], matcher).outcome == "healthy"
    # the same console cut before the second attempt finished: the kill stands
    cut = tmp_path / "cut.log"
    cut.write_text("".join(ln for ln in (R40 / "021" / "console.log").open() if "done" not in ln and "clean" not in ln))
    assert _top(diagnose([str(cut)], matcher))[::2] == ("launcher.exit_sigkill", 2)


def test_the_kernels_oom_kill_is_the_rank_whose_pid_the_launcher_saw_killed(matcher, tmp_path):
    # attempt 0's rank 0 killed by the memory cgroup (kern.log names pid 29998, torchrun's record the same pid); the
    # later attempts failed loading the checkpoint it tore
    run = R40 / "020"
    assert _top(diagnose([str(run / "console.log"), str(run / "kern.log")], matcher)) == (
        "kernel.oom_killer",
        "host_oom_killed",
        0,
    )
    # another pid: the kill is no rank's
    other = tmp_path / "kern.log"
    other.write_text((run / "kern.log").read_text().replace("29998", "41234"))
    d = diagnose([str(run / "console.log"), str(other)], matcher).diagnoses[0]
    assert not (d.signature == "kernel.oom_killer" and d.initiating_rank == 0)


def test_one_rank_alone_that_could_not_reach_the_store_is_that_ranks(matcher):
    # srun -n 4: task 2 alone has a wrong master address; ranks 0, 1 and 3 reached the store and waited for it
    d = diagnose([str(R40 / "005" / "console.log")], matcher).diagnoses[0]
    assert (d.signature, d.initiating_rank, d.attribution.rule) == ("c10d.store_connect_failed", 2, "absent_rank")
    # every rank unable to reach it: the job's failure
    log = "".join(
        f"{r}: [c10d] The client socket has timed out after 30000ms while trying to connect to (10.0.0.9, 29500).\n"
        for r in range(4)
    )
    assert _top(diagnose_text(log, matcher))[::2] == ("c10d.store_connect_failed", None)


def test_timeouts_every_rank_reported_alike_name_the_rank_whose_last_numbers_differ(matcher):
    d = diagnose([str(R40 / "017" / "console.log")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("nccl_timeout", 1)
    assert (d.attribution.rule, d.attribution.confidence) == ("odd_value_out", "low")
    assert '"eval: 5"' in d.attribution.reasons[0].text


# runs_r41 (39 real runs scored blind on 0712a33)
R41 = Path(__file__).resolve().parent / "corpus" / "blind_r41" / "runs"
CORPUS_R28 = Path(__file__).resolve().parent / "corpus" / "blind_r28" / "runs"


def test_the_one_rank_torchruns_failure_table_leaves_out_had_exited_early(matcher, tmp_path):
    # world_size=4; the table lists ranks 0, 1 (SIGTERM) and 2; rank 3 logged early stopping and exited 0
    log = R41 / "017" / "console.log"
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule, d.action) == (3, "finished_early", "fix_and_restart")
    text = log.read_text()
    # no world size printed: the table cannot show a rank missing
    unsized = tmp_path / "unsized.log"
    unsized.write_text(text.replace("world_size=4", "backend_ready"))
    assert diagnose([str(unsized)], matcher).diagnoses[0].attribution.rule != "finished_early"
    # rank 3 listed too (stopped by the agent): nobody left early
    listed = tmp_path / "listed.log"
    row = "[3]:\n  time      : 2026-12-07_01:16:14\n  host      : localhost\n  rank      : 3 (local_rank: 3)\n"
    row += "  exitcode  : -15 (pid: 15996)  (SIGTERM)\n  error_file: <N/A>\n"
    listed.write_text(text.replace("[2]:\n", row + "[2]:\n", 1))
    assert diagnose([str(listed)], matcher).diagnoses[0].initiating_rank != 3


def test_restarted_workers_refused_by_a_lost_nodes_old_address_are_its_knock_on(matcher):
    # elastic torchrun, two agents; node-b's log stops dead at step 30, node-a's workers lose their peers, and the
    # restarted workers are refused at node-b's old addresses (Gloo connectFullMesh failed)
    run = R41 / "038"
    assert _top(diagnose([str(run / "node-a.log"), str(run / "node-b.log")], matcher))[:2] == (
        "elastic.node_lost",
        "node_failure",
    )
    # a rank's own exception in attempt 0, then the restart's connectFullMesh failures: the exception started it
    first = CORPUS_R28 / "003" / "console.log"
    assert _top(diagnose([str(first)], matcher))[1:] == ("python_exception_other", 1)


def test_a_shape_error_torch_compile_wraps_is_still_the_shape_error_on_its_rank(matcher):
    # rank 1 alone runs torch.compile; its fake-tensor check logs "a and b must have same reduction dim" before dynamo
    # wraps it in TorchRuntimeError; ranks 0 and 2 then lose their peer
    d = diagnose(_run(R41 / "015"), matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("torch.matmul_shape_mismatch", "shape_mismatch", 1)
    assert d.values["mat2"] == "16, 32"
    # the glog stamp right behind torch's rank label is the line's own time (01:15:05), not a line above's
    assert (d.evidence[0].time or "").startswith("2026-12-07T01:15:05")


# runs_r42 (38 real runs scored blind on 86b25af)
R42 = Path(__file__).resolve().parent / "corpus" / "blind_r42" / "runs"
R37 = Path(__file__).resolve().parent / "corpus" / "blind_r37" / "runs"


def test_a_job_that_saved_and_exited_cleanly_after_a_cancel_is_still_told_it_was_stopped(matcher):
    # scancel --signal=TERM at step 60 of 400; both ranks save a checkpoint and exit 0. Its evaluator labelled it
    # healthy (alternative preemption_sigterm), runs_r37 022's evaluator labelled the same situation
    # preemption_sigterm: the job did not do its work, so the answer says it was stopped and can be requeued
    d = diagnose([str(R42 / "017" / "slurm-7.out")], matcher).diagnoses[0]
    assert (d.class_, d.action) == ("preemption_sigterm", "restart")
    assert diagnose([str(R37 / "022" / "slurm-12.out")], matcher).diagnoses[0].class_ == "preemption_sigterm"


# runs_r43 (43 real runs scored blind on 8e72043)
R43 = Path(__file__).resolve().parent / "corpus" / "blind_r43" / "runs"


def test_a_chained_traceback_under_srun_labels_keeps_the_record_that_caught_it(matcher):
    # "0: [04:06:50] ERROR checkpoint save attempt 1 failed; ... retrying", the first traceback, then "0: During
    # handling of the above exception..." and a "0: " line before the second header: the srun label alone is a
    # blank line, so the second traceback was printed by the same retrying record
    report = diagnose([str(R43 / "018" / "console.log")], matcher)
    assert report.outcome == "healthy"
    assert [a.signature for a in report.set_aside or []] == ["checkpoint.zip_writer_short_write"]
    # the same save failing with nothing saying it is retried is the failure
    text = (R43 / "018" / "console.log").read_text()
    unretried = text.replace("failed; pruning old checkpoints and retrying", "failed")
    assert _top(diagnose_text(unretried, matcher))[1] == "checkpoint_disk_full"


# runs_r44 (44 real runs through real frameworks, scored blind on a77c071)
R44 = Path(__file__).resolve().parent / "corpus" / "blind_r44" / "runs"


def test_a_library_raising_module_not_found_in_its_own_words_is_the_missing_dependency(matcher):
    d = diagnose([str(R44 / "027" / "console.log")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.values.get("module")) == (
        "python.module_not_found",
        "dependency_abi_mismatch",
        "tensorboard",
    )
    # a ModuleNotFoundError naming nothing in quotes stays a plain exception
    bare = "[rank0]: ModuleNotFoundError: optional backend unavailable\n"
    assert _top(diagnose_text(bare, matcher))[0] != "python.module_not_found"


# runs_r45 (34 real runs, 20 of them healthy, scored blind on 65c3ecc)
R45 = Path(__file__).resolve().parent / "corpus" / "blind_r45" / "runs"


def test_an_error_before_a_torchrun_restart_that_finished_is_set_aside(matcher, tmp_path):
    # attempt 0: rank 1 raised EIO; torchrun restarted the workers and every worker of attempt 1 finished
    run = R45 / "033"
    report = diagnose([str(run / "console.log"), str(run / "elastic")], matcher)
    assert report.outcome == "healthy"
    assert any(a.signature == "storage.eio" and "restarted" in a.why for a in report.set_aside or [])
    # the restarts that failed too (008): the first attempt's error is still the failure
    failed = R45 / "008"
    assert _top(diagnose([str(p) for p in sorted(failed.iterdir())], matcher))[1:] == ("storage_io_error", 1)
    # without the last attempt's directory nothing shows the restart finished
    partial = tmp_path / "elastic"
    shutil.copytree(run / "elastic", partial)
    for attempt in partial.glob("*/attempt_1"):
        shutil.rmtree(attempt)
    assert diagnose([str(run / "console.log"), str(partial)], matcher).outcome == "diagnosed"


def test_a_chain_printed_without_its_first_header_under_a_fallback_record_is_caught(matcher):
    # 030: logger.warning("could not fetch ...; falling back to the local copy", exc_info=True) printed the hub's
    # chain, whose first two exceptions come bare (no traceback), on both ranks; both then trained to the end
    report = diagnose([str(R45 / "030" / "console.log")], matcher)
    assert report.outcome == "healthy"
    assert any(a.signature == "hf_hub.cannot_connect" and a.why.startswith("caught") for a in report.set_aside or [])
    # the same chain under the library's own last WARNING (it gave up and raised) is the failure (runs_r44 036)
    assert _top(diagnose([str(R44 / "036" / "console.log")], matcher))[1] == "hub_network_error"


CHAIN_BARE_FIRST = """2026-12-07 05:06:12,261 - {level} - loader - {record}
httpcore.ConnectError: [Errno 111] Connection refused

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/job/train.py", line 50, in <module>
    shard = fetch(url)
OSError: could not read shard from http://10.0.0.5:8000/shard-00017
"""


def test_only_a_warning_saying_the_work_goes_on_vouches_for_a_chain_without_its_first_header(matcher):
    caught = diagnose_text(
        CHAIN_BARE_FIRST.format(level="WARNING", record="shard fetch failed; skipping shard 17"), matcher
    )
    assert caught.outcome == "healthy"
    for level, record in (
        # a warning that says nothing of going on is what a library logs before it gives up and raises
        ("WARNING", "'[Errno 111] Connection refused' thrown while requesting"),
        # a record that gives up, the word inside a path, an INFO record about something else
        ("ERROR", "shard fetch failed after 5 attempts; not retrying"),
        ("WARNING", "shard fetch failed after 5 attempts; giving up, skipping nothing"),
        ("INFO", "reading /data/skipping-rope/shard-00017.tar"),
        ("INFO", "Continuing training from checkpoint, will skip to saved global_step"),
    ):
        assert diagnose_text(CHAIN_BARE_FIRST.format(level=level, record=record), matcher).outcome == "diagnosed", (
            record
        )


def test_a_chain_begins_where_its_words_are_whole_not_at_an_earlier_caught_traceback(matcher):
    # a caught, retried traceback a few lines up, then training, then an uncaught chain whose first exception is bare
    text = (
        "2026-12-07 05:00:01,000 WARNING upload: metrics upload failed, retrying in 5s\n"
        "Traceback (most recent call last):\n"
        '  File "/job/upload.py", line 5, in push\n'
        "    post(x)\n"
        "ConnectionRefusedError: [Errno 111] Connection refused\n"
        "2026-12-07 05:00:02,000 INFO train: step 100 loss 2.0\n"
        "2026-12-07 05:00:03,000 INFO loader: loading shard 17\n"
    ) + CHAIN_BARE_FIRST.split("\n", 1)[1]
    assert diagnose_text(text, matcher).outcome == "diagnosed"


def test_a_lone_exception_line_under_a_skipping_record_is_not_caught(matcher):
    # no chain follows it: an excerpt's last line, a long traceback's header out of reach
    for line, cls in (
        (
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.1 GiB",
            "cuda_oom",
        ),
        ("CUDA error: device-side assert triggered", "cuda_device_side_assert"),
    ):
        text = "2026-12-07 05:00:01,000 WARNING data: skipping 3 samples longer than max_len\n" + line + "\n"
        assert _top(diagnose_text(text, matcher))[1] == cls


def test_torchs_rank_prefix_with_its_space_reads_the_same_chain(matcher, tmp_path):
    # 030 with "[rank1]: " (torch's prefix, a space after the colon) instead of torchrun's "[default1]:"
    text = (R45 / "030" / "console.log").read_text()
    rewritten = re.sub(r"^\[default(\d)\]:", r"[rank\1]: ", text, flags=re.M)
    assert diagnose_text(rewritten, matcher).outcome == "healthy"


# runs_r46 (36 real runs with long noisy logs, scored blind on 1825bc4)
R46 = Path(__file__).resolve().parent / "corpus" / "blind_r46" / "runs"


def test_a_warning_signal_the_jobs_handler_saved_and_stopped_on_is_a_planned_stop(matcher):
    # sbatch --signal=USR1@170: every rank's handler saved at step 446 and exited cleanly; nothing failed after
    report = diagnose([str(R46 / "009" / "slurm-12.out")], matcher)
    assert report.outcome == "healthy"
    assert any(a.signature == "train.warning_signal_handled" and "planned" in a.why for a in report.set_aside or [])
    # the same handler, then the time limit struck before the save finished: the limit ended it
    text = (R46 / "009" / "slurm-12.out").read_text().splitlines()[:894]
    limit = "slurmstepd-vm: error: *** JOB 12 ON vm CANCELLED AT 2026-12-07T05:40:01 DUE TO TIME LIMIT ***"
    assert _top(diagnose_text("\n".join([*text, limit]) + "\n", matcher))[1] == "slurm_time_limit"
    # the log ends at the handler's words (the save never said it finished), or srun then reports the tasks ended
    assert _top(diagnose_text("\n".join(text) + "\n", matcher))[1] == "slurm_time_limit"
    terminated = "srun: error: vm: tasks 0-1: Terminated"
    assert _top(diagnose_text("\n".join([*text, terminated]) + "\n", matcher))[1] == "slurm_time_limit"
    # a job that saved and meant to requeue but could not (runs_r29 028: "not requeueing automatically") must be
    # resubmitted by someone: the time limit stopped it
    r29 = Path(__file__).resolve().parent / "corpus" / "blind_r29" / "runs" / "028" / "ft-usr1-7.out"
    assert _top(diagnose([str(r29)], matcher))[1] == "slurm_time_limit"


def test_a_requeue_the_job_asked_for_and_trained_on_after_is_no_preemption(matcher):
    # USR1: save, scontrol requeue ("CANCELLED ... DUE TO JOB REQUEUE"); the requeued run resumed and saved again
    report = diagnose([str(R46 / "032" / "slurm-1.out")], matcher)
    assert report.outcome == "healthy"
    assert any(a.signature == "slurm.job_cancelled" and "requeued" in a.why for a in report.set_aside or [])
    # a requeue cancel the log does not show training after is still the job being stopped
    lines = (R46 / "032" / "slurm-1.out").read_text().splitlines()[:1452]
    assert _top(diagnose_text("\n".join(lines) + "\n", matcher))[1] == "preemption_sigterm"


def test_tasks_killed_by_the_warning_signal_itself_are_the_job_told_to_stop(matcher):
    # the handler was installed after the signal came: srun saw every task end on SIGUSR1
    assert _top(diagnose([str(R46 / "034" / "slurm-3.out")], matcher)) == (
        "slurm.tasks_killed_by_user_signal",
        "preemption_sigterm",
        None,
    )


def test_an_untimed_failure_of_a_first_attempt_comes_before_the_restart_stamped_at_once(matcher):
    # attempt 0: rank 1's ConnectionError (no timestamp); attempt 1: rank 0's gloo connectFullMesh, whose stamp is
    # also the first of attempt 1 (the bound of everything in attempt 0): the first attempt's failure started it
    run = R46 / "008"
    assert _top(diagnose([str(run / "console.log"), str(run / "tlogs")], matcher)) == (
        "python.uncaught_exception",
        "python_exception_other",
        1,
    )


def test_a_caught_chain_whose_first_message_spans_lines_is_still_read_whole(matcher):
    # the walk up the chain passes the first exception's message lines and frames to its header and its record
    text = (
        "2026-12-07 05:00:01,000 WARNING ckpt: async upload failed, retrying in 5s\n"
        "Traceback (most recent call last):\n"
        '  File "a.py", line 1, in f\n'
        "    g()\n"
        "RuntimeError: upload stream broke\n"
        "second line of the message\n"
        "\n"
        "During handling of the above exception, another exception occurred:\n"
        "\n"
        "Traceback (most recent call last):\n"
        '  File "a.py", line 5, in h\n'
        "    f()\n"
        "ValueError: wrapped upload error\n"
        "2026-12-07 05:00:02,000 INFO train: step 11 loss 2.0\n"
    )
    assert diagnose_text(text, matcher).outcome == "healthy"
    # the same chain under an INFO record is not caught
    assert (
        diagnose_text(
            text.replace("WARNING ckpt: async upload failed, retrying in 5s", "INFO ckpt: upload"), matcher
        ).outcome
        == "diagnosed"
    )


# runs_r48 (41 entries cut from 29 real runs as users hand them in, scored blind on 267c2a0)
R48 = Path(__file__).resolve().parent / "corpus" / "blind_r48" / "runs"


def test_the_failure_tables_rankless_tracebacks_are_kept_for_every_rank(matcher):
    # only the last 170 lines: torchrun's table, each row's traceback printed with no rank prefix; every rank but 5
    # timed out. Rankless lines keep more than four events each, so the table's eight rows all get their rank
    d = diagnose([str(R48 / "005" / "console.log")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_timeout", 5, "silent_rank")


def test_a_later_nodes_tee_prefix_alone_is_read_as_its_global_rank(matcher):
    # node1's console: "[default0]:[rank3]:" pairs give the node's first rank (3); rank 4's own line carries only
    # "[default1]:" ("reached max_steps for this shard, exiting"), then the other ranks lost their peer
    run = R48 / "007"
    d = diagnose([str(run / "node0.log"), str(run / "node1.log")], matcher).diagnoses[0]
    assert (d.initiating_rank, d.attribution.rule) == (4, "finished_early")
    # the first node's console alone names no later node's rank from a tee prefix
    assert diagnose([str(run / "node0.log")], matcher).diagnoses[0].initiating_rank != 1


def test_json_lines_of_a_distributed_job_naming_their_rank_are_a_log(matcher):
    # runs_r49 022: batch inference under mp.spawn, only JSON records ({"event": "progress", "rank": 2, ...})
    run = Path(__file__).resolve().parent / "corpus" / "blind_r49" / "runs" / "022" / "console.log"
    assert diagnose([str(run)], matcher).outcome == "healthy"
    # a JSON object without a rank field, among prose, is still no log
    prose = 'The settings file:\n{"name": "x", "size": 3}\nsee the docs\n'
    assert diagnose_text(prose, matcher).outcome == "not_a_log"
    # a search-results dump ranks its hits: "rank" among "query", "doc_id" and "score" is no job's record
    hits = "".join(
        f'{{"query": "gpu drivers", "doc_id": "d{i}", "rank": {i}, "score": {12.8 - i:.2f}}}\n' for i in range(1, 9)
    )
    assert diagnose_text(hits, matcher).outcome == "not_a_log"


def test_a_later_node_with_more_workers_than_its_first_rank_maps_every_tee_prefix(matcher, tmp_path):
    # runs_r48 007's node1 console (ranks 3-5) renumbered as a node of three workers after a node of two (ranks 2-4),
    # its early finisher now local rank 2 (global 4) and logging a CUDA OOM instead: "[default0]:[rank2]:" pairs give
    # the node's first rank, 2, and "[default2]:" alone is rank 4, not rank 2 (review of 63f5e2d)
    local, rank = {"0": "0", "1": "2", "2": "1"}, {"3": "2", "4": "4", "5": "3"}
    text = (R48 / "007" / "node1.log").read_text()
    text = re.sub(r"^\[default(\d)\]", lambda m: f"[default{local[m.group(1)]}]", text, flags=re.M)
    text = re.sub(r"(\[rank|rank: |\[)([345])(\]|/6\]|\b)", lambda m: m.group(1) + rank[m.group(2)] + m.group(3), text)
    text = text.replace("/6]", "/5]").replace("world_size: 6", "world_size: 5")
    text = text.replace(
        "INFO][4/5] reached max_steps for this shard, exiting | step: 30",
        "ERROR][4/5] step 30 failed: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 "
        "has a total capacity of 79.10 GiB of which 1.02 GiB is free. Exiting.",
    )
    assert "[default2]:[2026-12-07 06:48:55,938][fabrik.engine][ERROR][4/5]" in text
    assert "[default1]:[rank3]:" in text and "[default2]:[rank4]:" not in text
    log = tmp_path / "node1.log"
    log.write_text(text)
    d = diagnose([str(log)], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank) == ("cuda_oom", 4)
