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


def _readme_blocks(kind: str) -> list[str]:
    import re

    return re.findall(rf"```{kind}\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


def test_every_denpex_command_in_the_readme_parses():
    """The README's command lines are real: each parses with the CLI's own parser (a wrong subcommand, a flag
    that does not exist or a missing argument fails here)."""
    import re
    import shlex

    lines = [
        re.sub(r" \[[^\]]*\]", "", line.split("  #", 1)[0].strip())  # usage's [optional] parts left out
        for block in _readme_blocks("sh")
        for line in block.splitlines()
        if line.strip().startswith("denpex ")
    ]
    assert len(lines) >= 10
    parser = build_parser()
    for line in lines:
        tokens = shlex.split(line)
        argv = tokens[1 : next((i for i, t in enumerate(tokens) if t in ("|", ">", "2>")), len(tokens))]
        try:
            parser.parse_args(argv)
        except SystemExit as exc:
            raise AssertionError(f"README command does not parse: {line}") from exc


def test_every_signature_id_and_class_the_readme_names_exists():
    import re

    library = default_library()
    ids = set(library.by_id())
    classes = set(library.taxonomy)
    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"`([a-z][a-z0-9_]*\.[a-z0-9_]+(?:\.[a-z0-9_]+)*)`", readme))
    files = (".py", ".toml", ".log", ".md", ".json", ".out", ".sh", ".png", ".gz", ".db", ".txt", ".lock", ".yaml")
    prefixes = {i.split(".", 1)[0] for i in ids}  # a name that reads like one of the library's ids
    named = {n for n in named if not n.endswith(files) and n.split(".", 1)[0] in prefixes}
    assert named, "the README names signatures by id"
    assert not named - ids, f"README names signature ids the library does not have: {sorted(named - ids)}"
    for block in _readme_blocks("json"):
        import json

        example = json.loads(block)
        for d in example.get("diagnoses", []):
            assert d["signature"] in ids and d["class"] in classes
            assert library.by_id()[d["signature"]].cls == d["class"]
            for c in d.get("collateral", []):
                assert c["signature"] in ids and library.by_id()[c["signature"]].cls == c["class"]


def test_the_readmes_json_example_is_what_the_bundled_example_gives():
    """Keys the contract has, and the facts of `denpex diagnose examples/job_812345.tar.gz --json`."""
    import json

    (block,) = [b for b in _readme_blocks("json") if '"diagnoses"' in b]
    example = json.loads(block)
    real = json.loads(run_denpex("diagnose", "--json", str(ROOT / "examples" / "job_812345.tar.gz")).stdout)
    assert set(example) <= set(real)
    shown, top = example["diagnoses"][0], real["diagnoses"][0]
    assert set(shown) <= set(top), set(shown) - set(top)
    for key in ("signature", "class", "initiating_rank", "host", "action"):
        assert shown[key] == top[key], key
    assert shown["attribution"]["rule"] == top["attribution"]["rule"]
    assert shown["first_seen"]["line"] == top["first_seen"]["line"]
    assert all(top["values"][k] == v for k, v in shown["values"].items())
    assert [c["signature"] for c in shown["collateral"]] == [c["signature"] for c in top["collateral"]][:1]
    assert shown["collateral"][0]["ranks"] == top["collateral"][0]["ranks"]
    assert {k: real["stats"][k] for k in ("bytes", "lines", "ranks")} == {
        k: example["stats"][k] for k in ("bytes", "lines", "ranks")
    }
