"""The docs stay honest: generated tables match the library, every command is documented."""

from conftest import ROOT, run_denpex
from signatures import default_library
from signatures._lint import coverage_markdown


def test_coverage_table_is_current():
    committed = (ROOT / "docs" / "coverage.md").read_text()
    assert committed == coverage_markdown(default_library()), \
        "docs/coverage.md is stale: run `denpex signatures coverage > docs/coverage.md`"


def test_every_cli_command_is_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for command in ["denpex diagnose", "--json", "denpex signatures list", "denpex signatures show",
                    "denpex signatures test", "denpex signatures lint", "denpex signatures coverage"]:
        assert command in readme, command


def test_cli_help_lists_every_subcommand():
    out = run_denpex("signatures", "--help").stdout.decode()
    for sub in ["list", "show", "test", "lint", "coverage"]:
        assert sub in out
