"""The JSON contract of `denpex diagnose --json` may only grow, and what the CLI prints is the model.

tests/contract/report.schema.json is the contract as released (`Report.model_json_schema()`). A property of it
that the model drops, renames, retypes, or turns from required to optional (or back) breaks the tools that read
the report, and the reports the bot has stored; a new property is fine. Refresh the file after adding one:

    python tests/test_contract.py
"""

import copy
import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import CORPUS, TESTS, denpex_cmd, run_denpex

from signatures import Report

SCHEMA = TESTS / "contract" / "report.schema.json"


def _members(schema: dict, node: dict) -> list[dict]:
    """The alternatives of a value's type (one unless it is a union), with references resolved."""

    def resolve(n: dict) -> dict:
        while "$ref" in n:
            n = schema["$defs"][n["$ref"].rsplit("/", 1)[-1]]
        return n

    node = resolve(node)
    return [resolve(n) for n in node.get("anyOf", [node])]


def _kind(node: dict) -> str:
    if "properties" in node:
        return "object"
    return "map" if node.get("type") == "object" else node.get("type", "any")


def breaking_changes(old: dict, new: dict) -> list[str]:
    """What `new` breaks of `old`, walked from the report down (names of the models do not matter)."""
    problems: list[str] = []

    def walk(o: dict, n: dict, path: str) -> None:
        olds, news = _members(old, o), _members(new, n)
        if sorted(map(_kind, olds)) != sorted(map(_kind, news)):
            problems.append(f"{path}: {'|'.join(sorted(map(_kind, olds)))} became {'|'.join(sorted(map(_kind, news)))}")
            return
        by_kind = {_kind(m): m for m in news}
        for om in olds:
            nm = by_kind[_kind(om)]
            if _kind(om) == "object":
                for name, prop in om["properties"].items():
                    where = f"{path}.{name}"
                    if name not in nm["properties"]:
                        problems.append(f"{where}: removed or renamed")
                        continue
                    was, now = name in om.get("required", []), name in nm.get("required", [])
                    if was != now:
                        problems.append(
                            f"{where}: was {'required' if was else 'optional'}, now {'required' if now else 'optional'}"
                        )
                    walk(prop, nm["properties"][name], where)
            elif _kind(om) == "array":
                walk(om["items"], nm["items"], f"{path}[]")
            elif _kind(om) == "map":
                walk(om.get("additionalProperties", {}), nm.get("additionalProperties", {}), f"{path}{{}}")

    walk(old, new, "report")
    return problems


def test_no_field_of_the_contract_is_removed_renamed_or_retyped():
    problems = breaking_changes(json.loads(SCHEMA.read_text()), Report.model_json_schema())
    assert not problems, "the JSON contract would break (fields may only be added):\n" + "\n".join(problems)


def test_the_checked_in_contract_is_current():
    assert json.loads(SCHEMA.read_text()) == Report.model_json_schema(), (
        "the report has new fields: refresh the contract with `python tests/test_contract.py`"
    )


def _drop(schema: dict, model: str, field: str) -> None:
    del schema["$defs"][model]["properties"][field]
    schema["$defs"][model]["required"].remove(field)


def _rename(schema: dict, model: str, field: str) -> None:
    props = schema["$defs"][model]["properties"]
    props[field + "_"] = props.pop(field)


@pytest.mark.parametrize(
    "change,expected",
    [
        (lambda s: _drop(s, "Diagnosis", "signature"), "report.diagnoses[].signature: removed or renamed"),
        (lambda s: _rename(s, "Evidence", "context_after"), "report.diagnoses[].evidence[].context_after: removed"),
        (
            lambda s: s["$defs"]["Stats"]["properties"]["seconds"].update(type="string"),
            "report.stats.seconds: number became string",
        ),
        (
            lambda s: s["$defs"]["FirstSeen"]["properties"].update(time={"type": "string"}),
            "report.diagnoses[].first_seen.time: null|string became string",
        ),
        (
            lambda s: s["$defs"]["Diagnosis"]["required"].remove("host"),
            "report.diagnoses[].host: was required, now optional",
        ),
        (lambda s: s["required"].append("unrecognised_hint"), "report.unrecognised_hint: was optional, now required"),
        (
            lambda s: s["$defs"]["Collateral"]["properties"]["ranks"].update(items={"type": "string"}),
            "report.diagnoses[].collateral[].ranks[]: integer became string",
        ),
    ],
)
def test_the_check_catches_what_breaks_readers(change, expected):
    schema = Report.model_json_schema()
    changed = copy.deepcopy(schema)
    change(changed)
    assert any(p.startswith(expected) for p in breaking_changes(schema, changed)), breaking_changes(schema, changed)


def test_a_new_field_is_not_a_break():
    schema = Report.model_json_schema()
    grown = copy.deepcopy(schema)
    grown["$defs"]["Diagnosis"]["properties"]["confidence_score"] = {"type": "number"}
    grown["properties"]["model_version"] = {"type": "string"}
    assert breaking_changes(schema, grown) == []


def _roundtrip(stdout: bytes) -> None:
    report = Report.model_validate_json(stdout)
    assert report.to_json() == json.loads(stdout)
    assert json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n" == stdout.decode()


@pytest.mark.parametrize(
    "inputs",
    [
        ["004_nccl_remote_peer_exited.log"],  # collateral, evidence with context
        ["033_host_oom_killed.log"],
        ["021_preemption_sigterm.log"],
        ["024_healthy.log"],
        ["blind_r1/runs/003_silent_fifo_hang/console.log", "blind_r1/runs/003_silent_fifo_hang/flight_recorder"],
    ],
)
def test_the_cli_output_is_the_model(inputs):
    proc = run_denpex("diagnose", "--json", *[str(CORPUS / i) for i in inputs])
    assert proc.returncode == 0, proc.stderr
    _roundtrip(proc.stdout)


def test_an_unrecognised_report_is_the_model(tmp_path):
    log = tmp_path / "console.log"
    log.write_text("[rank2]: step 3 of 10\n[rank2]: ERROR: the shard index could not decode record 17\n")
    proc = run_denpex("diagnose", "--json", str(log))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["unrecognised_hint"]
    _roundtrip(proc.stdout)


def test_a_job_report_is_the_model(tmp_path):
    (tmp_path / "jobs" / "42").mkdir(parents=True)
    shutil.copy(CORPUS / "033_host_oom_killed.log", tmp_path / "jobs" / "42" / "rank1.log")
    config = tmp_path / "denpex.toml"
    config.write_text(
        f'[clusters.shared]\nkind = "paths"\nallow = ["*"]\ntemplates = ["{tmp_path}/jobs/{{job_id}}/*.log"]\n'
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DENPEX_") or k == "DENPEX_CACHE_DIR"}
    proc = subprocess.run(
        denpex_cmd() + ["diagnose", "--job", "shared/42", "--json"],
        capture_output=True,
        timeout=120,
        env={**env, "DENPEX_CONFIG": str(config)},
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["job"]["job_id"] == "42"
    _roundtrip(proc.stdout)


if __name__ == "__main__":
    SCHEMA.parent.mkdir(exist_ok=True)
    SCHEMA.write_text(json.dumps(Report.model_json_schema(), indent=2) + "\n")
    print(f"wrote {SCHEMA}", file=sys.stderr)
