"""The docs stay honest: generated tables match the library, every command is documented."""

import argparse

from conftest import ROOT, run_denpex

from bot.cli import build_parser
from signatures import default_library
from signatures._lint import coverage_markdown


def test_coverage_table_is_current():
    committed = (ROOT / "docs" / "coverage.md").read_text()
    assert committed == coverage_markdown(default_library()), (
        "docs/coverage.md is stale: run `denpex signatures coverage > docs/coverage.md`"
    )


def _commands(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
    """Every command of the CLI, from its own parser: "denpex diagnose", "denpex signatures list", ..."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append(f"{prefix} {name}")
                found += _commands(sub, f"{prefix} {name}")
    return found


def test_every_cli_command_is_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    commands = _commands(build_parser(), "denpex")
    assert {"denpex diagnose", "denpex serve", "denpex watch", "denpex signatures test"} <= set(commands)
    missing = [c for c in commands if c not in readme]
    assert not missing, f"README.md does not show {missing}"
    diagnose = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices["diagnose"]
    flags = [f for a in diagnose._actions for f in a.option_strings if f.startswith("--") and f != "--help"]
    assert not [f for f in flags if f not in readme], "a diagnose option the README does not mention"


def test_cli_help_lists_every_subcommand():
    out = run_denpex("signatures", "--help").stdout.decode()
    for sub in ["list", "show", "test", "lint", "coverage"]:
        assert sub in out
