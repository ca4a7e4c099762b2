"""Diagnosing real Ray jobs by submission id: a throwaway Ray head (tests/ray_head.py), jobs submitted through
its Jobs API over HTTP as `ray job submit` does, then `denpex diagnose --job ray/raysubmit_...` and
`/denpex diagnose` through the fake Slack against it. Without Ray the tests skip with the reason (under
CI=true they fail instead: CI installs Ray from requirements-dev.lock)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import denpex_cmd
from ray_head import RayHead, RayUnavailable

TOKEN_ENV = "DENPEX_TEST_RAY_TOKEN"
SCRIPTS = {
    # the data loader runs as a Ray task: the driver sees RayTaskError(FileNotFoundError) and its traceback
    "missing_shard": """
        import json
        import ray

        ray.init()

        @ray.remote
        def load_shard(path):
            with open(path) as fh:
                return json.load(fh)

        for step in range(1, 4):
            print(f"step {step} loss {2.0 / step:.3f}", flush=True)
        ray.get(load_shard.remote("data/shard_00017.jsonl"))
        """,
    "trains": """
        import ray

        ray.init()

        @ray.remote
        def train_step(step):
            return 2.0 / step

        for step, loss in enumerate(ray.get([train_step.remote(s) for s in range(1, 4)]), start=1):
            print(f"step {step} loss {loss:.3f}", flush=True)
        print("training finished", flush=True)
        """,
    "still_training": """
        import time

        for step in range(1, 1200):
            print(f"step {step} loss 1.000", flush=True)
            time.sleep(0.5)
        """,
}


@dataclass
class RayJobs:
    head: RayHead
    ids: dict[str, str]
    config: Path

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DENPEX_") or k == "DENPEX_CACHE_DIR"}
        return {**env, "DENPEX_CONFIG": str(self.config), TOKEN_ENV: self.head.token}


def cluster_config(address: str, token_env: str | None = TOKEN_ENV) -> str:
    token = f'token_env = "{token_env}"\n' if token_env else ""
    return f'[clusters.ray]\nkind = "ray"\naddress = "{address}"\nallow = ["*"]\n{token}'


@pytest.fixture(scope="module")
def ray_jobs(tmp_path_factory):
    """One head for the run (the module is its only user: an idle head would slow the rest of the suite on a
    2-core machine), every job submitted at once."""
    head = RayHead()
    try:
        head.start()
    except RayUnavailable as exc:
        head.stop()
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Ray tests: {exc}")
        pytest.skip(str(exc))
    try:
        work = tmp_path_factory.mktemp("ray")
        ids = {}
        for name, body in SCRIPTS.items():
            script = work / f"{name}.py"
            script.write_text(textwrap.dedent(body))
            ids[name] = head.submit(
                shlex.join([sys.executable, str(script)]), metadata={"job_name": f"denpex-{name.replace('_', '-')}"}
            )
        # a driver that wants more CPUs than the head has waits, PENDING, until the head is stopped
        ids["pending"] = head.submit("echo never", entrypoint_num_cpus=2)
        config = work / "denpex.toml"
        config.write_text(cluster_config(head.address))
        yield RayJobs(head, ids, config)
    finally:
        head.stop()


def diagnose(jobs: RayJobs, job: str, config: Path | None = None, **extra_env: str) -> tuple[int, dict | None, str]:
    env = jobs.env() | ({"DENPEX_CONFIG": str(config)} if config else {}) | extra_env
    proc = subprocess.run(
        denpex_cmd() + ["diagnose", "--job", job, "--json"], capture_output=True, timeout=120, env=env
    )
    report = json.loads(proc.stdout) if proc.returncode == 0 else None
    return proc.returncode, report, proc.stderr.decode()


def test_a_failed_job_is_diagnosed_by_its_submission_id(ray_jobs):
    job = ray_jobs.ids["missing_shard"]
    ray_jobs.head.wait_for(job, {"FAILED", "SUCCEEDED"})
    code, report, err = diagnose(ray_jobs, f"ray/{job}")
    assert code == 0 and report is not None, err
    top = report["diagnoses"][0]
    assert (top["class"], top["signature"]) == ("tokenizer_or_data_error", "data.dataset_file_missing")
    assert "shard_00017.jsonl" in json.dumps(top["evidence"])
    facts = report["job"]
    assert (facts["job_id"], facts["name"], facts["state"], facts["exit_code"]) == (
        job,
        "denpex-missing-shard",
        "FAILED",
        "1",
    )
    assert facts["reason"] == "Job entrypoint command failed with exit code 1"
    assert facts["nodes"] == ["127.0.0.1"] and facts["start"] and facts["end"]
    assert [log["name"] for log in facts["logs"]] == [f"ray/{job}/driver.log"]


def test_a_succeeded_job_is_healthy(ray_jobs):
    job = ray_jobs.ids["trains"]
    assert ray_jobs.head.wait_for(job, {"FAILED", "SUCCEEDED"})["status"] == "SUCCEEDED"
    code, report, err = diagnose(ray_jobs, f"ray/{job}")
    assert code == 0 and report is not None, err
    assert report["diagnoses"] == [] and report["unrecognised"] == []
    assert (report["job"]["state"], report["job"]["exit_code"]) == ("SUCCEEDED", "0")
    assert "Ray: Job finished successfully." in report["job"]["notes"]


def test_a_running_job_is_read_as_it_stands_then_stopped(ray_jobs):
    job = ray_jobs.ids["still_training"]
    ray_jobs.head.wait_for(job, {"RUNNING"})
    ray_jobs.head.wait_for_log(job, "step 2 loss")
    code, report, err = diagnose(ray_jobs, f"ray/{job}")
    assert code == 0 and report is not None, err
    assert report["diagnoses"] == [] and report["job"]["state"] == "RUNNING" and "end" not in report["job"]
    assert "the job is still running: its log was read as it stands" in report["job"]["notes"]
    assert report["job"]["nodes"] == ["127.0.0.1"]  # no driver_info (it never called ray.init): the agent's address
    ray_jobs.head.http.post(f"/api/jobs/{job}/stop").raise_for_status()
    ray_jobs.head.wait_for(job, {"STOPPED"})
    code, report, err = diagnose(ray_jobs, job)  # the only cluster is the default one
    assert code == 0 and report is not None, err
    assert (report["job"]["state"], report["job"]["reason"]) == ("STOPPED", "Job was intentionally stopped.")


def test_a_pending_job_is_answered_clearly(ray_jobs):
    job = ray_jobs.ids["pending"]
    ray_jobs.head.wait_for(job, {"PENDING"})
    code, _, err = diagnose(ray_jobs, f"ray/{job}")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"Ray job {job} is PENDING: it has not started" in err and "waiting for resources" in err


def test_an_unknown_submission_id(ray_jobs):
    code, _, err = diagnose(ray_jobs, "ray/raysubmit_NoSuchJob0000")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "has no job 'raysubmit_NoSuchJob0000' (Job raysubmit_NoSuchJob0000 does not exist)" in err


def test_a_missing_or_wrong_token_is_named(ray_jobs, tmp_path):
    job = ray_jobs.ids["trains"]
    no_token = tmp_path / "no-token.toml"
    no_token.write_text(cluster_config(ray_jobs.head.address, token_env=None))
    code, _, err = diagnose(ray_jobs, f"ray/{job}", no_token)
    assert code == 2 and "401" in err and "name the environment variable that holds it in token_env" in err, err
    wrong = tmp_path / "wrong-token.toml"
    wrong.write_text(cluster_config(ray_jobs.head.address, token_env="DENPEX_TEST_WRONG_TOKEN"))
    code, _, err = diagnose(ray_jobs, f"ray/{job}", wrong, DENPEX_TEST_WRONG_TOKEN="not-the-token")
    assert code == 2 and "403" in err and "not this cluster's" in err, err


def test_slack_diagnose_by_submission_id(ray_jobs, tmp_path):
    """`/denpex diagnose ray/raysubmit_...` to the real bot process through the fake workspace."""
    from fake_slack import FakeSlack, SlackDriver
    from test_slack_e2e import CHANNEL, Bot, final_message, whole_answer

    failed, succeeded = ray_jobs.ids["missing_shard"], ray_jobs.ids["trains"]
    ray_jobs.head.wait_for(failed, {"FAILED"})
    ray_jobs.head.wait_for(succeeded, {"SUCCEEDED"})
    with FakeSlack() as fake:
        bot = Bot(fake, tmp_path, config=ray_jobs.config.read_text())
        bot.env[TOKEN_ENV] = ray_jobs.head.token
        bot.start()
        try:
            driver = SlackDriver(bot.events_url, fake.signing_secret, fake)
            assert driver.command(f"diagnose ray/{failed}", user_id="U123").status_code == 200
            message = final_message(fake, CHANNEL, lambda t: "denpex_ack" in t and "denpex-missing-shard" in t, 60)
            blob = whole_answer(fake, message)  # the evidence is in the answer's thread
            assert "shard_00017.jsonl" in blob and "FAILED" in blob and "exit 1" in blob
            assert driver.command(f"diagnose ray/{succeeded}", user_id="U123").status_code == 200
            healthy = final_message(fake, CHANNEL, lambda t: "No failure found" in t and succeeded in t, 60)
            assert "denpex-trains" in json.dumps(healthy["blocks"]) and "denpex_ack" not in json.dumps(healthy)
            assert driver.command("diagnose ray/raysubmit_NoSuchJob0000", user_id="U123").status_code == 200
            final_message(fake, CHANNEL, lambda t: "has no job 'raysubmit_NoSuchJob0000'" in t, 60)
        finally:
            bot.stop()
