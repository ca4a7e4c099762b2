"""The Slurm and paths fetchers with injected commands and transports: parsing, patterns, budgets, errors."""

from __future__ import annotations

import httpx
import pytest

from bot.config import Config
from bot.fetch import FetchError, fetch_job, parse_job_ref
from bot.fetch.base import fair_shares, write_tail_of_stream
from bot.fetch.slurm import Completed, expand_pattern, parse_scontrol_line

LINE = (
    "JobId=812345 JobName=llama pretrain UserId=alice(1000) GroupId=ml(100) JobState=FAILED Reason=NonZeroExitCode "
    "ExitCode=1:0 RunTime=00:12:31 StartTime=2026-11-30T12:00:00 EndTime=2026-11-30T12:12:31 NodeList=gpu[01-02] "
    "BatchHost=gpu01 Command=/home/alice/run.sh --lr 3e-4 WorkDir={workdir} StdErr={workdir}/slurm-%j.err "
    "StdIn=/dev/null StdOut={workdir}/out/%x-%j.out"
)


def config(**cluster) -> Config:
    return Config.model_validate({"clusters": {"hpc": {"kind": "slurm", **cluster}}})


def runner_for(responses: dict):
    calls = []

    def run(args, timeout):
        calls.append(args)
        for prefix, result in responses.items():
            if args[0].endswith(prefix):
                return result
        raise AssertionError(args)

    run.calls = calls  # type: ignore[attr-defined]  # the tests read the argument lists back from the runner
    return run


def test_parse_scontrol_values_with_spaces():
    job = parse_scontrol_line(LINE.format(workdir="/w"))
    assert job["JobName"] == "llama pretrain"
    assert job["Command"] == "/home/alice/run.sh --lr 3e-4"
    assert job["NodeList"] == "gpu[01-02]"


@pytest.mark.parametrize(
    "pattern,expected",
    [
        ("slurm-%j.out", "slurm-812345.out"),
        ("%x_%A_%a.log", "llama_812300_7.log"),
        ("%N.%u.log", "gpu01.alice.log"),
        ("rank-%t.log", "rank-*.log"),
        ("%5j.out", "812345.out"),
        ("100%%.log", "100%.log"),
    ],
)
def test_filename_patterns(pattern, expected):
    job = {
        "JobId": "812345",
        "JobName": "llama",
        "ArrayJobId": "812300",
        "ArrayTaskId": "7",
        "BatchHost": "gpu01",
        "UserId": "alice(1000)",
    }
    if "%A" not in pattern:
        job.pop("ArrayTaskId")
    assert expand_pattern(pattern, job) == expected


def test_logs_from_stdout_stderr_and_templates(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "llama pretrain-812345.out").write_text("[rank0]: step 1 loss 2.0\n")
    (tmp_path / "slurm-812345.err").write_text("[rank1]: torch.OutOfMemoryError: CUDA out of memory.\n")
    (tmp_path / "logs" / "812345").mkdir(parents=True)
    for r in range(2):
        (tmp_path / "logs" / "812345" / f"rank{r}.log").write_text(f"rank {r} ok\n")
    run = runner_for({"scontrol": Completed(0, LINE.format(workdir=tmp_path) + "\n", "")})
    cfg = config(log_templates=["{workdir}/logs/{job_id}/rank*.log"])
    result = fetch_job(parse_job_ref("812345", cfg), cfg, runner=run)
    try:
        assert [log.name for log in result.logs] == [
            "llama pretrain-812345.out",
            "slurm-812345.err",
            "logs/812345/rank0.log",
            "logs/812345/rank1.log",
        ]
        assert result.facts.state == "FAILED" and result.facts.exit_code == "1:0" and result.facts.user == "alice"
        assert run.calls == [["scontrol", "show", "job", "-o", "812345"]]  # one argument list, no shell
    finally:
        result.cleanup()
    assert not result.workdir.exists()


