"""The configuration file: one TOML file named by DENPEX_CONFIG, validated at start-up.

Secrets never live here (they come from the environment). An invalid file stops
the program with the file, the key and the reason.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

ENV_CONFIG = "DENPEX_CONFIG"


class ConfigError(Exception):
    """The configuration is missing or invalid; the message names the file, the key and the reason."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SignaturesSection(_Section):
    extra_dirs: list[Path] = Field(default_factory=list)
    # `denpex signatures lint --feedback`: a signature judged on min_votes incidents or more whose precision in
    # this workspace (confirmed / (confirmed + rejected)) is below min_precision is flagged
    min_precision: float = Field(0.5, ge=0, le=1)
    min_votes: int = Field(5, ge=1)

    @field_validator("extra_dirs")
    @classmethod
    def _dirs_exist(cls, dirs: list[Path]) -> list[Path]:
        for d in dirs:
            if not d.is_dir():
                raise ValueError(f"{d} is not a directory")
        return dirs


DURATION = r"^\d+(?:\.\d+)?[smhd]$"


class BotSection(_Section):
    max_file_bytes: int = Field(1 << 30, gt=0)
    download_timeout_seconds: float = Field(300.0, gt=0)
    file_hosts: list[str] = Field(default_factory=lambda: ["files.slack.com", "files.slack-gov.com"])
    progress_interval_seconds: float = Field(3.0, ge=0.5)
    max_concurrent_diagnoses: int = Field(4, ge=1, le=64)
    shutdown_grace_seconds: float = Field(25.0, ge=0, le=600)
    request_lease_seconds: float = Field(60.0, ge=1, le=3600)
    connection_limit: int = Field(1000, ge=10, le=100000)
    channel_timeout_seconds: float = Field(15.0, gt=0, le=600)
    host_repeat_threshold: float = Field(3.0, gt=0)  # a host's incidents in host_window, weighted (see the example)
    host_window: str = Field("7d", pattern=DURATION)
    unrecognised_open_for: str = Field("3d", pattern=DURATION)  # how long an unrecognised failure stays on status


class InputsSection(_Section):
    """Bounds on reading any input (CLI and bot alike): decompressed bytes and time."""

    max_input_bytes: int = Field(20 << 30, gt=0)
    max_job_bytes: int = Field(50 << 30, gt=0)
    max_read_seconds: float = Field(3600.0, gt=0)

    def budget(self):
        from signatures import Budget

        return Budget(self.max_input_bytes, self.max_job_bytes, self.max_read_seconds)


def seconds(duration: str) -> float:
    """ "30s", "10m", "24h", "2d" -> seconds."""
    return float(duration[:-1]) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[duration[-1]]


class FollowupsSection(_Section):
    @model_validator(mode="before")
    @classmethod
    def _empty_is_unset(cls, data):
        if isinstance(data, dict):
            return {k: (None if v == "" else v) for k, v in data.items()}
        return data

    # Unset: each signature's own default (followup_interval / followup_window), else 10m / 10m / 24h.
    first_check: str | None = Field(None, pattern=DURATION)
    interval: str | None = Field(None, pattern=DURATION)
    window: str | None = Field(None, pattern=DURATION)
    # how often the scheduler looks for due checks, and how long one check may hold its lease
    tick_seconds: float = Field(5.0, gt=0)
    lease_seconds: float = Field(600.0, gt=0)


AUTO_STATES = ["FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE"]


class AutoWatch(_Section):
    """One `[[watch.auto]]` entry: every job of `cluster` in scope that ends in one of `states` is diagnosed
    in `channel`, unasked, once."""

    cluster: str
    channel: str = Field(pattern=r"^[CG][A-Z0-9]{2,}$")
    partitions: list[str] = Field(default_factory=list)  # empty: any
    accounts: list[str] = Field(default_factory=list)
    users: list[str] = Field(default_factory=list)
    name: str | None = None  # a regex the job name must match (re.search)
    namespace: str | None = None  # Kubernetes: the namespace listed (default: the cluster's)
    selector: str | None = None  # Kubernetes: a label selector the jobs must match ("team=llm,tier!=dev")
    states: list[str] = Field(default_factory=lambda: list(AUTO_STATES))
    poll: str = Field("1m", pattern=DURATION)
    # every running job in scope is watched too ([watch]'s alerts), silently until one has something to say
    watch_running: bool = False

    @field_validator("name")
    @classmethod
    def _regex(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"{value!r} is not a valid regex: {exc}") from None
        return value

    @field_validator("poll")
    @classmethod
    def _poll(cls, value: str) -> str:
        if seconds(value) <= 0:
            raise ValueError(f"{value!r} must be longer than 0s")
        return value

    @field_validator("states")
    @classmethod
    def _states(cls, value: list[str]) -> list[str]:
        unknown = [s for s in value if s not in AUTO_STATES]
        if unknown or not value:
            raise ValueError(f"states must be some of {', '.join(AUTO_STATES)}; not {unknown or 'none'}")
        return value

    @property
    def key(self) -> str:
        """What identifies the entry in the store: the jobs it has answered for are its own."""
        return f"{self.cluster}>{self.channel}"


