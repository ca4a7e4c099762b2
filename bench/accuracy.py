#!/usr/bin/env python3
"""Accuracy on real logs from public issue trackers (tests/realworld/).

Each set has logs/ (verbatim excerpts as reporters posted them) and labels.jsonl
(class an expert names as the root cause, initiating rank when the log shows it,
source URL). Prints, per set: top-1 class accuracy, initiating-rank accuracy over
the logs that name one (among those whose class is right), healthy logs flagged,
and every miss.

    python bench/accuracy.py                # both sets
    python bench/accuracy.py --json         # machine-readable
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "dev": ROOT / "tests" / "realworld" / "dev",
    "holdout": ROOT / "tests" / "realworld" / "holdout",
    "blind_c1": ROOT / "tests" / "realworld" / "blind_c1",
    "blind_c2": ROOT / "tests" / "realworld" / "blind_c2",
    "blind_c3": ROOT / "tests" / "realworld" / "blind_c3",
    "blind_c4": ROOT / "tests" / "realworld" / "blind_c4",
    "blind_t1": ROOT / "tests" / "realworld" / "blind_t1",  # multi-rank excerpts, for attribution
    "blind_t2": ROOT / "tests" / "realworld" / "blind_t2",  # more multi-rank excerpts, frozen 6d3aed3
    "blind_t3": ROOT / "tests" / "realworld" / "blind_t3",  # issue-thread excerpts, frozen d8759c3
    "blind_t4": ROOT / "tests" / "realworld" / "blind_t4",  # issue-thread excerpts, frozen df456e2
    "blind_t5": ROOT / "tests" / "realworld" / "blind_t5",  # PyTorch/DeepSpeed/Megatron/NCCL threads, frozen f3d77c2
    "blind_t6": ROOT / "tests" / "realworld" / "blind_t6",  # application repos' threads, frozen f3d77c2 (with t5)
    "blind_t7": ROOT
    / "tests"
    / "realworld"
    / "blind_t7",  # PyTorch/DeepSpeed/NCCL/RL threads, frozen 6257654 (with t8)
    "blind_t8": ROOT / "tests" / "realworld" / "blind_t8",  # application repos' threads, frozen 6257654 (after t5/t6)
    "blind_t9": ROOT / "tests" / "realworld" / "blind_t9",  # PyTorch/DeepSpeed/Megatron/cluster threads, frozen 1765120
    "blind_t10": ROOT / "tests" / "realworld" / "blind_t10",  # application repos' threads, frozen 1765120 (with t9)
    "blind_t11": ROOT / "tests" / "realworld" / "blind_t11",  # by kind (hardware, storage, numerics), frozen 5846dc5
    "blind_t12": ROOT / "tests" / "realworld" / "blind_t12",  # by kind, application repos, frozen 5846dc5 (with t11)
    "blind_t13": ROOT / "tests" / "realworld" / "blind_t13",  # multi-rank excerpts (rank), frozen cf0feb4
    "blind_t14": ROOT / "tests" / "realworld" / "blind_t14",  # multi-rank excerpts, application repos, frozen cf0feb4
    "blind_t15": ROOT / "tests" / "realworld" / "blind_t15",  # cluster-side threads (core repos), frozen 7494f56
    "blind_t16": ROOT / "tests" / "realworld" / "blind_t16",  # application repos' threads, frozen 7494f56 (with t15)
    "blind_t17": ROOT / "tests" / "realworld" / "blind_t17",  # fine-tuning repos and forums, frozen 9f9d56c
    "blind_t18": ROOT / "tests" / "realworld" / "blind_t18",  # open-r1, DETR, BLIP, TF and JAX threads, frozen 6b0a024
    "blind_t19": ROOT / "tests" / "realworld" / "blind_t19",  # little-searched repos, frozen 0078f6e
    "blind_t20": ROOT / "tests" / "realworld" / "blind_t20",  # 25 repositories not searched before, frozen 0f2a051
    "blind_t21": ROOT / "tests" / "realworld" / "blind_t21",  # research code, smaller frameworks, frozen 8e72043
    "blind_t22": ROOT / "tests" / "realworld" / "blind_t22",  # research code, smaller frameworks, frozen 1825bc4
    "blind_t23": ROOT / "tests" / "realworld" / "blind_t23",  # research code, frozen 1d3835d
    "blind_t24": ROOT / "tests" / "realworld" / "blind_t24",  # web pages (forums, blogs), frozen 1fb598e
    "blind_t25": ROOT / "tests" / "realworld" / "blind_t25",  # multi-rank issue-thread excerpts, frozen 07352c4
    "blind_t26": ROOT / "tests" / "realworld" / "blind_t26",  # issue threads of less-used stacks, frozen 7f0ec13
    "blind_t27": ROOT / "tests" / "realworld" / "blind_t27",  # issue threads across many classes, frozen 4784613
    "blind_t28": ROOT / "tests" / "realworld" / "blind_t28",  # multi-rank issue threads (MPI, XLA, Ray), frozen f65d5fd
    "blind_t29": ROOT
    / "tests"
    / "realworld"
    / "blind_t29",  # multi-rank issue threads (Horovod, DeepSpeed, Ray), frozen 588df76
    "blind_t30": ROOT / "tests" / "realworld" / "blind_t30",  # issue threads (NCCL, vLLM, torchrun), frozen 13d1fc8
    "blind_t31": ROOT / "tests" / "realworld" / "blind_t31",  # issue threads (ESPnet, RETURNN, DeepEP), frozen e5c0910
    # issue threads (verl, TRL, ms-swift, SGLang), frozen 025c895
    "blind_t32": ROOT / "tests" / "realworld" / "blind_t32",
    "blind_t33": ROOT / "tests" / "realworld" / "blind_t33",  # issue threads (verl, SGLang, detection), frozen 9c87514
    "blind_t34": ROOT / "tests" / "realworld" / "blind_t34",  # issue threads (insightface, RepViT), frozen a002769
    # issue threads (SGLang, Open-Sora, mmengine), frozen 418114e
    "blind_t35": ROOT / "tests" / "realworld" / "blind_t35",
    # NeMo, torchtitan, ColossalAI, Horovod, fairseq, mmengine, SGLang, vLLM threads, frozen 990f898
    "blind_t36": ROOT / "tests" / "realworld" / "blind_t36",
    # fabric, hardware, checkpoint, FSDP and DeepSpeed threads, frozen b5a6417
    "blind_t37": ROOT / "tests" / "realworld" / "blind_t37",
    # what people paste when a distributed job dies: timeouts, ChildFailedError, native crashes, frozen 38a7c5f
    "blind_t38": ROOT / "tests" / "realworld" / "blind_t38",
    # a broad mix of training and serving threads, frozen 247b55d
    "blind_t39": ROOT / "tests" / "realworld" / "blind_t39",
    "runs_r1": ROOT / "tests" / "corpus" / "blind_r1",  # real CPU runs made here (torchrun, srun)
    "runs_r2": ROOT / "tests" / "corpus" / "blind_r2",  # more real CPU runs (torchrun, two agents, mp.spawn)
    "runs_r3": ROOT / "tests" / "corpus" / "blind_r3",  # and more, made after the runs_r2 fixes
    "runs_r4": ROOT / "tests" / "corpus" / "blind_r4",  # and more, made after the runs_r3 fixes
    "runs_r5": ROOT / "tests" / "corpus" / "blind_r5",  # and more, made after the runs_r4 fixes
    "runs_r6": ROOT / "tests" / "corpus" / "blind_r6",  # and more (harder, asked to be), after the runs_r5 fixes
    "runs_r7": ROOT / "tests" / "corpus" / "blind_r7",  # and more, after the runs_r6 fixes
    "runs_r8": ROOT / "tests" / "corpus" / "blind_r8",  # and more, after the runs_r7 fixes
    "runs_r9": ROOT / "tests" / "corpus" / "blind_r9",  # and more, after the runs_r8 fixes
    "runs_r10": ROOT / "tests" / "corpus" / "blind_r10",  # and more, after the runs_r9 fixes
    "runs_r11": ROOT / "tests" / "corpus" / "blind_r11",  # and more, after the runs_r10 fixes
    "runs_r12": ROOT / "tests" / "corpus" / "blind_r12",  # and more, after the runs_r11 fixes
    # and more (the hard cases, asked for), after the runs_r12 fixes
    "runs_r13": ROOT / "tests" / "corpus" / "blind_r13",
    "runs_r15": ROOT / "tests" / "corpus" / "blind_r15",  # after the runs_r14 fixes (r14's runs were lost)
    "runs_r16": ROOT / "tests" / "corpus" / "blind_r16",  # after the runs_r15 fixes
    "runs_r17": ROOT / "tests" / "corpus" / "blind_r17",  # after the runs_r16 fixes
    "runs_r18": ROOT / "tests" / "corpus" / "blind_r18",  # after the runs_r17 fixes
    "runs_r19": ROOT / "tests" / "corpus" / "blind_r19",  # after the runs_r18 fixes
    "runs_r20": ROOT / "tests" / "corpus" / "blind_r20",  # scored on 064e5b2, during the runs_r19 fixes
    "runs_r21": ROOT / "tests" / "corpus" / "blind_r21",  # after the runs_r19 and runs_r20 fixes
    "runs_r22": ROOT / "tests" / "corpus" / "blind_r22",  # after the runs_r21 fixes (with runs_r23, same frozen)
    "runs_r23": ROOT / "tests" / "corpus" / "blind_r23",  # a second evaluator at the same time
    "runs_r24": ROOT / "tests" / "corpus" / "blind_r24",  # elastic and multi-node shapes, frozen after the r25 fixes
    "runs_r25": ROOT / "tests" / "corpus" / "blind_r25",  # after the runs_r22/r23 fixes (runs_r24 at the same time)
    "runs_r26": ROOT / "tests" / "corpus" / "blind_r26",  # torchrun/srun/mp.spawn/2-3 nodes, after r24/r25 fixes
    "runs_r27": ROOT / "tests" / "corpus" / "blind_r27",  # partial pastes (tails, greps, one node), after r24/r25 fixes
    "runs_r28": ROOT / "tests" / "corpus" / "blind_r28",  # parallel layouts and launchers, frozen 8f20422
    "runs_r29": ROOT / "tests" / "corpus" / "blind_r29",  # noisy production-like logs, frozen 8c728dc (after r26 fixes)
    "runs_r30": ROOT / "tests" / "corpus" / "blind_r30",  # healthy runs that look alarming, frozen 4aedf9b
    "runs_r31": ROOT / "tests" / "corpus" / "blind_r31",  # real frameworks (HF Trainer, Lightning), frozen 4aedf9b
    "runs_r32": ROOT / "tests" / "corpus" / "blind_r32",  # alarming healthy runs again, frozen 382e7b8
    "runs_r33": ROOT / "tests" / "corpus" / "blind_r33",  # what on-call gets pasted, frozen 382e7b8
    "runs_r34": ROOT / "tests" / "corpus" / "blind_r34",  # a week of on-call, frozen d8759c3
    "runs_r35": ROOT / "tests" / "corpus" / "blind_r35",  # the runs that page on-call, frozen 6257654
    "runs_r36": ROOT / "tests" / "corpus" / "blind_r36",  # 35 runs, every kind again, frozen 57a2867
    "runs_r37": ROOT / "tests" / "corpus" / "blind_r37",  # 4-rank torchrun/srun, the initiating rank, frozen 9f9d56c
    "runs_r38": ROOT
    / "tests"
    / "corpus"
    / "blind_r38",  # messy: long logs, restarts, wrong root causes, frozen 6b0a024
    "runs_r39": ROOT / "tests" / "corpus" / "blind_r39",  # error files, DDP, loaders, frozen 0078f6e
    "runs_r40": ROOT / "tests" / "corpus" / "blind_r40",  # a job's edges, restarts, frozen 53ebe44
    "runs_r41": ROOT / "tests" / "corpus" / "blind_r41",  # pipelines, subgroups, FSDP, elastic, frozen 0712a33
    "runs_r42": ROOT / "tests" / "corpus" / "blind_r42",  # basic shapes, alarming healthy runs, frozen 86b25af
    "runs_r43": ROOT / "tests" / "corpus" / "blind_r43",  # buried failures, varied formats, frozen 8e72043
    "runs_r44": ROOT / "tests" / "corpus" / "blind_r44",  # HF Trainer, Accelerate, Lightning, frozen a77c071
    "runs_r45": ROOT / "tests" / "corpus" / "blind_r45",  # mostly healthy runs printing alarming things, frozen 65c3ecc
    "runs_r46": ROOT / "tests" / "corpus" / "blind_r46",  # long noisy logs, Slurm signal handlers, frozen 1825bc4
    "runs_r47": ROOT / "tests" / "corpus" / "blind_r47",  # 4-8 ranks, several agents, silent culprits, frozen 1fb598e
    "runs_r48": ROOT / "tests" / "corpus" / "blind_r48",  # partial views, archives, mid-run copies, frozen 267c2a0
    "runs_r49": ROOT
    / "tests"
    / "corpus"
    / "blind_r49",  # mostly healthy: eval, inference, compile, frameworks, frozen c679a60
    "runs_r50": ROOT / "tests" / "corpus" / "blind_r50",  # a general week of incidents, frozen 9a5d325
    "runs_r51": ROOT / "tests" / "corpus" / "blind_r51",  # hard attribution: teardown, silent, late, frozen 8c70000
    "runs_r52": ROOT / "tests" / "corpus" / "blind_r52",  # evidence handed over in part, frozen 66ab85c
    "runs_r53": ROOT / "tests" / "corpus" / "blind_r53",  # other stacks, silent culprits, teardowns, frozen 07352c4
    "runs_r54": ROOT / "tests" / "corpus" / "blind_r54",  # bigger jobs handed over as several sources, frozen 7f0ec13
    "runs_r55": ROOT / "tests" / "corpus" / "blind_r55",  # frameworks' own wording (FSDP, DCP, HF), frozen 4784613
    # silent culprits, launcher-only deaths, teardowns, odd ones out, dumps, frozen 588df76
    "runs_r56": ROOT / "tests" / "corpus" / "blind_r56",
    "runs_r57": ROOT / "tests" / "corpus" / "blind_r57",  # own generators, formats, archives, frozen e5c0910
    # 61 runs: segfaults, data errors, exit barriers, frozen 025c895
    "runs_r58": ROOT / "tests" / "corpus" / "blind_r58",
    "runs_r59": ROOT / "tests" / "corpus" / "blind_r59",  # 50 runs leaning to hard ranks, frozen 9c87514
    "runs_r60": ROOT / "tests" / "corpus" / "blind_r60",  # 58 runs: frameworks, formats, phases, frozen a002769
    "runs_r61": ROOT / "tests" / "corpus" / "blind_r61",  # 48 runs: phases, restarts, silent culprits, frozen 418114e
    "runs_r62": ROOT / "tests" / "corpus" / "blind_r62",  # 52 runs: silent culprits, Slurm and torchrun, frozen b5a6417
    "runs_r63": ROOT / "tests" / "corpus" / "blind_r63",  # 64 runs: breadth of classes and frameworks, frozen b5a6417
    "runs_r64": ROOT / "tests" / "corpus" / "blind_r64",  # 53 runs: an on-call week's mix, frozen e866cb2
    # 53 runs: two-node consoles, archives, partial pastes, frozen 142af18
    "runs_r65": ROOT / "tests" / "corpus" / "blind_r65",
    "runs_r66": ROOT / "tests" / "corpus" / "blind_r66",  # 40 runs: a compact varied set, frozen 20db361
}


def row_inputs(directory: Path, row: dict) -> tuple[Path, list[str]]:
    """Where a labelled row's inputs are and their names there: a whole run's, as the user would give them, from its
    directory (as the evaluators scored them: a run's directory name, "..._rank3", is ours, never the user's, and a
    rank in a path is evidence the engine reads), or one excerpt from logs/."""
    if "run" in row:
        return directory / "runs" / row["run"], list(row["inputs"])
    return directory / "logs", [row["file"]]


def report_of(where: Path, inputs: list[str], matcher, cache: dict | None = None):
    """signatures.diagnose of `inputs` named relative to `where`; `cache` (a dict the caller keeps) spares a second
    diagnosis of the same inputs with the same matcher (the test suite's accuracy floor and render budget read the
    same runs)."""
    import signatures

    key = (str(where), tuple(inputs), id(matcher))
    if cache is not None and key in cache:
        return cache[key]
    here = os.getcwd()
    os.chdir(where)
    try:
        report = signatures.diagnose(inputs, matcher=matcher)
    finally:
        os.chdir(here)
    if cache is not None:
        cache[key] = report
    return report


def evaluate(directory: Path, matcher, cache: dict | None = None) -> dict:
    rows = [json.loads(line) for line in (directory / "labels.jsonl").read_text().splitlines() if line.strip()]
    # a label its own evaluator found wrong after scoring (the blind score stands as scored; labels.jsonl is kept
    # as it was): corrections.jsonl holds {"run" or "file", the fields that change, "why"}
    fixes = directory / "corrections.jsonl"
    if fixes.exists():
        by_key = {row.get("run", row.get("file")): row for row in rows}
        for line in fixes.read_text().splitlines():
            if line.strip():
                fix = json.loads(line)
                by_key[fix.get("run", fix.get("file"))].update(
                    {k: v for k, v in fix.items() if k not in ("run", "file", "why")}
                )
    result: dict[str, Any] = {
        "logs": len(rows),
        "class_right": 0,
        "rank_named": 0,
        "rank_right": 0,
        "healthy": 0,
        "disputed": [],  # healthy runs flagged with their evaluator's own alternative class
        "flagged": [],  # every healthy run or log flagged as failing
        "ranked": 0,
        "ranked_right": 0,
    }
    misses: list[str] = []
    for row in rows:
        where, inputs = row_inputs(directory, row)
        if "run" in row:
            row["file"] = row["run"]
        report = report_of(where, inputs, matcher, cache)
        top = report.top
        got = top.class_ if top else report.outcome
        rank = top.initiating_rank if top else None
        if row["class"] == "healthy":
            result["healthy"] += 1
            if got != "healthy":
                result["flagged"].append(row["file"])
            # flagged with the class its evaluator named as acceptable too: a label in dispute (runs_r42 017, a job
            # that saved and exited cleanly after a scancel, which runs_r37 022 and blind_c3 023 label
            # preemption_sigterm)
            if got != "healthy" and got == row.get("alt_class"):
                result["disputed"].append(row["file"])
        if row.get("initiating_rank") is not None:  # the rank on its own, whatever the class
            result["ranked"] += 1
            result["ranked_right"] += top is not None and rank == row["initiating_rank"]
        if got == row["class"]:
            result["class_right"] += 1
            if row["initiating_rank"] is not None:
                result["rank_named"] += 1
                if rank == row["initiating_rank"]:
                    result["rank_right"] += 1
                else:
                    misses.append(f"{row['file']}: rank {rank}, expected {row['initiating_rank']}")
        else:
            sig = f" ({top.signature})" if top else ""
            misses.append(f"{row['file']}: {got}{sig}, expected {row['class']}")
    return {**result, "healthy_flagged": len(result["flagged"]), "misses": misses}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import signatures

    matcher = signatures.default_matcher()
    results = {name: evaluate(path, matcher) for name, path in SETS.items()}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for name, r in results.items():
        rank = f"{r['rank_right']}/{r['rank_named']}" if r["rank_named"] else "-"
        ranked = f"{r['ranked_right']}/{r['ranked']}" if r["ranked"] else "-"
        print(
            f"{name:8} class {r['class_right']}/{r['logs']} = {r['class_right'] / r['logs']:.0%}   "
            f"rank (class right) {rank}   rank (any) {ranked}   healthy flagged {r['healthy_flagged']}/{r['healthy']}"
            + (f" ({len(r['disputed'])} as the evaluator's alternative)" if r["disputed"] else "")
        )
        for miss in r["misses"]:
            print(f"           miss {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