def test_newest_bytes_are_kept_within_the_budget(tmp_path):
    big = tmp_path / "slurm-812345.err"
    big.write_text("".join(f"old line {i}\n" for i in range(100_000)) + "the newest line\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "llama pretrain-812345.out").write_text("small\n")
    run = runner_for({"scontrol": Completed(0, LINE.format(workdir=tmp_path), "")})
    cfg = config(max_bytes=10_000)
    result = fetch_job(parse_job_ref("812345", cfg), cfg, runner=run)
    try:
        err = next(log for log in result.logs if log.name.endswith(".err"))
        assert err.truncated and err.size <= 10_000 and err.original_size > 1_000_000
        text = err.path.read_text()
        assert text.endswith("the newest line\n") and text.startswith("old line ")  # cut at a line boundary
        assert sum(log.size for log in result.logs) <= 10_000
        assert any("truncated" in note for note in result.notes)
    finally:
        result.cleanup()


def test_accounting_is_asked_when_the_controller_forgot_the_job(tmp_path):
    (tmp_path / "slurm-812345.out").write_text("[rank0]: MemoryError\n")
    sacct = f"812345|train|FAILED|1:0|gpu01|2026-11-30T12:00:00|2026-11-30T12:10:00|00:10:00|alice|{tmp_path}|None\n"
    run = runner_for(
        {
            "scontrol": Completed(1, "", "slurm_load_jobs error: Invalid job id specified"),
            "sacct": Completed(0, sacct, ""),
        }
    )
    cfg = config()
    result = fetch_job(parse_job_ref("812345", cfg), cfg, runner=run)
    try:
        assert [log.name for log in result.logs] == ["slurm-812345.out"]  # Slurm's default name in WorkDir
        assert result.facts.elapsed == "00:10:00"
    finally:
        result.cleanup()


@pytest.mark.parametrize(
    "responses,kind",
    [
        (
            {
                "scontrol": Completed(1, "", "slurm_load_jobs error: Invalid job id specified"),
                "sacct": Completed(1, "", "sacct: error: Slurm accounting storage is disabled"),
            },
            "unknown_job",
        ),
        (
            {
                "scontrol": Completed(
                    1, "", "slurm_load_jobs error: Unable to contact slurm controller (connect failure)"
                )
            },
            "unreachable",
        ),
        (
            {
                "scontrol": Completed(
                    0, "JobId=812345 JobName=x JobState=PENDING Reason=Priority WorkDir=/tmp StdOut=/tmp/x", ""
                )
            },
            "pending",
        ),
        (
            {
                "scontrol": Completed(
                    0,
                    "JobId=812345 JobName=x JobState=FAILED WorkDir=/nonexistent StdOut=/nonexistent/o "
                    "StdErr=/nonexistent/o",
                    "",
                )
            },
            "log_missing",
        ),
    ],
)
def test_specific_errors(responses, kind):
    cfg = config()
    with pytest.raises(FetchError) as err:
        fetch_job(parse_job_ref("812345", cfg), cfg, runner=runner_for(responses))
    assert err.value.kind == kind and str(err.value)


def test_slurmrestd(tmp_path):
    (tmp_path / "train.out").write_text(
        "slurmstepd: error: *** JOB 812345 ON gpu01 CANCELLED AT 2026-11-30T12:00:00 DUE TO TIME LIMIT ***\n"
    )
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/812345"):
            return httpx.Response(
                200,
                json={
                    "meta": {},
                    "errors": [],
                    "jobs": [
                        {
                            "job_id": 812345,
                            "name": "train",
                            "job_state": "TIMEOUT",
                            "exit_code": 0,
                            "nodes": "gpu01",
                            "current_working_directory": str(tmp_path),
                            "standard_output": str(tmp_path / "train.out"),
                            "standard_error": str(tmp_path / "train.out"),
                            "user_name": "alice",
                        }
                    ],
                },
            )
        if request.url.path.endswith("/401"):
            return httpx.Response(401, json={"errors": [{"error": "auth"}]})
        return httpx.Response(200, json={"errors": [{"error": "Invalid job id specified"}], "jobs": []})

    cfg = config(restd_url="http://slurmrestd:6820", restd_user="alice")
    http = httpx.Client(transport=httpx.MockTransport(handler))
    result = fetch_job(parse_job_ref("812345", cfg), cfg, http=http)
    try:
        assert result.facts.state == "TIMEOUT" and len(result.logs) == 1
        assert seen[0].url.path == "/slurm/v0.0.38/job/812345" and seen[0].headers["X-SLURM-USER-NAME"] == "alice"
    finally:
        result.cleanup()
    with pytest.raises(FetchError) as err:
        fetch_job(parse_job_ref("999", cfg), cfg, http=http)
    assert err.value.kind == "unknown_job"
    with pytest.raises(FetchError) as err:
        fetch_job(parse_job_ref("401", cfg), cfg, http=http)
    assert err.value.kind == "permission"


def test_paths_cluster(tmp_path):
    for r in range(3):
        (tmp_path / "jobs" / "run-42").mkdir(parents=True, exist_ok=True)
        (tmp_path / "jobs" / "run-42" / f"rank{r}.log").write_text(f"[rank{r}] step 1\n")
    cfg = Config.model_validate(
        {"clusters": {"shared": {"kind": "paths", "templates": [str(tmp_path / "jobs/{job_id}/*.log")]}}}
    )
    result = fetch_job(parse_job_ref("run-42", cfg), cfg)
    try:
        assert [log.name for log in result.logs] == ["rank0.log", "rank1.log", "rank2.log"]
    finally:
        result.cleanup()
    with pytest.raises(FetchError) as err:
        fetch_job(parse_job_ref("run-43", cfg), cfg)
    assert err.value.kind == "unknown_job"
    with pytest.raises(FetchError) as err:
        parse_job_ref("../etc", cfg)
    assert err.value.kind == "invalid_id"


def test_fair_shares_and_stream_tails(tmp_path):
    assert fair_shares([10, 1000, 1000], 510) == [10, 250, 250]
    assert fair_shares([1, 2], 100) == [1, 2]
    dest = tmp_path / "tail.log"
    kept, total = write_tail_of_stream((f"line {i}\n".encode() for i in range(10_000)), dest, 1000)
    assert total > 10_000 and kept <= 1000 and dest.read_text().endswith("line 9999\n")


@pytest.mark.parametrize("job_id", ["0", "0_1", "007", "１２３", "٣٤", "12 3", "123;ls", "-1"])
def test_job_ids_are_ascii_digits_and_never_zero(job_id):
    with pytest.raises(FetchError) as err:
        parse_job_ref(job_id, config())
    assert err.value.kind in ("invalid_id", "unknown_cluster")


def test_an_answer_that_lists_other_jobs_is_refused(tmp_path):
    """A scheduler that answers for more than the job asked for (as `scontrol show job 0` does) gets no read."""
    other = LINE.format(workdir=tmp_path).replace("JobId=812345", "JobId=900001")
    run = runner_for({"scontrol": Completed(0, LINE.format(workdir=tmp_path) + "\n" + other + "\n", "")})
    cfg = config()
    with pytest.raises(FetchError) as err:
        fetch_job(parse_job_ref("812345", cfg), cfg, runner=run)
    assert err.value.kind == "invalid_id" and "900001" in str(err.value)


def test_array_tasks_and_het_components_belong_to_their_job():
    from bot.fetch.slurm import _is_job

    assert _is_job({"JobId": "812346", "ArrayJobId": "812345", "ArrayTaskId": "2"}, "812345")
    assert _is_job({"JobId": "812346", "ArrayJobId": "812345", "ArrayTaskId": "2"}, "812345_2")
    assert not _is_job({"JobId": "812347", "ArrayJobId": "812345", "ArrayTaskId": "3"}, "812345_2")
    assert _is_job({"JobId": "812345_4"}, "812345") and _is_job({"JobId": "812350", "HetJobId": "812345"}, "812345")
    assert not _is_job({"JobId": "8123450"}, "812345")


def test_a_slow_accounting_is_a_timeout_not_an_unknown_job():
    def run(args, timeout):
        if args[0] == "scontrol":
            return Completed(1, "", "slurm_load_jobs error: Invalid job id specified")
        raise FetchError("timeout", "`sacct -j 812345` did not answer within 5s")

    cfg = config()
    with pytest.raises(FetchError) as err:
        fetch_job(parse_job_ref("812345", cfg), cfg, runner=run)
    assert err.value.kind == "timeout"


def test_the_last_good_run_comes_from_accounting_else_from_the_controllers_memory():
    from bot.fetch import JobFacts, parse_job_ref, previous_good_run

    cfg = config()
    ref = parse_job_ref("900", cfg)
    facts = JobFacts("900", name="pretrain", user="alice", start="2026-12-02T12:00:00")
    sacct = "850|2026-12-01T08:00:00\n870|2026-12-02T11:00:00\n880|2026-12-02T13:00:00\n"  # 880 ended after 900 began
    run = runner_for({"sacct": Completed(0, sacct, "")})
    assert previous_good_run(ref, cfg, facts, runner=run) == parse_job_ref("hpc/870", cfg)
    scontrol = (
        "JobId=860 JobName=pretrain UserId=alice(1000) JobState=COMPLETED EndTime=2026-12-02T10:00:00\n"
        "JobId=861 JobName=pretrain UserId=bob(1001) JobState=COMPLETED EndTime=2026-12-02T11:30:00\n"
        "JobId=862 JobName=pretrain UserId=alice(1000) JobState=FAILED EndTime=2026-12-02T11:40:00\n"
    )
    no_accounting = runner_for(
        {
            "sacct": Completed(1, "", "sacct: error: Slurm accounting storage is disabled"),
            "scontrol": Completed(0, scontrol, ""),
        }
    )
    assert previous_good_run(ref, cfg, facts, runner=no_accounting) == parse_job_ref("hpc/860", cfg)
    off = config(baseline=False)
    assert previous_good_run(parse_job_ref("900", off), off, facts, runner=no_accounting) is None


@pytest.mark.parametrize(
    ("state", "exit_code", "reason", "failed", "cls"),
    [
        ("FAILED", "1:0", None, True, None),
        ("OUT_OF_MEMORY", "0:125", None, True, "host_oom_killed"),
        ("TIMEOUT", "0:0", None, True, "slurm_time_limit"),
        ("NODE_FAIL", "0:0", None, True, "node_failure"),
        ("PREEMPTED", "0:15", None, True, "preemption_sigterm"),
        ("Failed", "137", "OOMKilled", True, "host_oom_killed"),  # a Kubernetes pod's container
        ("Failed", "1", "DeadlineExceeded", True, "slurm_time_limit"),
        ("COMPLETED", "0:9", None, True, "host_oom_killed"),  # a step SIGKILLed in a job that went on
        ("COMPLETED", "0:0", None, False, None),
        ("CANCELLED by 1000", "0:15", None, True, None),  # non-zero signal: a failure, no class guessed
        ("RUNNING", "0:0", None, False, None),
        ("Succeeded", None, None, False, None),
        (None, None, None, False, None),
    ],
)
def test_the_scheduler_record_of_a_failed_job_and_the_class_it_names(state, exit_code, reason, failed, cls):
    from bot.fetch import JobFacts, JobRef
    from bot.jobs import failed_by_scheduler, scheduler_failure

    facts = JobFacts(job_id="7", state=state, exit_code=exit_code, reason=reason)
    assert failed_by_scheduler(facts) is failed
    if failed:
        found = scheduler_failure(JobRef(cluster="c", kind="slurm", job_id="7", raw="7"), facts)
        assert found["unrecognised_hint"].class_ == cls
        assert found["unrecognised"][0].lines[0].text == facts.line()
