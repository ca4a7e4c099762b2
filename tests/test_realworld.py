"""Real logs from public issue trackers (tests/realworld): a floor on accuracy, and no healthy log flagged.

`python bench/accuracy.py` prints the full per-log result; this test keeps it from regressing.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from accuracy import SETS, evaluate  # noqa: E402

CLASS_FLOOR = 0.85  # issue 3's target for top-1 class on held-out real logs
RANK_FLOOR = 0.80  # and for the initiating rank, where the log names one
KNOWN_FLAGGED: set[tuple[str, str]] = set()  # healthy runs still flagged, each a miss the README reports


def test_real_world_accuracy(matcher, corpus_reports):
    results = [evaluate(path, matcher, corpus_reports) for path in SETS.values()]
    logs = sum(r["logs"] for r in results)
    right = sum(r["class_right"] for r in results)
    named = sum(r["rank_named"] for r in results)
    rank_right = sum(r["rank_right"] for r in results)
    misses = [m for r in results for m in r["misses"]]
    # a healthy label flagged with the class its evaluator also accepted is a label in dispute, counted apart (and
    # reported by bench/accuracy.py): runs_r42 017 (a job that saved and exited cleanly after a scancel), which two
    # other evaluators label preemption_sigterm in the same situation (runs_r37 022, blind_c3 023), and runs_r49 010
    # (torchrun sent SIGTERM from outside at a planned end; its workers saved and exited 0), the same situation
    disputed = {(name, run) for name, r in zip(SETS, results, strict=True) for run in r["disputed"]}
    assert disputed <= {("runs_r42", "017"), ("runs_r49", "010")}, disputed
    # a healthy run flagged that is no label in dispute is a miss: any fails here (runs_r55 037, caught shape errors
    # printed with no rank prefix, passes since a rank's last word "[rank1] done" says it finished)
    flagged = {(name, run) for name, r in zip(SETS, results, strict=True) for run in r["flagged"]} - disputed
    assert flagged <= KNOWN_FLAGGED, (flagged - KNOWN_FLAGGED, misses)
    assert right / logs >= CLASS_FLOOR, f"{right}/{logs}: {misses}"
    assert rank_right / named >= RANK_FLOOR, f"{rank_right}/{named}: {misses}"


def test_every_labelled_input_is_in_the_repository():
    """Each row's inputs exist in a fresh clone: git keeps no empty folder, so an empty torchrun --log-dir folder that
    a run was handed holds a .gitkeep (runs_r58 043 once had none and could not be read)."""
    from accuracy import row_inputs

    missing = []
    for name, directory in SETS.items():
        for line in (directory / "labels.jsonl").read_text().splitlines():
            if line.strip():
                where, inputs = row_inputs(directory, json.loads(line))
                missing += [f"{name}: {where / i}" for i in inputs if not (where / i).exists()]
    assert not missing, missing
