"""Real logs of really failing training runs: the class and the initiating rank must match the labels."""

import json

import pytest
from conftest import CORPUS

from signatures import Collateral, diagnose

ROWS = [json.loads(line) for line in (CORPUS / "labels.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_corpus_log(matcher, row):
    report = diagnose([str(CORPUS / row["file"])], matcher)
    if row["class"] == "healthy":
        assert report.diagnoses == [] and report.unrecognised == []
        return
    assert report.diagnoses, f"no diagnosis; unrecognised: {report.unrecognised}"
    top = report.top
    assert top is not None
    assert top.class_ == row["class"], f"{top.signature} ({top.class_}) at {top.first_seen}"
    assert top.initiating_rank == row["initiating_rank"]
    if row["has_collateral"]:
        # grouped under the cause; or, when the peers' reports are the diagnosis, they are its other ranks
        others: list[Collateral] | list[int] = top.collateral or [r for r in top.ranks if r != top.initiating_rank]
        assert others, "the knock-on failures on other ranks should be grouped"
    key_text = row["key_line"].strip()
    texts = [t.strip() for e in top.evidence for t in [e.text, *(e.context or []), *(e.context_after or [])]]
    texts += [c.first_seen.text.strip() for c in top.collateral]
    assert any(key_text in t or t in key_text for t in texts), "the most diagnostic line should be in the evidence"