class WatchSection(_Section):
    """Watching a running job's logs as they grow (`denpex watch`, and the bot's watches)."""

    auto: list[AutoWatch] = Field(default_factory=list)  # [[watch.auto]]: failed jobs diagnosed unasked

    interval: str = Field("5s", pattern=DURATION)
    stall_after: str = Field("10m", pattern=DURATION)
    save_warn_after: str = Field("30m", pattern=DURATION)
    save_slow_factor: float = Field(3.0, gt=1)
    slow_factor: float = Field(2.0, gt=1)
    window: int = Field(50, ge=2, le=100000)
    idle_exit: str = Field("2m", pattern=DURATION)

    @field_validator("interval", "stall_after", "save_warn_after", "idle_exit")
    @classmethod
    def _longer_than_zero(cls, value: str) -> str:
        if seconds(value) <= 0:
            raise ValueError(f"{value!r} must be longer than 0s")
        return value


class _Cluster(_Section):
    # Slack user ids (U...) or user group ids (S...) allowed to fetch this cluster's jobs; "*" for everyone.
    allow: list[str] = Field(default_factory=list)
    max_bytes: int = Field(2 << 30, gt=0)
    timeout_seconds: float = Field(120.0, gt=0)


class _Optional(_Cluster):
    @model_validator(mode="before")
    @classmethod
    def _empty_is_unset(cls, data):
        """An empty string in the file means "not set" (TOML has no null)."""
        if isinstance(data, dict):
            return {k: (None if v == "" and k != "kind" else v) for k, v in data.items()}
        return data


class SlurmCluster(_Optional):
    kind: Literal["slurm"]
    scontrol: str = "scontrol"
    sacct: str = "sacct"
    log_templates: list[str] = Field(default_factory=list)
    restd_url: str | None = None
    restd_socket: str | None = None
    restd_token_env: str = "SLURM_JWT"
    restd_user: str | None = None
    restd_version: str = "v0.0.38"
    # a RUNNING job none of whose logs has been written for this long is reported as silent (a hang)
    silent_after: str = Field("30m", pattern=DURATION)
    # a failed job is compared with the last COMPLETED run of the same name and user (sacct, else scontrol)
    baseline: bool = True


class KubernetesCluster(_Optional):
    kind: Literal["kubernetes"]
    api_url: str | None = None  # default: the in-cluster API server
    token_env: str | None = None  # default: the in-cluster service account token
    ca_file: str | None = None
    verify_tls: bool = True
    namespace: str = "default"
    # a failed job is compared with the last completed job of the same kind and workload labels
    baseline: bool = True


class RayCluster(_Optional):
    kind: Literal["ray"]
    address: str = "http://127.0.0.1:8265"
    token_env: str | None = None


class PathsCluster(_Cluster):
    kind: Literal["paths"]
    templates: list[str] = Field(min_length=1)


ClusterConfig = Annotated[SlurmCluster | KubernetesCluster | RayCluster | PathsCluster, Field(discriminator="kind")]


class Config(_Section):
    signatures: SignaturesSection = Field(default_factory=SignaturesSection)
    bot: BotSection = Field(default_factory=BotSection)
    inputs: InputsSection = Field(default_factory=InputsSection)
    clusters: dict[str, ClusterConfig] = Field(default_factory=dict)
    followups: FollowupsSection = Field(default_factory=FollowupsSection)
    watch: WatchSection = Field(default_factory=WatchSection)

    @model_validator(mode="after")
    def _auto_clusters(self) -> Config:
        keys = [entry.key for entry in self.watch.auto]
        for i, key in enumerate(keys):
            if key in keys[:i]:
                raise ValueError(f"watch.auto.{i}: a second entry for cluster and channel {key!r}; merge their filters")
        for i, entry in enumerate(self.watch.auto):
            cluster = self.clusters.get(entry.cluster)
            if cluster is None:
                raise ValueError(f"watch.auto.{i}.cluster: no cluster {entry.cluster!r} in [clusters]")
            if cluster.kind not in ("slurm", "kubernetes"):
                raise ValueError(
                    f"watch.auto.{i}.cluster: {entry.cluster!r} is {cluster.kind}; auto needs slurm or kubernetes"
                )
            slurm_only = {"partitions": entry.partitions, "accounts": entry.accounts, "users": entry.users}
            kubernetes_only = {"namespace": entry.namespace, "selector": entry.selector}
            other = "Slurm" if cluster.kind == "kubernetes" else "Kubernetes"
            for key, value in (slurm_only if cluster.kind == "kubernetes" else kubernetes_only).items():
                if value:
                    raise ValueError(
                        f"watch.auto.{i}.{key}: filters {other} jobs; {entry.cluster!r} is a {cluster.kind} cluster"
                    )
            explicit = "states" in entry.model_fields_set  # the default names Slurm's states: a Kubernetes job has 2
            if cluster.kind == "kubernetes" and explicit and set(entry.states) - {"FAILED", "TIMEOUT"}:
                unknown = sorted(set(entry.states) - {"FAILED", "TIMEOUT"})
                raise ValueError(
                    f"watch.auto.{i}.states: a Kubernetes job ends FAILED (its Failed condition) or TIMEOUT "
                    f"(DeadlineExceeded); not {', '.join(unknown)}"
                )
        return self


def load_config(path: str | os.PathLike | None = None) -> Config:
    """Load the file at `path`, else at $DENPEX_CONFIG, else the defaults."""
    if path is None:
        path = os.environ.get(ENV_CONFIG) or None
    if path is None:
        return Config()
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file ({ENV_CONFIG})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    base = path.parent
    dirs = data.get("signatures", {}).get("extra_dirs") if isinstance(data.get("signatures"), dict) else None
    if isinstance(dirs, list):  # relative directories are relative to the config file
        data["signatures"]["extra_dirs"] = [str(base / d) if isinstance(d, str) else d for d in dirs]
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"] if not isinstance(p, int)) or "(file)"
        raise ConfigError(f"{path}: {key}: {err['msg']}") from None
