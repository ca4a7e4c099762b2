"""DENPEX_CONFIG: documented, validated, and used."""

import os
import shutil
import tomllib
from typing import get_args

import pytest
from conftest import ROOT, RULES_LIBRARY, denpex_cmd
from pydantic import BaseModel

from bot.config import Config, ConfigError, load_config

EXAMPLE = ROOT / "config" / "denpex.example.toml"


def test_example_config_is_valid_and_documents_every_key():
    from bot.config import KubernetesCluster, PathsCluster, RayCluster, SlurmCluster

    config = load_config(EXAMPLE)
    text = EXAMPLE.read_text()
    data = tomllib.loads(text)
    sections = [
        name
        for name, field in Config.model_fields.items()  # every section the code reads
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)
    ]
    assert {"signatures", "bot", "followups", "inputs", "watch"} <= set(sections)
    for section in sections:
        assert f"[{section}]" in text, section
        section_model = Config.model_fields[section].annotation
        assert section_model is not None
        for key in section_model.model_fields:
            assert key in data[section], f"{section}.{key} missing from the example config"
    examples = {c.kind: name for name, c in config.clusters.items()}
    for model in (SlurmCluster, KubernetesCluster, RayCluster, PathsCluster):
        kind = get_args(model.model_fields["kind"].annotation)[0]  # Literal["slurm"] -> "slurm"
        assert kind in examples, f"no example [clusters.*] of kind {kind}"
        for key in model.model_fields:
            assert key in data["clusters"][examples[kind]], f"clusters.{examples[kind]}.{key} is not documented"


@pytest.mark.parametrize(
    "body,expected",
    [
        ("[signatures]\nextra_dirs = ['nope']\n", "signatures.extra_dirs: Value error, "),
        ("[signatures]\nunknown = 1\n", "signatures.unknown: Extra inputs are not permitted"),
        ("[sigantures]\n", "sigantures: Extra inputs are not permitted"),
        ("[clusters.x]\nkind = 'lsf'\n", "clusters.x: Input tag 'lsf' found using 'kind' does not match"),
        ("[clusters.x]\nkind = 'paths'\n", "clusters.x.paths.templates: Field required"),
        ("[signatures\n", "not valid TOML"),
    ],
)
def test_invalid_config_names_file_key_and_reason(tmp_path, body, expected):
    path = tmp_path / "denpex.toml"
    path.write_text(body)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value) and expected in str(err.value)


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "absent.toml")


def test_site_signatures_are_added_to_the_bundled_library(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    shutil.copy(RULES_LIBRARY / "test.boom.toml", site / "test.boom.toml")
    (tmp_path / "denpex.toml").write_text("[signatures]\nextra_dirs = ['site']\n")  # relative to the file
    log = tmp_path / "job.log"
    log.write_text("[rank1]: BoomError: site specific\n")
    import subprocess

    env = {**os.environ, "DENPEX_CONFIG": str(tmp_path / "denpex.toml")}
    out = subprocess.run(denpex_cmd() + ["diagnose", str(log)], capture_output=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "test.boom" in out.stdout.decode()
    listing = subprocess.run(denpex_cmd() + ["signatures", "list"], capture_output=True, env=env, timeout=60)
    assert "test.boom" in listing.stdout.decode() and "python.uncaught_exception" in listing.stdout.decode()
    bad = subprocess.run(
        denpex_cmd() + ["diagnose", str(log)],
        capture_output=True,
        timeout=60,
        env={**os.environ, "DENPEX_CONFIG": str(tmp_path / "absent.toml")},
    )
    assert bad.returncode == 2 and "invalid configuration" in bad.stderr.decode()
