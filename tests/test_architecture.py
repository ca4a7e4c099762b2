"""docs/architecture.md stays true: every module it names exists, and its import walls hold."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text()
SLACK = ("slack_sdk", "slack_bolt")


def imports(path: Path) -> set[str]:
    """Top-level names of the modules `path` imports (relative imports resolved inside its package)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            found.add(path.relative_to(ROOT).parts[0] if node.level else node.module or "")
    return {name.split(".")[0] for name in found}


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_every_module_named_exists():
    named = set(re.findall(r"`((?:signatures|bot)/[\w/]*(?:\.py|/))`", DOC))
    assert len(named) > 30
    missing = sorted(n for n in named if not (ROOT / n).exists())
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"


def test_every_module_is_named():
    named = set(re.findall(r"`((?:signatures|bot)/[\w/]*\.py)`", DOC))
    dirs = set(re.findall(r"`((?:signatures|bot)/[\w/]*/)`", DOC))
    unnamed = [
        str(p.relative_to(ROOT))
        for package in ("signatures", "bot")
        for p in modules(package)
        if p.name != "__init__.py"
        and str(p.relative_to(ROOT)) not in named
        and not any(str(p.relative_to(ROOT)).startswith(d) for d in dirs)
    ]
    assert not unnamed, f"add these to docs/architecture.md: {unnamed}"


def test_signatures_is_pure():
    for path in modules("signatures"):
        bad = imports(path) & {"bot", "httpx", "requests", "urllib3", *SLACK}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_fetchers_know_nothing_of_slack():
    for path in modules("bot/fetch"):
        assert not imports(path) & set(SLACK), path


def test_only_the_named_modules_touch_slack():
    allowed = set(re.findall(r"`(bot/\w+\.py)`", DOC.split("Only ", 1)[1].split("import the Slack SDK")[0]))
    assert allowed
    touching = {str(p.relative_to(ROOT)) for p in modules("bot") if imports(p) & set(SLACK)}
    assert touching <= allowed, f"also import Slack: {sorted(touching - allowed)}"


def test_listeners_and_the_diagnosis_service_know_nothing_of_slack():
    paths = [*modules("bot/listeners"), ROOT / "bot" / "diagnose.py"]
    assert len(paths) >= 4
    for path in paths:
        assert not imports(path) & set(SLACK), f"{path.relative_to(ROOT)} imports Slack"


STORE_MODULES = {"bot/store.py", "bot/store_pg.py"}  # the store, and PostgreSQL under it
DATABASE_DRIVERS = {"sqlite3", "sqlite_utils", "psycopg", "psycopg_pool"}


def test_only_the_store_touches_the_database():
    for path in modules("bot"):
        if path.relative_to(ROOT).as_posix() in STORE_MODULES:
            continue
        assert not imports(path) & DATABASE_DRIVERS, path.relative_to(ROOT)
        assert not re.search(r"\bstore\.(db|reader)\b", path.read_text()), (
            f"{path.relative_to(ROOT)}: use a Store method"
        )


def test_postgresql_stays_behind_the_store():
    """Only bot/store.py imports bot/store_pg.py (lazily: SQLite users never load psycopg)."""
    assert imports(ROOT / "bot" / "store_pg.py") & {"psycopg", "psycopg_pool"}
    importers = {str(p.relative_to(ROOT)) for p in modules("bot") if "store_pg" in p.read_text()} - STORE_MODULES
    assert importers == set()
    assert not imports(ROOT / "bot" / "store.py") & {"psycopg", "psycopg_pool"}
