"""Diagnosing real jobs of a real one-node Slurm by id (started by ./run-tests; CI must have it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import slurm_early
from conftest import run_denpex

MINIMAL_CONFIG = '[clusters.local]\nkind = "slurm"\n'


def _slurm_up() -> str | None:
    if not shutil.which("sbatch"):
        return "Slurm is not installed (sbatch not found)"
    probe = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=20)
    if probe.returncode != 0 or not probe.stdout.strip():
        return f"Slurm is not running: {probe.stderr.strip()[:200]}"
    return None


@pytest.fixture(scope="session")
def slurm_jobs(tmp_path_factory):
    """Submit every test job at once (they run side by side), return {name: job id}."""
    reason = _slurm_up()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Slurm tests: {reason}")
        pytest.skip(reason)
    work = tmp_path_factory.mktemp("slurm")
    python = sys.executable
    scripts = {
        "traceback": f"""#!/bin/bash
            echo "starting training"
            {python} - <<'PY'
            import json
            for step in range(1, 4):
                print(f"step {{step}} loss {{2.0 / step:.3f}}", flush=True)
            def load_shard(path):
                with open(path) as fh:
                    return json.load(fh)
            load_shard("data/shard_00017.jsonl")
            PY
            """,
        "srun_label": f"""#!/bin/bash
            #SBATCH --ntasks=4
            srun --label --kill-on-bad-exit=1 {python} - <<'PY'
            import os, sys, time
            rank = int(os.environ["SLURM_PROCID"])
            for step in range(1, 4):
                print(f"[rank{{rank}}] step {{step}} loss 1.5", flush=True)
                time.sleep(0.2)
            if rank == 2:
                raise ModuleNotFoundError("No module named 'flash_attn'")
            time.sleep(30)
            PY
            """,
        "array": f"""#!/bin/bash
            #SBATCH --array=0-2
            {python} -c "import os, sys; t = int(os.environ['SLURM_ARRAY_TASK_ID']); print('task', t, 'step 1 loss 1.0');
            sys.exit(0) if t != 1 else (_ for _ in ()).throw(MemoryError())"
            """,
        "silent": """#!/bin/bash
            echo "step 1 loss 2.0"
            sleep 120
            """,
        "pending": """#!/bin/bash
            #SBATCH --begin=now+1hour
            echo never
            """,
    }
    # the time-limited job was submitted as the session started (tests/slurm_early.py); submitted here otherwise
    ids = slurm_early.submitted()
    scripts.update({name: slurm_early.text(name) for name in slurm_early.EARLY if name not in ids})
    for name, body in scripts.items():
        script = work / f"{name}.sh"
        script.write_text(textwrap.dedent(body).replace("\n            ", "\n"))
        done = subprocess.run(
            ["sbatch", "--parsable", "-J", f"denpex-{name}", "-D", str(work), "-o", "slurm-%x-%j.out", str(script)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        ids[name] = done.stdout.strip().split(";")[0]
    yield ids
    subprocess.run(["scancel", *ids.values()], capture_output=True)


def test_the_test_cluster_runs_on_its_own_config(slurm_jobs):
    """tests/slurm/start.sh leaves /etc/slurm alone: its controller, and the clients here, read its own slurm.conf."""
    from conftest import TEST_SLURM_CONF

    shown = subprocess.run(["scontrol", "show", "config"], capture_output=True, text=True, timeout=30).stdout
    assert os.environ["SLURM_CONF"] == str(TEST_SLURM_CONF)
    assert f"SLURM_CONF              = {TEST_SLURM_CONF}" in shown  # the path the controller loaded


def wait_for_state(job_id: str, states: set[str], timeout: float = 180) -> str:
    deadline = time.monotonic() + timeout
    state = ""
    while time.monotonic() < deadline:
        out = subprocess.run(["scontrol", "show", "job", "-o", job_id], capture_output=True, text=True).stdout
        found = {
            part.split("=", 1)[1] for line in out.splitlines() for part in line.split() if part.startswith("JobState=")
        }
        if found and found <= states:
            return "/".join(sorted(found))
        state = "/".join(sorted(found))
        time.sleep(1)
    raise AssertionError(f"job {job_id} still {state} after {timeout}s")


@pytest.fixture
def minimal_config(tmp_path, monkeypatch):
    path = tmp_path / "denpex.toml"
    path.write_text(MINIMAL_CONFIG)
    return path


def diagnose_job(job: str, config: Path) -> tuple[int, dict | None, str]:
    env_before = os.environ.get("DENPEX_CONFIG")
    os.environ["DENPEX_CONFIG"] = str(config)
    try:
        proc = subprocess.run(
            [*_denpex(), "diagnose", "--job", job, "--json"], capture_output=True, timeout=120, env={**os.environ}
        )
    finally:
        if env_before is None:
            os.environ.pop("DENPEX_CONFIG")
        else:
            os.environ["DENPEX_CONFIG"] = env_before
    report = json.loads(proc.stdout) if proc.returncode == 0 else None
    return proc.returncode, report, proc.stderr.decode()


def _denpex() -> list[str]:
    from conftest import denpex_cmd

    return denpex_cmd()


def test_a_python_traceback_job(slurm_jobs, minimal_config):
    job = slurm_jobs["traceback"]
    wait_for_state(job, {"FAILED", "COMPLETED"})
    code, report, err = diagnose_job(job, minimal_config)
    assert code == 0 and report is not None, err
    top = report["diagnoses"][0]
    assert top["class"] == "tokenizer_or_data_error", top["signature"]
    assert "shard_00017.jsonl" in json.dumps(top["evidence"])
    assert report["job"]["state"] == "FAILED" and report["job"]["exit_code"] == "1:0"
    assert report["job"]["name"] == "denpex-traceback"


def test_a_running_job_that_stopped_writing_is_called_a_hang(slurm_jobs, minimal_config, tmp_path):
    job = slurm_jobs["silent"]
    wait_for_state(job, {"RUNNING"})
    config = tmp_path / "silent.toml"
    config.write_text(MINIMAL_CONFIG + 'silent_after = "3s"\n')
    deadline = time.monotonic() + 60
    while True:  # the job wrote its one line, then went quiet
        code, report, err = diagnose_job(job, config)
        assert code == 0 and report is not None, err
        if report["diagnoses"] or time.monotonic() > deadline:
            break
        time.sleep(1)
    top = report["diagnoses"][0]
    assert top["class"] == "job_hang_no_progress", top["signature"]
    assert top["values"]["job_id"] == job and "RUNNING" in top["first_seen"]["text"]
    assert report["job"]["state"] == "RUNNING"
    code, report, err = diagnose_job(
        job, minimal_config
    )  # silent_after defaults to 30m: seconds of quiet are not a hang
    assert code == 0 and report is not None, err
    assert report["diagnoses"] == [] and report["job"]["state"] == "RUNNING"
    subprocess.run(["scancel", job], capture_output=True)


def test_a_time_limited_job_is_named_as_such(slurm_jobs, minimal_config):
    job = slurm_jobs["time_limit"]
    wait_for_state(job, {"RUNNING", "TIMEOUT"})
    if wait_for_state(job, {"RUNNING", "TIMEOUT"}) == "RUNNING":  # a running job's log, read as it stands
        code, report, err = diagnose_job(job, minimal_config)
        assert code == 0 and report is not None, err
        assert any("still running" in n for n in report["job"]["notes"]) and report["diagnoses"] == []
    wait_for_state(job, {"TIMEOUT"}, timeout=200)
    code, report, err = diagnose_job(f"local/{job}", minimal_config)
    assert code == 0 and report is not None, err
    top = report["diagnoses"][0]
    assert top["class"] == "slurm_time_limit", (top["signature"], top["first_seen"])
    assert top["values"].get("job_id") == job
    assert report["job"]["state"] == "TIMEOUT"


def test_srun_label_output_names_the_failing_task(slurm_jobs, minimal_config):
    job = slurm_jobs["srun_label"]
    wait_for_state(job, {"FAILED", "COMPLETED", "CANCELLED"})
    code, report, err = diagnose_job(job, minimal_config)
    assert code == 0 and report is not None, err
    top = report["diagnoses"][0]
    assert top["class"] == "dependency_abi_mismatch", top["signature"]
    assert top["initiating_rank"] == 2
    assert report["stats"]["ranks"] == [0, 1, 2, 3]


def test_array_tasks(slurm_jobs, minimal_config):
    job = slurm_jobs["array"]
    wait_for_state(job, {"FAILED", "COMPLETED"})
    code, report, err = diagnose_job(f"{job}_1", minimal_config)
    assert code == 0 and report is not None, err
    assert report["diagnoses"][0]["class"] == "host_oom_killed"
    code, report, err = diagnose_job(job, minimal_config)  # the whole array: every task's log
    assert code == 0 and report is not None, err
    assert len(report["job"]["logs"]) == 3
    assert sorted(report["job"]["array_tasks"]) == ["0", "1", "2"]


def test_a_pending_job_is_answered_clearly(slurm_jobs, minimal_config):
    code, report, err = diagnose_job(slurm_jobs["pending"], minimal_config)
    assert code == 2 and "still pending" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "job,expected", [("999999", "does not know job 999999"), ("12;rm -rf /", "not a valid job reference")]
)
def test_unknown_and_invalid_jobs(slurm_jobs, minimal_config, job, expected):
    code, _, err = diagnose_job(job, minimal_config)
    assert code == 2 and expected in err


def test_a_job_whose_log_is_gone(slurm_jobs, minimal_config, tmp_path):
    done = subprocess.run(
        ["sbatch", "--parsable", "-o", str(tmp_path / "gone-%j.out"), "--wrap", "echo step 1"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    job = done.stdout.strip()
    wait_for_state(job, {"COMPLETED"})
    (tmp_path / f"gone-{job}.out").unlink()
    code, _, err = diagnose_job(job, minimal_config)
    assert code == 2 and "none of its logs can be read here" in err and f"gone-{job}.out" in err


def test_a_failed_job_whose_log_names_no_error_is_not_called_healthy(slurm_jobs, minimal_config, tmp_path):
    """Slurm says FAILED with exit 3; the log holds only a training step. The answer is an unrecognised failure
    whose one line is the scheduler's record, never "no failure found" (issue 11: a non-zero exit is a failure)."""
    job = submit(tmp_path, "quiet-exit", "#!/bin/bash\necho 'step 1 loss 2.0'\nexit 3\n")
    wait_for_state(job, {"FAILED"})
    code, report, err = diagnose_job(job, minimal_config)
    assert code == 0 and report is not None, err
    assert report["diagnoses"] == []
    [group] = report["unrecognised"]
    [line] = group["lines"]
    assert line["source"] == "slurm scheduler record" and "FAILED" in line["text"] and "exit 3:0" in line["text"]
    assert report["unrecognised_hint"]["class"] is None  # exit 3 names no class: none is guessed
    # the same job in the terminal: a failure, with the exit code the user can act on
    proc = subprocess.run(
        [*_denpex(), "diagnose", "--job", job, "--exit-code"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DENPEX_CONFIG": str(minimal_config), "NO_COLOR": "1"},
    )
    assert proc.returncode != 0 and "No failure found" not in proc.stdout, proc.stdout + proc.stderr


def test_a_completed_job_with_a_quiet_log_stays_healthy(slurm_jobs, minimal_config, tmp_path):
    job = submit(tmp_path, "quiet-ok", "#!/bin/bash\necho 'step 1 loss 2.0'\n")
    wait_for_state(job, {"COMPLETED"})
    code, report, err = diagnose_job(job, minimal_config)
    assert code == 0 and report is not None, err
    assert report["diagnoses"] == [] and report["unrecognised"] == []


def test_an_unreachable_scheduler(tmp_path):
    config = tmp_path / "denpex.toml"
    config.write_text('[clusters.down]\nkind = "slurm"\nscontrol = "/nonexistent/scontrol"\n')
    code, _, err = diagnose_job("812345", config)
    assert code == 2 and "not installed here" in err


def test_no_cluster_configured():
    proc = run_denpex("diagnose", "--job", "812345")
    assert proc.returncode == 2 and "[clusters]" in proc.stderr.decode()


def test_slack_diagnose_by_job_id(slurm_jobs, tmp_path):
    """`/denpex diagnose <id>` through the fake workspace against the real Slurm, with permissions."""
    from fake_slack import FakeSlack, SlackDriver
    from test_slack_e2e import CHANNEL, Bot, final_message, whole_answer

    job = slurm_jobs["traceback"]
    wait_for_state(job, {"FAILED", "COMPLETED"})
    with FakeSlack() as fake:
        fake.add_usergroup("S0ONCALL", ["U777"])
        bot = Bot(fake, tmp_path, config=MINIMAL_CONFIG + 'allow = ["U123", "S0ONCALL"]\n').start()
        try:
            driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
            resp = driver.command(f"diagnose {job}", user_id="U123")
            assert resp.status_code == 200
            message = final_message(fake, CHANNEL, lambda t: "denpex_ack" in t and "denpex-traceback" in t, timeout=60)
            blob = whole_answer(fake, message)  # the evidence is in the answer's thread
            assert "shard_00017.jsonl" in blob and "FAILED" in blob and "exit 1:0" in blob
            # allowed through the user group; the same job again links to the incident already open, said to
            # the asker alone. Slack refusing that (here: a user it does not know) still leaves the ack sent
            assert driver.command(f"diagnose local/{job}", user_id="U777").status_code == 200
            fake.wait_for(lambda: "failed after its ack" in (bot.workdir / "bot.log").read_text(errors="replace"), 30)
            fake.add_user("U777")
            assert driver.command(f"diagnose local/{job}", user_id="U777").status_code == 200
            fake.wait_for(lambda: any("Already diagnosed" in m.get("text", "") for m in ephemerals(fake)), 30)
            denied = driver.command(f"diagnose {job}", user_id="U999")
            assert "may not fetch jobs from cluster `local`" in denied.text
            assert "denied: user U999" in bot.output()
            pending = driver.command(f"diagnose {slurm_jobs['pending']}", user_id="U123")
            assert pending.status_code == 200
            final_message(fake, CHANNEL, lambda t: "still pending" in t, timeout=60)
            unknown = driver.command("diagnose 999999", user_id="U123")
            assert unknown.status_code == 200
            final_message(fake, CHANNEL, lambda t: "does not know job 999999" in t, timeout=60)
        finally:
            bot.stop()


# -- follow-ups after "Fix applied", against real reruns ------------------------------------------------

FOLLOWUP_CONFIG = (
    MINIMAL_CONFIG + 'allow = ["*"]\n\n[followups]\nfirst_check = "2s"\ninterval = "2s"\nwindow = "90s"\n'
    "tick_seconds = 0.5\n"
)


def submit(work: Path, name: str, body: str) -> str:
    script = work / f"{name}.sh"
    script.write_text(textwrap.dedent(body).replace("\n            ", "\n"))
    done = subprocess.run(
        ["sbatch", "--parsable", "-J", f"denpex-{name}", "-D", str(work), "-o", "slurm-%x-%j.out", str(script)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def fixed_rerun(work: Path) -> str:
    return submit(
        work,
        "rerun-fixed",
        f"""#!/bin/bash
        mkdir -p data && echo '{{"text": "ok"}}' > data/shard_00017.jsonl
        {sys.executable} -c "import json; json.load(open('data/shard_00017.jsonl')); print('step 1 loss 1.0')"
        """,
    )


def broken_rerun(work: Path) -> str:
    return submit(
        work,
        "rerun-broken",
        f"""#!/bin/bash
        rm -rf data
        {sys.executable} -c "import json; print('step 1 loss 2.0', flush=True); json.load(open('data/shard_00017.jsonl'))"
        """,
    )


def press_fix_applied(fake, driver, message: dict, rerun: str, user: str = "U123"):
    driver.block_action("denpex_fix_applied", value=incident_of(message), message_ts=message["ts"], user_id=user)
    fake.wait_for(lambda: fake.open_view(user, "denpex_fix_applied"))
    resp = driver.view_submission(
        "denpex_fix_applied",
        {
            "rerun": {"rerun_job": {"type": "plain_text_input", "value": rerun}},
            "note": {"fix_note": {"type": "plain_text_input", "value": "wrote the missing shard"}},
        },
        user_id=user,
    )
    assert resp.status_code == 200 and not resp.content.strip(), resp.text  # the modal closed


def incident_of(message: dict) -> str:
    from test_slack_e2e import incident_id

    return incident_id(message)


def verdicts(fake, thread_ts: str) -> list[str]:
    return [
        m.get("text", "")
        for m in fake.thread(CHANNEL_ID, thread_ts)
        if any(w in m.get("text", "") for w in ("*Gone*", "*Back*", "*Inconclusive*"))
    ]


CHANNEL_ID = "C123"


@pytest.fixture
def incident(slurm_jobs, tmp_path):
    """A bot with follow-ups configured, and the traceback job diagnosed in Slack."""
    from fake_slack import FakeSlack, SlackDriver
    from test_slack_e2e import Bot, final_message

    job = slurm_jobs["traceback"]
    wait_for_state(job, {"FAILED", "COMPLETED"})
    with FakeSlack() as fake:
        bot = Bot(fake, tmp_path, config=FOLLOWUP_CONFIG).start()
        try:
            driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
            driver.command(f"diagnose {job}")
            message = final_message(fake, CHANNEL_ID, lambda t: "denpex_ack" in t and "denpex-traceback" in t, 60)
            yield fake, bot, driver, message, Path(tmp_path)
        finally:
            bot.stop()


def test_a_rerun_that_succeeds_proves_the_failure_gone(incident):
    fake, bot, driver, message, work = incident
    rerun = fixed_rerun(work)
    press_fix_applied(fake, driver, message, rerun)
    fake.wait_for(lambda: verdicts(fake, message["ts"]), timeout=90)
    (verdict,) = verdicts(fake, message["ts"])
    assert "*Gone*" in verdict and rerun in verdict and "finished successfully" in verdict
    fake.wait_for(lambda: ":white_check_mark: Gone" in json.dumps(fake.message(CHANNEL_ID, message["ts"])["blocks"]))
    with bot.db() as db:
        assert db.execute("SELECT status FROM incidents").fetchone()[0] == "resolved"
        assert db.execute("SELECT status, verdict FROM followups").fetchone() == ("done", "gone")
    status = driver.command("status")
    assert "No open incidents" in status.text or "resolved" not in status.text


def test_a_rerun_that_fails_the_same_way_is_called_back(incident):
    fake, bot, driver, message, work = incident
    rerun = broken_rerun(work)
    press_fix_applied(fake, driver, message, rerun, user="U123")
    fake.wait_for(lambda: verdicts(fake, message["ts"]), timeout=90)
    (verdict,) = verdicts(fake, message["ts"])
    assert "*Back*" in verdict and "<@U123>" in verdict and "shard_00017.jsonl" in verdict
    with bot.db() as db:
        assert db.execute("SELECT status FROM incidents").fetchone()[0] == "recurred"


def test_status_lists_the_watched_incident(incident):
    fake, bot, driver, message, work = incident
    rerun = submit(work, "rerun-slow", "#!/bin/bash\nfor i in $(seq 60); do echo step $i loss 1.0; sleep 1; done\n")
    try:
        press_fix_applied(fake, driver, message, rerun)
        status = driver.command("status").text
        assert "#1" in status and "Fix applied, watching the rerun" in status and "next check" in status
    finally:
        subprocess.run(["scancel", rerun])


def test_a_restart_between_scheduling_and_the_due_time_still_checks_once(incident):
    fake, bot, driver, message, work = incident
    (work / "denpex.toml").write_text(FOLLOWUP_CONFIG.replace('first_check = "2s"', 'first_check = "6s"'))
    bot.stop()
    bot.start()  # the new first_check applies
    rerun = fixed_rerun(work)
    wait_for_state(rerun, {"COMPLETED"})
    press_fix_applied(fake, driver, message, rerun)
    bot.stop()  # down before the check is due
    time.sleep(8)
    assert verdicts(fake, message["ts"]) == []
    bot.start()  # the overdue check runs at start-up
    fake.wait_for(lambda: verdicts(fake, message["ts"]), timeout=60)
    time.sleep(3)
    assert len(verdicts(fake, message["ts"])) == 1


def test_two_bot_processes_on_one_database_check_once(incident):
    fake, bot, driver, message, work = incident
    from test_slack_e2e import Bot

    twin = Bot(fake, work, config=FOLLOWUP_CONFIG)
    twin.env["DENPEX_DB"] = bot.env["DENPEX_DB"]
    twin.start()
    try:
        rerun = fixed_rerun(work)
        wait_for_state(rerun, {"COMPLETED"})
        press_fix_applied(fake, driver, message, rerun)
        fake.wait_for(lambda: verdicts(fake, message["ts"]), timeout=60)
        time.sleep(4)
        assert len(verdicts(fake, message["ts"])) == 1
    finally:
        twin.stop()


def test_the_same_job_diagnosed_again_links_to_its_incident(incident):
    fake, bot, driver, message, work = incident
    (job,) = bot.db().execute("SELECT job FROM incidents").fetchone()  # "local/<id>"
    driver.command(f"diagnose {job}")
    fake.wait_for(lambda: any("Already diagnosed" in m.get("text", "") for m in ephemerals(fake)), 30)
    with bot.db() as db:
        assert db.execute("SELECT count(*) FROM incidents").fetchone()[0] == 1


# -- watches of running jobs (`/denpex watch`), against real jobs -------------------------------------------

WATCH_CONFIG = (
    MINIMAL_CONFIG
    + 'allow = ["*"]\n\n[followups]\ntick_seconds = 0.5\n\n[watch]\ninterval = "1s"\nstall_after = "6s"\n'
    'save_warn_after = "8s"\nsave_slow_factor = 3.0\nidle_exit = "30s"\n'
)

WATCHED_JOBS = {
    # two quick saves, then one that hangs for 12 s (past 3x the earlier ones, and past save_warn_after), then the
    # job completes
    "slow-save": """#!/bin/bash
        sleep 4
        for i in 1 2 3 4 5 6; do echo "step $i loss $((30 - i)).0"; sleep 0.3; done
        echo "saving checkpoint to ckpt/step_0006.pt"; sleep 0.5; echo "saved checkpoint ckpt/step_0006.pt"
        for i in 7 8 9 10 11 12; do echo "step $i loss $((30 - i)).0"; sleep 0.3; done
        echo "saving checkpoint to ckpt/step_0012.pt"; sleep 0.5; echo "saved checkpoint ckpt/step_0012.pt"
        for i in 13 14 15; do echo "step $i loss $((30 - i)).0"; sleep 0.3; done
        echo "saving checkpoint to ckpt/step_0015.pt"; sleep 12; echo "saved checkpoint ckpt/step_0015.pt"
        echo "training complete"
        """,
    # steps, then nothing for 15 s (stall_after is 6 s) while the job keeps running, then it ends
    "stall": """#!/bin/bash
        sleep 4
        for i in $(seq 1 10); do echo "step $i loss $((30 - i)).0"; sleep 0.3; done
        sleep 15
        echo "step 11 loss 2.0"
        """,
    # a CUDA OOM traceback, then a failed exit
    "oom": """#!/bin/bash
        sleep 4
        for i in 1 2 3; do echo "[rank0]: step $i loss $((30 - i)).0"; sleep 0.5; done
        cat <<'LOG'
        [rank0]: Traceback (most recent call last):
        [rank0]:   File "/workspace/train.py", line 80, in <module>
        [rank0]:     loss.backward()
        [rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.02 GiB is free.
        LOG
        exit 1
        """,
    "completes": """#!/bin/bash
        sleep 4
        for i in $(seq 1 8); do echo "step $i loss 0.$((9 - i))"; sleep 0.3; done
        echo "training complete"
        """,
}


# the scripts' lines after the shebang, dedented (a heredoc's terminator must start its line)
WATCHED_JOBS = {name: "#!/bin/bash\n" + textwrap.dedent(body.split("\n", 1)[1]) for name, body in WATCHED_JOBS.items()}


def ephemerals(fake) -> list[dict]:
    return [e["message"] for e in fake.ephemeral_messages(CHANNEL_ID)]


def thread_texts(fake, thread_ts: str) -> list[str]:
    return [m.get("text", "") for m in fake.thread(CHANNEL_ID, thread_ts)]


def watch_thread(fake, job: str, timeout: float = 60) -> str:
    """The thread of the watch's confirmation message."""
    from test_slack_e2e import final_message

    return final_message(fake, CHANNEL_ID, lambda t: "asked me to watch" in t and job in t, timeout)["ts"]


def wait_for_text(fake, thread_ts: str, needle: str, timeout: float = 90) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        texts = thread_texts(fake, thread_ts)
        if any(needle in t for t in texts):
            return texts
        time.sleep(0.5)
    raise AssertionError(f"{needle!r} never posted in the thread: {thread_texts(fake, thread_ts)}")


@pytest.fixture
def watching(slurm_jobs, tmp_path):
    """A bot with fast watches, and the watched jobs submitted (running side by side)."""
    from fake_slack import FakeSlack, SlackDriver
    from test_slack_e2e import Bot

    work = tmp_path / "jobs"
    work.mkdir()
    jobs = {name: submit(work, f"watch-{name}", body) for name, body in WATCHED_JOBS.items()}
    with FakeSlack() as fake:
        bot = Bot(fake, tmp_path, config=WATCH_CONFIG).start()
        try:
            driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
            yield fake, bot, driver, jobs
        finally:
            bot.stop()
            for job in jobs.values():
                subprocess.run(["scancel", job], capture_output=True, timeout=30)


def test_watches_of_real_jobs_say_each_thing_once(watching):
    """Four real jobs watched at once: a slow third save, a stall, an OOM, a clean end; each alert once."""
    fake, bot, driver, jobs = watching
    threads = {}
    for name, job in jobs.items():
        resp = driver.command(f"watch {job}", user_id="U123")
        assert resp.status_code == 200 and not resp.text.strip(), resp.text  # acknowledged at once, nothing else
        threads[name] = watch_thread(fake, job)
    # the watch is recorded right after its confirmation is posted
    fake.wait_for(lambda: all(f"local/{j}" in driver.command("status", user_id="U123").text for j in jobs.values()))
    again = driver.command(f"watch {jobs['stall']}", user_id="U123")
    assert again.status_code == 200
    fake.wait_for(lambda: any("already being watched" in m.get("text", "") for m in ephemerals(fake)))

    texts = wait_for_text(fake, threads["slow-save"], "completed. Stopped watching", 120)
    slow = [t for t in texts if "save" in t and ":floppy_disk:" in t]
    assert len(slow) == 1, texts
    texts = wait_for_text(fake, threads["stall"], "Stopped watching", 120)
    assert len([t for t in texts if ":double_vertical_bar:" in t]) == 1, texts
    texts = wait_for_text(fake, threads["oom"], "ended FAILED", 120)
    assert len([t for t in texts if "CUDA out of memory" in t and ":x:" in t]) == 1, texts
    # the failure itself: the whole answer in the thread, once, with its buttons (an incident, follow-ups)
    full = [m for m in fake.thread(CHANNEL_ID, threads["oom"]) if "denpex_ack" in json.dumps(m.get("blocks", []))]
    assert len(full) == 1 and "CUDA out of memory" in json.dumps(full[0]["blocks"]), texts
    texts = wait_for_text(fake, threads["completes"], "completed. Stopped watching", 120)
    assert not [t for t in texts if any(icon in t for icon in (":rotating_light:", ":floppy_disk:", ":x:"))], texts
    # ended watches leave the status; nothing more is posted after the end
    time.sleep(3)
    for name, ts in threads.items():
        closing = [t for t in thread_texts(fake, ts) if "Stopped watching" in t]
        assert len(closing) == 1, (name, thread_texts(fake, ts))
    assert "Jobs being watched" not in driver.command("status", user_id="U123").text


def test_unwatch_stops_a_watch_and_unknown_jobs_are_refused(watching):
    fake, bot, driver, jobs = watching
    job = jobs["stall"]
    driver.command(f"watch {job}", user_id="U123")
    thread = watch_thread(fake, job)
    assert driver.command(f"unwatch {job}", user_id="U123").status_code == 200
    try:
        wait_for_text(fake, thread, "stopped watching", 30)
    except AssertionError as exc:  # say what the bot answered instead, and what it logged
        log = (bot.workdir / "bot.log").read_text(errors="replace")[-3000:]
        raise AssertionError(f"{exc}\nephemerals: {[m.get('text') for m in ephemerals(fake)]}\nlog: {log}") from None
    assert f"local/{job}" not in driver.command("status", user_id="U123").text
    driver.command(f"unwatch {job}", user_id="U123")
    fake.wait_for(lambda: any("is not being watched" in m.get("text", "") for m in ephemerals(fake)))
    driver.command("watch 999999", user_id="U123")
    fake.wait_for(lambda: any("does not know job 999999" in m.get("text", "") for m in ephemerals(fake)))
    assert "Which job?" in driver.command("watch", user_id="U123").text


AUTO_CONFIG = (
    MINIMAL_CONFIG
    + 'allow = ["*"]\n\n[followups]\ntick_seconds = 0.5\n\n'
    + '[[watch.auto]]\ncluster = "local"\nchannel = "C123"\nname = "^denpex-auto-"\npoll = "1s"\n'
)


def channel_posts(fake, needle: str) -> list[str]:
    """The bot's top-level messages in the channel that mention `needle` (text or blocks)."""
    texts = [
        m.get("text", "") + json.dumps(m.get("blocks", [])) for m in fake.messages(CHANNEL_ID, include_replies=False)
    ]
    return [t for t in texts if needle in t]


def test_auto_diagnoses_each_failed_job_in_scope_once(slurm_jobs, tmp_path):
    """[[watch.auto]]: a job in scope that fails unasked is diagnosed in the channel once, also across a restart;
    a job out of scope, one that completed, and one that failed before the bot first looked are not."""
    from fake_slack import FakeSlack
    from test_slack_e2e import Bot, final_message, whole_answer

    work = tmp_path / "jobs"
    work.mkdir()
    failing = f"""#!/bin/bash
        echo "step 1 loss 2.0"
        {sys.executable} -c "import json; json.load(open('data/shard_00042.jsonl'))"
        """
    before = submit(work, "auto-before", failing)
    wait_for_state(before, {"FAILED"})
    with FakeSlack() as fake:
        bot = Bot(fake, tmp_path, config=AUTO_CONFIG).start()
        try:
            time.sleep(3)  # the first look passes over the job that failed before it
            mine = submit(work, "auto-fail", failing)
            other = submit(work, "other-fail", failing)
            fine = submit(work, "auto-ok", '#!/bin/bash\necho "step 1 loss 1.0"\n')
            for job in (mine, other):
                wait_for_state(job, {"FAILED"})
            wait_for_state(fine, {"COMPLETED"})
            # the whole answer, as `/denpex diagnose` gives it: with its buttons, and an incident
            message = final_message(fake, CHANNEL_ID, lambda t: "denpex_ack" in t and "denpex-auto-fail" in t, 90)
            blob = whole_answer(fake, message, CHANNEL_ID)  # the evidence is in the answer's thread
            time.sleep(3)
        finally:
            bot.stop()
        assert "shard_00042.jsonl" in blob and "FAILED" in blob
        assert len(channel_posts(fake, "denpex-auto-fail")) == 1
        for name in ("denpex-other-fail", "denpex-auto-ok", "denpex-auto-before"):
            assert not channel_posts(fake, name), name
        bot = Bot(fake, tmp_path, config=AUTO_CONFIG).start()  # a restart on the same database
        try:
            time.sleep(4)
        finally:
            bot.stop()
        assert len(channel_posts(fake, "denpex-auto-fail")) == 1


def test_the_cli_watches_a_job_until_it_ends(slurm_jobs, tmp_path):
    """`denpex watch --job`: alerts as they happen, a closing line, exit 0 for a clean end and 1 for a failure."""
    config = tmp_path / "denpex.toml"
    config.write_text(MINIMAL_CONFIG + '\n[watch]\ninterval = "1s"\nstall_after = "1h"\n')
    work = tmp_path / "jobs"
    work.mkdir()
    jobs = {name: submit(work, f"cli-{name}", WATCHED_JOBS[name]) for name in ("oom", "completes")}
    env = {**os.environ, "DENPEX_CONFIG": str(config)}
    procs = {
        name: subprocess.Popen(
            [*_denpex(), "watch", "--job", job], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        for name, job in jobs.items()
    }
    out = {}
    try:
        for name, proc in procs.items():
            raw_out, raw_err = proc.communicate(timeout=120)
            out[name] = (proc.returncode, raw_out.decode(), raw_err.decode())
    finally:
        for proc in procs.values():
            proc.kill()
    code, stdout, stderr = out["oom"]
    assert code == 1, (stdout, stderr)
    assert stdout.count("CUDA out of memory") >= 1 and f"local/{jobs['oom']}` ended FAILED" in stdout, stdout
    code, stdout, stderr = out["completes"]
    assert code == 0 and f"local/{jobs['completes']}` completed" in stdout, (stdout, stderr)
    both = subprocess.run([*_denpex(), "watch", "--job", "1", "x.log"], capture_output=True, env=env, timeout=60)
    assert both.returncode == 2 and b"either --job or PATHs" in both.stderr
    unknown = subprocess.run([*_denpex(), "watch", "--job", "999999"], capture_output=True, env=env, timeout=60)
    assert unknown.returncode == 2 and b"does not know job 999999" in unknown.stderr


def test_a_failed_job_is_compared_with_its_last_completed_run(slurm_jobs, minimal_config, tmp_path):
    """The same job name run twice: it completed, then it failed with an error no signature knows. The diagnosis
    by id adds what the failed run printed that the completed one never did (the scheduler's memory of the
    completed run: this cluster has no accounting, so sacct cannot answer and scontrol does)."""
    (tmp_path / "train.py").write_text(
        "import os, sys\n"
        'print("config loaded: lr=0.001 batch=32 data=/scratch/run-" + os.environ["SLURM_JOB_ID"], flush=True)\n'
        "for step in range(1, 40):\n"
        '    print(f"step {step} loss {2.0 - step / 100:.3f} lr 0.001", flush=True)\n'
        'if os.path.exists("fail-now"):\n'
        '    print("WARNING: bucket quota at 99% for s3://team-ckpt (quota service)", flush=True)\n'
        '    print("QuotaPipelineError: bucket quota exceeded for s3://team-ckpt", file=sys.stderr, flush=True)\n'
        "    sys.exit(3)\n"
        'print("training finished", flush=True)\n'
    )
    body = f"""#!/bin/bash
        {sys.executable} train.py
        """
    good = submit(tmp_path, "baseline", body)
    assert wait_for_state(good, {"COMPLETED", "FAILED"}) == "COMPLETED"
    (tmp_path / "fail-now").touch()
    failed = submit(tmp_path, "baseline", body)
    assert wait_for_state(failed, {"COMPLETED", "FAILED"}) == "FAILED"
    code, report, err = diagnose_job(failed, minimal_config)
    assert code == 0 and report is not None, err
    baseline = report.get("baseline")
    assert baseline is not None and any(name.startswith(f"job {good}:") for name in baseline["good"]), baseline
    new = [line["text"] for line in baseline["new"]]
    assert any("bucket quota at 99%" in t for t in new) and any("QuotaPipelineError" in t for t in new), new
    assert not any(t.startswith(("step ", "config loaded")) for t in new), new  # printed by the good run too

    code, report, err = diagnose_job(good, minimal_config)  # a completed job is not compared with anything
    assert code == 0 and report is not None and report.get("baseline") is None, err
