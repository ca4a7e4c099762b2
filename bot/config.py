"""The configuration file: one TOML file named by DENPEX_CONFIG, validated at start-up.

Secrets never live here (they come from the environment). An invalid file stops
the program with the file, the key and the reason.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

ENV_CONFIG = "DENPEX_CONFIG"


class ConfigError(Exception):
    """The configuration is missing or invalid; the message names the file, the key and the reason."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SignaturesSection(_Section):
    extra_dirs: list[Path] = Field(default_factory=list)

    @field_validator("extra_dirs")
    @classmethod
    def _dirs_exist(cls, dirs: list[Path]) -> list[Path]:
        for d in dirs:
            if not d.is_dir():
                raise ValueError(f"{d} is not a directory")
        return dirs


class BotSection(_Section):
    max_file_bytes: int = Field(1 << 30, gt=0)
    download_timeout_seconds: float = Field(300.0, gt=0)
    file_hosts: list[str] = Field(default_factory=lambda: ["files.slack.com", "files.slack-gov.com"])
    progress_interval_seconds: float = Field(3.0, ge=0.5)
    max_concurrent_diagnoses: int = Field(4, ge=1, le=64)


class Config(_Section):
    signatures: SignaturesSection = Field(default_factory=SignaturesSection)
    bot: BotSection = Field(default_factory=BotSection)


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
