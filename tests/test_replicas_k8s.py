"""The Kubernetes example (config/k8s/denpex.yaml) says what the README promises for replicas: two of them in HTTP
mode, probed on /healthz, secrets from a Secret, not root, with resource requests, and a rolling restart or a node
drain that never takes both away. Read with PyYAML; the bot's own parser and settings take what it passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]  # types-PyYAML is not in requirements-dev.lock (as tests/test_manifest.py)
from conftest import ROOT

from bot.cli import build_parser
from bot.config import Config
from bot.server import DRAIN_SECONDS
from bot.settings import load_settings

MANIFEST = ROOT / "config" / "k8s" / "denpex.yaml"
SECRETS = {"SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "DENPEX_DB"}


@pytest.fixture(scope="module")
def objects() -> dict[str, dict]:
    docs = [d for d in yaml.safe_load_all(MANIFEST.read_text()) if d]
    return {d["kind"]: d for d in docs}


@pytest.fixture(scope="module")
def pod(objects) -> dict:
    return objects["Deployment"]["spec"]["template"]["spec"]


@pytest.fixture(scope="module")
def container(pod) -> dict:
    (only,) = pod["containers"]
    return only


def test_two_replicas_in_http_mode_restarted_one_at_a_time(objects, container):
    deployment = objects["Deployment"]
    assert deployment["spec"]["replicas"] == 2
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    args = build_parser().parse_args(container["command"][1:])
    assert container["command"][0] == "denpex" and args.http
    assert {"name": "http", "containerPort": args.port} in container["ports"]
    budget = objects["PodDisruptionBudget"]["spec"]
    assert budget["minAvailable"] == 1 and budget["selector"] == deployment["spec"]["selector"]


def test_probes_ask_healthz_on_the_served_port(container):
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[probe]["httpGet"] == {"path": "/healthz", "port": "http"}, probe
    # a database outage makes replicas unready long before liveness would restart them
    readiness, liveness = container["readinessProbe"], container["livenessProbe"]
    assert (
        readiness["periodSeconds"] * readiness["failureThreshold"]
        < liveness["periodSeconds"] * liveness["failureThreshold"]
    )


def test_secrets_come_from_a_secret_and_nothing_secret_is_written_in(container):
    env = {e["name"]: e for e in container["env"]}
    for name in SECRETS:
        assert env[name]["valueFrom"]["secretKeyRef"] == {"name": "denpex", "key": name}, name
    plain = " ".join(str(e.get("value", "")) for e in container["env"])
    assert not re.search(r"xox[bpa]-|postgres(ql)?://", plain)
    assert "SLACK_APP_TOKEN" not in env  # HTTP mode: no Socket Mode token


def test_the_bot_accepts_what_the_manifest_passes(container, tmp_path):
    """load_settings on the manifest's environment, with stand-ins for the Secret's values."""
    stand_ins = {
        "SLACK_BOT_TOKEN": "xoxb-1",
        "SLACK_SIGNING_SECRET": "s",
        "DENPEX_DB": "postgresql://denpex:pw@postgres.example.internal:5432/denpex?sslmode=require",
    }
    env = {e["name"]: stand_ins.get(e["name"], e.get("value")) for e in container["env"]}
    (tmp_path / "denpex.toml").write_text((ROOT / "config" / "denpex.example.toml").read_text())
    env["DENPEX_CONFIG"] = str(tmp_path / "denpex.toml")
    env["DENPEX_SPOOL_DIR"] = str(tmp_path / "spool")
    settings = load_settings(http=True, env=env)
    assert settings.postgres and "pw" not in settings.db_name and settings.spool_dir == tmp_path / "spool"


def _dockerfile_user() -> tuple[int, int]:
    user = re.search(r"^USER (\d+):(\d+)$", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    assert user
    return int(user[1]), int(user[2])


def test_not_root_and_every_written_path_is_a_volume(pod, container):
    security = pod["securityContext"]
    assert security["runAsNonRoot"] is True
    assert (security["runAsUser"], security["runAsGroup"]) == _dockerfile_user()
    own = container["securityContext"]
    assert own["allowPrivilegeEscalation"] is False and own["capabilities"]["drop"] == ["ALL"]
    assert own["readOnlyRootFilesystem"] is True
    mounts = [Path(m["mountPath"]) for m in container["volumeMounts"]]
    env = {e["name"]: e.get("value") for e in container["env"]}
    cache = re.search(r"DENPEX_CACHE_DIR=(\S+)", (ROOT / "Dockerfile").read_text())
    assert cache
    for written in (env["DENPEX_SPOOL_DIR"], cache[1], "/tmp"):
        assert any(Path(written).is_relative_to(m) for m in mounts), written
    assert pod["automountServiceAccountToken"] is False


def test_resources_and_a_grace_period_longer_than_the_shutdown(pod, container):
    requests = container["resources"]["requests"]
    assert requests["cpu"] and requests["memory"]
    pause = re.search(r"sleep\((\d+)\)", " ".join(container["lifecycle"]["preStop"]["exec"]["command"]))
    assert pause
    grace = Config().bot.shutdown_grace_seconds
    assert pod["terminationGracePeriodSeconds"] > int(pause[1]) + DRAIN_SECONDS + grace


def test_the_service_reaches_the_pods(objects, container):
    service = objects["Service"]["spec"]
    labels = objects["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert service["selector"].items() <= labels.items()
    (port,) = service["ports"]
    assert port["targetPort"] in {p["name"] for p in container["ports"]}
